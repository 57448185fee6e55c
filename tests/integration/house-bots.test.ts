/**
 * The house engine bots against the real Fairy-Stockfish, played through the gateway, a
 * real worker and the engine role (its BullMQ queue and pool): a person's game is started
 * with POST /api/bots/:id/games and a scripted random mover plays the person's side through
 * the public API, as the bot plays its own.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { BotRegistry } from '@shogi/gateway';
import type { BotList, GameView, TimeControl } from '@shogi/protocol';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type GameEnd, playAsBot } from '../../apps/server/src/demo/bot.js';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { startBotOpponent } from '../../apps/server/src/demo/opponent.js';
import { EngineClient } from '../../apps/server/src/house/engine-client.js';
import { houseBotPlayerId, startHouseBots } from '../../apps/server/src/house/house-bots.js';
import { bearer, call, REDIS, type Stack, silentLogger, startStack, startStackEngines } from './harness.js';

const SETTINGS = { path: DEFAULT_ENGINE_PATH, workers: 2, hashMb: 16, analysisDepth: 8 };

let stack: Stack;
let engines: RunningEngineWorker | null = null;
let client: EngineClient;

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH))
    throw new Error(`${DEFAULT_ENGINE_PATH} is missing: install it with apt-get install fairy-stockfish`);
  const bots = new BotRegistry();
  stack = await startStack({ listen: true, extras: { bots } });
  const prefix = stack.config.queuePrefix;
  engines = await startStackEngines(stack, SETTINGS);
  if (engines === null) throw new Error('the engine role did not start');
  client = await EngineClient.start({ ...REDIS, prefix, logger: silentLogger() });
  await startBotOpponent({ baseUrl: stack.baseUrl, registry: bots, logger: silentLogger() });
  await startHouseBots({
    baseUrl: stack.baseUrl,
    housePlayer: stack.housePlayer,
    registry: bots,
    logger: silentLogger(),
    engine: client,
    levels: [1, 4, 8],
    moveDelayMs: 0,
  });
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  await engines?.close();
});

interface Played {
  readonly view: GameView;
  readonly end: GameEnd;
  readonly personSide: 'sente' | 'gote';
}

/** A person starts a game against the bot and a random mover plays it, resigning at `maxMoves` plies. */
async function playAgainst(
  botId: string,
  terms: { timeControl?: TimeControl; handicap?: string; side?: 'sente' | 'gote' },
  maxMoves: number,
  seed: number,
): Promise<Played> {
  const person = (await call(stack.app, 'POST', '/api/players', { name: `person-${botId}-${seed}` })).body;
  const created = await call(stack.app, 'POST', `/api/bots/${botId}/games`, terms, bearer(person.token));
  expect(created.status).toBe(201);
  const view = created.body as GameView;
  expect(view.rated).toBe(false);
  const personSide = view.players.sente.id === person.id ? 'sente' : 'gote';
  const end = await playAsBot(view, {
    api: stack.api,
    player: person,
    via: 'http',
    random: seeded(seed),
    moveDelayMs: 0,
    maxMoves,
  });
  return { view, end, personSide };
}

/** Every move of the game was accepted: the worker never refused the bot (nor the script). */
async function expectNoRejection(gameId: string): Promise<void> {
  const { events } = await stack.api.events(gameId);
  expect(events.filter((e) => e.type === 'MoveRejected')).toEqual([]);
  const submitted = events.filter((e) => e.type === 'MoveSubmitted').length;
  expect(events.filter((e) => e.type === 'MoveAccepted').length).toBe(submitted);
}

test('GET /api/bots lists the house bots with their levels, and the demo bot without one', async () => {
  const { bots, engine } = (await call(stack.app, 'GET', '/api/bots')).body as BotList;
  // the engine role runs: the levels are its own
  expect(engine).toEqual({ running: true, name: expect.stringMatching(/Fairy-Stockfish/i) });
  const house = bots.filter((b) => b.level !== undefined).map(({ id, name, level }) => ({ id, name, level }));
  expect(house).toEqual([
    { id: 'engine-1', name: 'Engine level 1', level: 1 },
    { id: 'engine-4', name: 'Engine level 4', level: 4 },
    { id: 'engine-8', name: 'Engine level 8', level: 8 },
  ]);
  expect(bots.find((b) => b.name === 'demo-bot')).not.toHaveProperty('level');
  // a game page knows the bot by its player: that id starts a game too
  const level4 = bots.find((b) => b.id === 'engine-4');
  expect(level4?.playerId).toMatch(/^[0-9a-f-]{36}$/);
  const person = (await call(stack.app, 'POST', '/api/players', { name: 'by-player-id' })).body;
  const again = await call(stack.app, 'POST', `/api/bots/${level4?.playerId}/games`, {}, bearer(person.token));
  expect(again.status).toBe(201);
  expect((again.body as GameView).players.gote.id).toBe(level4?.playerId);
  await call(stack.app, 'POST', `/api/games/${(again.body as GameView).id}/resign`, {}, bearer(person.token));
});

