/**
 * Rematches with bots, through the public API: a rematch offered to a bot the gateway runs
 * (a house engine bot, the demo bot) is accepted at once and the bot plays the game, under the
 * one-real-time-game rule for the person only; bot-lobby, a player like any other, sees the
 * offer on its lobby socket, accepts it once it has room, and plays it.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { BotRegistry } from '@shogi/gateway';
import type { BotList, ChallengeView, GameView, LobbyMessage, SeekView, TimeControl } from '@shogi/protocol';
import { HANDICAP_SFENS } from '@shogi/rules';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { startBotOpponent } from '../../apps/server/src/demo/opponent.js';
import { answerSeeks } from '../../apps/server/src/demo/seek-answerer.js';
import { EngineClient } from '../../apps/server/src/house/engine-client.js';
import { startHouseBots } from '../../apps/server/src/house/house-bots.js';
import type { LobbySocket } from '../../apps/server/src/lobby-socket.js';
import {
  bearer,
  call,
  REDIS,
  type Stack,
  silentLogger,
  startStack,
  startStackEngines,
  waitForEvent,
} from './harness.js';

const THREE_TEN: TimeControl = { kind: 'byoyomi', mainSeconds: 180, byoyomiSeconds: 10, periods: 1 };

let stack: Stack;
let engines: RunningEngineWorker | null = null;
let client: EngineClient;
const stop = new AbortController();
let demoBot: { id: string };

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH))
    throw new Error(`${DEFAULT_ENGINE_PATH} is missing: install it with apt-get install fairy-stockfish`);
  const bots = new BotRegistry();
  stack = await startStack({ listen: true, extras: { bots } });
  const prefix = stack.config.queuePrefix;
  const settings = { path: DEFAULT_ENGINE_PATH, workers: 1, hashMb: 16, analysisDepth: 8 };
  engines = await startStackEngines(stack, settings);
  client = await EngineClient.start({ ...REDIS, prefix, logger: silentLogger() });
  demoBot = await startBotOpponent({ baseUrl: stack.baseUrl, registry: bots, logger: silentLogger(), moveDelayMs: 0 });
  await startHouseBots({
    baseUrl: stack.baseUrl,
    housePlayer: stack.housePlayer,
    registry: bots,
    logger: silentLogger(),
    engine: client,
    levels: [1],
    moveDelayMs: 0,
  });
  answerSeeks({
    api: stack.api,
    logger: silentLogger(),
    signal: stop.signal,
    random: seeded(11),
    publicUrl: stack.baseUrl,
    waitMs: 0,
    pollMs: 20,
    lookers: (except) => stack.lobbyLookers(except),
    moveDelayMs: 0,
    registry: bots,
  }).catch(() => undefined);
});

afterAll(async () => {
  stop.abort();
  await stack?.close();
  await client?.close();
  await engines?.close();
});

const newPerson = async (name: string): Promise<{ id: string; name: string; token: string }> =>
  (await call(stack.app, 'POST', '/api/players', { name })).body;

const view = async (gameId: string): Promise<GameView> => (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;

/** The bot has made the move that brings the game to `ply` plies. */
const moved = (gameId: string, ply: number) =>
  waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === ply, 20_000);

async function resign(gameId: string, token: string): Promise<void> {
  expect((await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(token))).status).toBe(202);
  await waitForEvent(stack.app, gameId, (e) => e.type === 'GameEnded');
}

const rematch = (gameId: string, token: string) =>
  call(stack.app, 'POST', `/api/games/${gameId}/rematch`, undefined, bearer(token));

async function botGame(botId: string, token: string, body: Record<string, unknown>): Promise<GameView> {
  const created = await call(stack.app, 'POST', `/api/bots/${botId}/games`, body, bearer(token));
  expect(created.status).toBe(201);
  return created.body;
}

/** A real-time game against bot-lobby, found as a newcomer finds one: a casual seek nobody else takes. */
async function seekBotLobby(person: { token: string }): Promise<string> {
  const body = { timeControl: THREE_TEN, rated: false, color: 'sente' };
  const seek: SeekView = (await call(stack.app, 'POST', '/api/seeks', body, bearer(person.token))).body;
  let now = seek;
  while (now.status === 'open') {
    await new Promise((r) => setTimeout(r, 20));
    now = (await call(stack.app, 'GET', `/api/seeks/${seek.id}`)).body;
  }
  expect(now).toMatchObject({ status: 'paired', side: 'sente' });
  return now.gameId as string;
}

test('a house bot takes a rematch at once: same clock and handicap, the giver still the bot, and it plays', async () => {
  const person = await newPerson('engine-rematcher');
  // 1. a bishop-handicap game with a clock: the bot gives the handicap as gote and moves first
  const first = await botGame('engine-1', person.token, { side: 'sente', timeControl: THREE_TEN, handicap: 'bishop' });
  await moved(first.id, 1);
  await resign(first.id, person.token);

  // 2. the rematch is answered in the same request: accepted, with its game
  const offered = await rematch(first.id, person.token);
  expect(offered.status).toBe(201);
  const challenge = offered.body as ChallengeView;
  expect(challenge).toMatchObject({ status: 'accepted', rematchOf: first.id, timeControl: THREE_TEN });
  const next = await view(challenge.gameId as string);
  expect(next).toMatchObject({ status: 'ongoing', rated: false, timeControl: THREE_TEN });
  expect(next.initialSfen).toBe(HANDICAP_SFENS.bishop);
  expect([next.players.sente.id, next.players.gote.id]).toEqual([person.id, first.players.gote.id]);

  // 3. the bot was given the game: it makes its first move as the giver
  await moved(next.id, 1);
  // offering again answers the same game
  const again = await rematch(first.id, person.token);
  expect([again.status, again.body.gameId]).toEqual([200, next.id]);
  await resign(next.id, person.token);
});

