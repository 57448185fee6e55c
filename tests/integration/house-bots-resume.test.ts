/**
 * The house bots across processes: one process plays a game at a time (a claim in Redis), and
 * a game whose process stopped is taken up by another, so its person does not wait for a move
 * that never comes. Each `startHouseBots` here stands for a process of its own (its own token,
 * its own claims), against the real engine role.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { BotRegistry } from '@shogi/gateway';
import { closeClient, type RedisClient } from '@shogi/redis';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { EngineClient } from '../../apps/server/src/house/engine-client.js';
import { redisGameClaims } from '../../apps/server/src/house/game-claims.js';
import { type HouseBots, startHouseBots } from '../../apps/server/src/house/house-bots.js';
import { bearer, call, REDIS, type Stack, silentLogger, startStack, startStackEngines, testRedis } from './harness.js';

let stack: Stack;
let engines: RunningEngineWorker | null = null;
let client: EngineClient;
let redis: RedisClient;
const running: HouseBots[] = [];
// the gateway's registry: the process registered last starts the new games
const gatewayBots = new BotRegistry();
// what the bots logged: a move refused to one of them (two players of one side) is logged there
const logged: string[] = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(line) });

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH))
    throw new Error(`${DEFAULT_ENGINE_PATH} is missing: install it with apt-get install fairy-stockfish`);
  stack = await startStack({ listen: true, extras: { bots: gatewayBots } });
  engines = await startStackEngines(stack, { path: DEFAULT_ENGINE_PATH, workers: 1, hashMb: 16, analysisDepth: 8 });
  if (engines === null) throw new Error('the engine role did not start');
  client = await EngineClient.start({ ...REDIS, prefix: stack.config.queuePrefix, logger: silentLogger() });
  redis = testRedis('house-claims');
});

afterAll(async () => {
  for (const bots of running) await bots.release().catch(() => {});
  await stack?.close();
  await client?.close();
  await engines?.close();
  if (redis !== undefined) await closeClient(redis);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process's house bots (level 1): its own token and claims. */
let started = 0;
async function houseProcess(): Promise<HouseBots> {
  const me = ++started;
  const bots = await startHouseBots({
    baseUrl: stack.baseUrl,
    housePlayer: stack.housePlayer,
    registry: gatewayBots,
    logger: logger.child({ house: me }),
    engine: client,
    levels: [1],
    moveDelayMs: 0,
    claims: redisGameClaims(redis, stack.config.channelPrefix, 1_500),
    resumeEveryMs: 300,
  });
  running.push(bots);
  return bots;
}

async function plyReaches(gameId: string, ply: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await stack.api.game(gameId)).ply < ply) {
    if (Date.now() > deadline) throw new Error(`game ${gameId} did not reach ply ${ply}`);
    await sleep(50);
  }
}

test('claims: one holder at a time; a holder that stops renewing loses the game to another', async () => {
  const a = redisGameClaims(redis, stack.config.channelPrefix, 400);
  const b = redisGameClaims(redis, stack.config.channelPrefix, 400);
  expect(await a.claim('claims-game')).toBe(true);
  expect(await a.claim('claims-game')).toBe(true); // already its own
  expect(await b.claim('claims-game')).toBe(false);
  expect(await a.renew('claims-game')).toBe(true);
  await b.release('claims-game'); // not b's to let go
  expect(await b.claim('claims-game')).toBe(false);
  await sleep(600); // a stops renewing: its claim lapses
  expect(await b.claim('claims-game')).toBe(true);
  expect(await a.renew('claims-game')).toBe(false);
  await b.release('claims-game');
  expect(await a.claim('claims-game')).toBe(true);
  await a.release('claims-game');
});

test('a game whose process stopped is taken up by the next one, and played by one process at a time', async () => {
  const first = await houseProcess();
  const person = (await call(stack.app, 'POST', '/api/players', { name: 'resume-person' })).body;
  const created = await call(stack.app, 'POST', '/api/bots/engine-1/games', { side: 'sente' }, bearer(person.token));
  expect(created.status).toBe(201);
  const gameId: string = created.body.id;
  expect(created.body.players.sente.id).toBe(person.id);
  const move = async (usi: string, ply: number) => {
    const answer = await stack.api.submitMove(gameId, person.token, { usi, ply });
    expect(answer.status).toBe(202);
  };

  // the processes that took the game up, as they logged it
  const takenUp = () => logged.filter((line) => line.includes(`took up game ${gameId}`));
  await move('7g7f', 0);
  await plyReaches(gameId, 2);
  // a second process runs beside the first, and has looked for games: the game stays the first's
  await houseProcess();
  await sleep(800);
  await move('2g2f', 2);
  await plyReaches(gameId, 4);
  expect(takenUp()).toEqual([]);

  // the first process stops: its games are let go, and the second takes them up
  await first.release();
  await move('1g1f', 4);
  await plyReaches(gameId, 6);
  expect(takenUp().map((line) => JSON.parse(line).house)).toEqual([2]);

  const { events } = await stack.api.events(gameId);
  // one reply per turn, no move refused: never two processes playing the bot's side at once
  expect(events.filter((e) => e.type === 'MoveRejected')).toEqual([]);
  expect(events.filter((e) => e.type === 'MoveAccepted')).toHaveLength((await stack.api.game(gameId)).ply);
  // and no move of the bot's refused (as one of two players of its side would be)
  expect(
    logged.filter((line) => line.includes(gameId) && /refused|rejected|STALE|NOT_YOUR_TURN|CONFLICT/i.test(line)),
  ).toEqual([]);
}, 60_000);