test('every process plays a level as the same player, each with a token of its own that ends with it', async () => {
  // a second and a third process's bots (two more gateways, or this one restarted)
  const [second, third] = await Promise.all(
    [1, 2].map(() =>
      startHouseBots({
        baseUrl: stack.baseUrl,
        housePlayer: stack.housePlayer,
        registry: new BotRegistry(),
        logger: silentLogger(),
        engine: client,
        levels: [4],
      }),
    ),
  );
  const { bots } = (await call(stack.app, 'GET', '/api/bots')).body as BotList;
  const listed = bots.find((b) => b.id === 'engine-4')?.playerId;
  expect(listed).toBe(houseBotPlayerId(4));
  expect([second?.bots[0]?.playerId, third?.bots[0]?.playerId]).toEqual([listed, listed]);
  await Promise.all([second?.release(), third?.release()]);

  // the tokens: one per process, each working alone, each ended by its release
  const one = await stack.housePlayer(houseBotPlayerId(4), 'Engine level 4');
  const other = await stack.housePlayer(houseBotPlayerId(4), 'a name that does not replace the stored one');
  expect(other.id).toBe(one.id);
  expect(other.name).toBe('Engine level 4');
  expect(other.token).not.toBe(one.token);
  for (const held of [one, other]) {
    const me = await call(stack.app, 'GET', '/api/me', undefined, bearer(held.token));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: one.id, name: 'Engine level 4', username: null, token: { kind: 'personal' } });
  }
  await one.release();
  expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(one.token))).status).toBe(401);
  expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(other.token))).status).toBe(200);
  await other.release();
  expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(other.token))).status).toBe(401);
});

test('a bot game is refused a nonsensical clock', async () => {
  const person = (await call(stack.app, 'POST', '/api/players', { name: 'clockless' })).body;
  const tc = { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 0, periods: 1 };
  const refused = await call(stack.app, 'POST', '/api/bots/engine-1/games', { timeControl: tc }, bearer(person.token));
  expect(refused.status).toBe(422);
  expect(refused.body.code).toBe('INVALID_TIME_CONTROL');
});

test('full games at levels 1, 4 and 8 against a random mover end, every bot move accepted', async () => {
  // level 8 searches up to a second a move: a short game, which it wins or the script resigns
  const games = await Promise.all([
    playAgainst('engine-1', { side: 'sente' }, 160, 1),
    playAgainst('engine-4', { side: 'gote' }, 120, 2),
    playAgainst('engine-8', { side: 'sente' }, 40, 3),
  ]);
  for (const { view, end } of games) {
    // decided on the board or by the script giving up at its cap; the low levels pick weak
    // moves on purpose and the script takes any mate it sees, so they may lose a game
    expect(['checkmate', 'resignation']).toContain(end.reason);
    expect(end.moves).toBeGreaterThan(2);
    await expectNoRejection(view.id);
  }
  const [, , strongest] = games;
  expect(strongest?.end.winner).toBe(strongest?.personSide === 'sente' ? 'gote' : 'sente');
});

test('with a byoyomi clock and a handicap the bot moves first as the giver and never flags', async () => {
  const timeControl: TimeControl = { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 2, periods: 1 };
  const { view, end } = await playAgainst('engine-8', { timeControl, handicap: 'bishop', side: 'sente' }, 24, 4);
  // the giver (gote) moves first, without its bishop
  expect(view.sideToMove).toBe('gote');
  expect(view.initialSfen).toMatch(/^lnsgkgsnl\/1r7\//);
  expect(view.players.gote.name).toBe('Engine level 8');
  expect(end.reason).not.toBe('timeout');
  expect(end.winner).toBe('gote');
  const final = await stack.api.game(view.id);
  expect(final.moves.length).toBeGreaterThan(2);
  await expectNoRejection(view.id);
});

test('an engine killed in the middle of a search is replaced, and the bot still moves', async () => {
  const person = (await call(stack.app, 'POST', '/api/players', { name: 'engine-killer' })).body;
  const created = await call(stack.app, 'POST', '/api/bots/engine-8/games', { side: 'sente' }, bearer(person.token));
  const view = created.body as GameView;
  const pool = engines?.pool;
  if (pool === undefined) throw new Error('no pool');
  const restartsBefore = pool.stats.restarts;
  const pidsBefore = pool.pids.filter((pid): pid is number => pid !== undefined);
  expect((await stack.api.submitMove(view.id, person.token, { usi: '7g7f', ply: 0 })).ok).toBe(true);
  // level 8 searches for up to a second: kill every engine while the search runs
  await waitUntil(() => pool.stats.busy > 0, 5000);
  for (const pid of pidsBefore) process.kill(pid, 'SIGKILL');
  await waitUntil(async () => (await stack.api.game(view.id)).moves.length >= 2, 20_000);
  const after = await stack.api.game(view.id);
  expect(after.moves[0]).toBe('7g7f');
  expect(after.moves).toHaveLength(2);
  expect(pool.stats.restarts).toBeGreaterThan(restartsBefore);
  expect(pool.stats.retries).toBeGreaterThan(0);
  expect(pool.pids.some((pid) => pid !== undefined && pidsBefore.includes(pid))).toBe(false);
  await expectNoRejection(view.id);
  await call(stack.app, 'POST', `/api/games/${view.id}/resign`, {}, bearer(person.token));
});

test('with no engine running, the bot plays built-in moves at once instead of stalling', async () => {
  const alone = await EngineClient.start({
    ...REDIS,
    prefix: `${stack.config.queuePrefix}-none`,
    logger: silentLogger(),
  });
  try {
    expect(await alone.available()).toBeNull();
    const reply = await alone.move(
      {
        level: 4,
        gameId: 'none',
        initialSfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
        moves: [],
        ruleset: 'default',
        side: 'sente',
        clock: null,
        timeControl: { kind: 'unlimited' },
        scores: [],
      },
      60_000,
    );
    expect(reply).toEqual({ kind: 'unavailable', reason: 'no engine is running' });
  } finally {
    await alone.close();
  }
});

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