test('the bot is exempt from the one-real-time-game rule, the person is not', async () => {
  const ann = await newPerson('rematch-ann');
  const ben = await newPerson('rematch-ben');
  // 1. ann ends two real-time games against the demo bot; ben keeps one going
  const ended: GameView[] = [];
  for (let i = 0; i < 2; i++) {
    const game = await botGame(demoBot.id, ann.token, { side: 'sente', timeControl: THREE_TEN });
    await resign(game.id, ann.token);
    ended.push(game);
  }
  const bens = await botGame(demoBot.id, ben.token, { side: 'gote', timeControl: THREE_TEN });
  const [a1, a2] = ended as [GameView, GameView];

  // 2. the bot, playing ben meanwhile, takes ann's rematch: colours swapped, so it moves first
  const taken = await rematch(a1.id, ann.token);
  expect([taken.status, taken.body.status]).toEqual([201, 'accepted']);
  const next = await view(taken.body.gameId);
  expect([next.players.sente.id, next.players.gote.id]).toEqual([demoBot.id, ann.id]);
  await moved(next.id, 1);

  // 3. ann, now in a real-time game, is refused a rematch of her other game
  const refused = await rematch(a2.id, ann.token);
  expect([refused.status, refused.body.code]).toEqual([409, 'ALREADY_PLAYING']);
  expect(refused.body.detail).toBe(`game ${next.id}`);
  await resign(next.id, ann.token);
  await resign(bens.id, ben.token);
});

test('bot-lobby sees a rematch offer on its lobby socket, accepts it and plays the game', async () => {
  const person = await newPerson('lobby-rematcher');
  // 1. bot-lobby is listed so that clients know it for a bot, but takes no game of its own here
  const { bots } = (await call(stack.app, 'GET', '/api/bots')).body as BotList;
  const lobbyBot = bots.find((b) => b.name === 'bot-lobby');
  expect(lobbyBot).toMatchObject({ seeksOnly: true });
  const started = await call(stack.app, 'POST', `/api/bots/${lobbyBot?.id}/games`, {}, bearer(person.token));
  expect(started.status).toBe(404);

  // 2. a casual seek nobody takes: bot-lobby answers it and replies to a move; then the person resigns
  const first = await seekBotLobby(person);
  expect((await view(first)).players.gote.id).toBe(lobbyBot?.id);
  const moveAt = (ply: number, usi: string) =>
    call(stack.app, 'POST', `/api/games/${first}/moves`, { usi, ply }, bearer(person.token));
  expect((await moveAt(0, '7g7f')).status).toBe(202);
  await moved(first, 2);
  await resign(first, person.token);

  // 3. the person offers a rematch, as from the game page: pending, until bot-lobby accepts it
  const socket = await stack.api.lobbySocket(person.token);
  try {
    const accepted = nextMessage(socket, (m) => m.type === 'accepted');
    const offered = await rematch(first, person.token);
    expect([offered.status, offered.body.status]).toEqual([201, 'pending']);
    const answer = await accepted;
    expect(answer).toMatchObject({ type: 'accepted', challengeId: offered.body.id, color: 'gote' });
    const next = await view((answer as { gameId: string }).gameId);
    expect(next).toMatchObject({ rated: false, timeControl: THREE_TEN });
    expect([next.players.sente.id, next.players.gote.id]).toEqual([lobbyBot?.id, person.id]);
    // 4. and plays it: as sente, it moves first
    await moved(next.id, 1);
    await resign(next.id, person.token);
  } finally {
    await socket.close();
  }
});

test('bot-lobby takes a real-time rematch only once its other real-time game is over', async () => {
  const ann = await newPerson('waiting-ann');
  const ben = await newPerson('playing-ben');
  const first = await seekBotLobby(ann);
  await resign(first, ann.token);
  // 1. ben keeps bot-lobby in a real-time game; ann's offer waits (the server's rule holds the bot too)
  const bens = await seekBotLobby(ben);
  const offered = (await rematch(first, ann.token)).body as ChallengeView;
  await new Promise((r) => setTimeout(r, 500));
  const waiting = await call(stack.app, 'GET', `/api/challenges/${offered.id}`, undefined, bearer(ann.token));
  expect(waiting.body.status).toBe('pending');
  // 2. ben's game ends: bot-lobby accepts and plays ann's rematch
  await resign(bens, ben.token);
  let now: ChallengeView = waiting.body;
  const deadline = Date.now() + 10_000;
  while (now.status === 'pending' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    now = (await call(stack.app, 'GET', `/api/challenges/${offered.id}`, undefined, bearer(ann.token))).body;
  }
  expect(now.status).toBe('accepted');
  await moved(now.gameId as string, 1);
  await resign(now.gameId as string, ann.token);
});

function nextMessage(socket: LobbySocket, match: (m: LobbyMessage) => boolean, timeoutMs = 10_000) {
  return new Promise<LobbyMessage>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no such lobby message in time')), timeoutMs);
    const off = socket.onMessage((m) => {
      if (!match(m)) return;
      clearTimeout(timer);
      off();
      resolve(m);
    });
  });
}
