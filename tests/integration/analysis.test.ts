/**
 * Game analysis end to end, with the real engine role (Fairy-Stockfish at a shallow depth):
 * a game that ends by mate is analysed position by position, its watchers see the progress,
 * the answer turns the engine's scores to sente's side, and a request is never run twice.
 */
import { existsSync } from 'node:fs';
import { ANALYSIS_QUEUE, analysisChannel } from '@shogi/engine-bots';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import type { AnalysisResponse, WatchAnalysis } from '@shogi/protocol';
import { channelSubscriber, closeClient, type RedisClient } from '@shogi/redis';
import { PositionHistory, START_SFEN, startPosition } from '@shogi/rules';
import { analysisDb } from '@shogi/store';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chooseMove, seeded } from '../../apps/server/src/demo/brain.js';
import {
  bearer,
  call,
  channelListeners,
  closeTestQueue,
  newGame,
  type Players,
  playMove,
  type Stack,
  startStack,
  startStackEngines,
  testQueue,
  testRedis,
  waitForEvent,
} from './harness.js';
import { Watcher } from './spectate-client.js';

/** depth 6 finds the mates below at once and keeps the test quick on two cores */
const SETTINGS = { path: DEFAULT_ENGINE_PATH, workers: 1, hashMb: 16, analysisDepth: 6 };
/**
 * Sente mates in 3 (two golds in hand, a pawn on 5d; checked with Fairy-Stockfish: `score
 * mate 3 pv 5d5c+ 5a6a G*6b`); the game plays that line out.
 */
const MATE_IN_3 = '4k4/9/9/4P4/9/9/9/9/4K4 b 2G 1';
const MATING_LINE = ['5d5c+', '5a6a', 'G*6b'];

let stack: Stack;
let redis: RedisClient;
let queue: Queue;
let engines: RunningEngineWorker | null = null;
let mated: { gameId: string; players: Players };

const startEngines = async () => {
  const started = await startStackEngines(stack, SETTINGS);
  if (started === null) throw new Error('the engine role did not start');
  return started;
};

const analysisUrl = (gameId: string) => `/api/games/${gameId}/analysis`;
const request = (gameId: string, token: string) =>
  call(stack.app, 'POST', analysisUrl(gameId), undefined, bearer(token));
const read = (gameId: string) => call(stack.app, 'GET', analysisUrl(gameId));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const finished = (gameId: string) =>
  until(`the analysis of ${gameId}`, async () => {
    const { status, body } = await read(gameId);
    return status === 200 && (body.status === 'done' || body.status === 'failed')
      ? (body as AnalysisResponse)
      : undefined;
  });

/** Jobs of the analysis queue not finished yet (finished ones are removed). */
const pendingJobs = async () => {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  return Object.values(counts).reduce((a, b) => a + b, 0);
};

async function playedOut(sfen: string, line: readonly string[]) {
  const { game, players } = await newGame(stack.app, { sfen });
  for (const [ply, usi] of line.entries()) {
    const token = ply % 2 === 0 ? players.sente.token : players.gote.token;
    const { verdict } = await playMove(stack.app, game.id, token, usi, ply);
    expect(verdict.type).toBe('MoveAccepted');
  }
  return { gameId: game.id as string, players };
}

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH)) throw new Error(`these tests need Fairy-Stockfish at ${DEFAULT_ENGINE_PATH}`);
  stack = await startStack({ listen: true });
  redis = testRedis('analysis');
  queue = testQueue(ANALYSIS_QUEUE, stack.config.queuePrefix);
  mated = await playedOut(MATE_IN_3, MATING_LINE);
  const end = await waitForEvent(stack.app, mated.gameId, (e) => e.type === 'GameEnded');
  expect(end.payload).toMatchObject({ winner: 'sente', reason: 'checkmate' });
});

afterAll(async () => {
  await engines?.close();
  if (queue !== undefined) await closeTestQueue(queue);
  if (redis !== undefined) await closeClient(redis);
  await stack?.close();
});

describe('before an engine role runs', () => {
  test('a request is refused with 503 ENGINE_UNAVAILABLE, and there is no analysis to read', async () => {
    const refused = await request(mated.gameId, mated.players.sente.token);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('ENGINE_UNAVAILABLE');
    expect(refused.body.message).toMatch(/try again later/);
    expect(await read(mated.gameId)).toMatchObject({ status: 404, body: { code: 'ANALYSIS_NOT_FOUND' } });
    expect(await pendingJobs()).toBe(0);
  });
});

describe('with the engine role', () => {
  beforeAll(async () => {
    engines = await startEngines();
  });

  test('refusals: an unknown game 404, a game going on 409, a read-only token 403, no token 401', async () => {
    const token = mated.players.sente.token;
    expect(await request('no-such-game', token)).toMatchObject({ status: 404, body: { code: 'GAME_NOT_FOUND' } });
    const { game, players } = await newGame(stack.app);
    expect(await request(game.id, players.sente.token)).toMatchObject({
      status: 409,
      body: { code: 'GAME_NOT_ENDED' },
    });

    await call(stack.app, 'POST', '/api/accounts', { username: 'reader', password: 'correct horse' });
    const session = (await call(stack.app, 'POST', '/api/session', { username: 'reader', password: 'correct horse' }))
      .body.token;
    const readOnly = (await call(stack.app, 'POST', '/api/tokens', { name: 'r', scopes: ['read'] }, bearer(session)))
      .body.token;
    expect(await request(mated.gameId, readOnly)).toMatchObject({ status: 403, body: { code: 'INSUFFICIENT_SCOPE' } });
    expect((await call(stack.app, 'POST', analysisUrl(mated.gameId))).status).toBe(401);
    expect(await pendingJobs()).toBe(0);
  });

  test('a game ended by mate: every position scored from sente’s side, mate at the end, progress to the watchers', async () => {
    const { gameId, players } = mated;
    // 1. a watcher, subscribed to the game's analysis news before the request
    const watcher = await Watcher.open(stack.baseUrl, gameId);
    await watcher.waitFor(() => watcher.received.some((m) => m.type === 'snapshot'));
    const channel = analysisChannel(gameId, stack.config.channelPrefix);
    await until('the analysis channel subscription', async () => {
      const [subscribers = 0] = await channelListeners(redis, channel);
      return subscribers > 0 ? true : undefined;
    });

    // 2. the request answers at once with the analysis as it stands; asked again meanwhile, nothing more is queued
    const first = await request(gameId, players.gote.token);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ engine: { name: engines?.engineName, depth: SETTINGS.analysisDepth } });
    expect(['queued', 'running', 'done']).toContain(first.body.status);
    const again = await request(gameId, players.sente.token);
    expect(again.status).toBe(202);
    expect(await pendingJobs()).toBeLessThanOrEqual(1);

    // 3. done: one ply per position, the moves plus the start
    const analysis = await finished(gameId);
    expect(analysis.status).toBe('done');
    expect(analysis.plies.map((p) => p.ply)).toEqual([0, 1, 2, 3]);
    // sente mates all along; at ply 1 gote is to move, and the engine's `mate -2` reads as sente's mate in 2
    expect(analysis.plies.map((p) => p.score)).toEqual([{ mate: 3 }, { mate: 2 }, { mate: 1 }, { mate: 0 }]);
    expect(analysis.plies[2]?.best).toBe('G*6b');
    expect(analysis.plies[3]).toMatchObject({ best: null, pv: [], judgment: null });
    expect(analysis.plies.every((p) => p.judgment === null)).toBe(true);

    // 4. the watcher saw it go, and one run only: one `done`
    await watcher.waitFor(() => watcher.received.some((m) => m.type === 'analysis' && m.status === 'done'));
    const news = watcher.received.filter((m): m is WatchAnalysis => m.type === 'analysis');
    expect(news.some((m) => m.status === 'running')).toBe(true);
    expect(news.filter((m) => m.status === 'done')).toEqual([{ type: 'analysis', status: 'done', done: 4, total: 4 }]);
    expect(news.every((m) => m.total === 4 && m.done <= m.total)).toBe(true);
    await watcher.close();
  });

  test('asked again once done: the same analysis, and no job', async () => {
    const { gameId, players } = mated;
    const before = await read(gameId);
    const again = await request(gameId, players.sente.token);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(before.body);
    expect(await pendingJobs()).toBe(0);
  });

  test('a failed analysis may be requested again, and resumes from what it stored', async () => {
    const { gameId, players } = mated;
    const db = analysisDb(stack.db);
    await db
      .updateTable('game_analyses')
      .set({ status: 'failed', error: 'the engine crashed' })
      .where('game_id', '=', gameId)
      .execute();
    await db.deleteFrom('game_analysis_plies').where('game_id', '=', gameId).where('ply', '>=', 2).execute();
    expect((await read(gameId)).body).toMatchObject({ status: 'failed' });

    const retried = await request(gameId, players.sente.token);
    expect(retried.status).toBe(202);
    expect(retried.body.status).not.toBe('failed');
    const analysis = await finished(gameId);
    expect(analysis.status).toBe('done');
    expect(analysis.plies.map((p) => p.score)).toEqual([{ mate: 3 }, { mate: 2 }, { mate: 1 }, { mate: 0 }]);
    const row = await db
      .selectFrom('game_analyses')
      .selectAll()
      .where('game_id', '=', gameId)
      .executeTakeFirstOrThrow();
    expect(row.error).toBeNull();
  });

  test('the engine role stopped mid-analysis: what it stored stays, and a running role finishes the rest', async () => {
    // 1. a longer game: seeded random moves from the start, then a resignation if it goes on
    const line: string[] = [];
    const game = new PositionHistory(startPosition());
    const random = seeded(7);
    while (line.length < 20) {
      const usi = chooseMove(game, random);
      if (usi === null) break;
      line.push(usi);
    }
    const { gameId, players } = await playedOut(START_SFEN, line);
    if (game.outcome.status === 'ongoing') {
      const onMove = line.length % 2 === 0 ? players.sente : players.gote;
      expect((await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(onMove.token))).status).toBe(202);
    }
    await waitForEvent(stack.app, gameId, (e) => e.type === 'GameEnded');
    const total = line.length + 1;

    // 2. the role stops once a few positions are stored
    const news = channelSubscriber(testRedis('analysis-news', { subscriber: true }));
    const underWay = new Promise<void>((resolve) => {
      news.on('message', (_channel, message) => {
        if ((JSON.parse(message) as WatchAnalysis).done >= 3) resolve();
      });
    });
    await news.subscribe(analysisChannel(gameId, stack.config.channelPrefix));
    expect((await request(gameId, players.sente.token)).status).toBe(202);
    await underWay;
    await engines?.close();
    engines = null;
    const partial = (await read(gameId)).body as AnalysisResponse;
    expect(partial.status).toBe('running');
    expect(partial.plies.length).toBeGreaterThanOrEqual(3);
    expect(partial.plies.length).toBeLessThan(total);
    expect(await pendingJobs()).toBe(1);

    // 3. a role started again takes the job back (after BullMQ's pause) and resumes it
    engines = await startEngines();
    const analysis = await finished(gameId);
    expect(analysis.status).toBe('done');
    expect(analysis.plies.map((p) => p.ply)).toEqual(Array.from({ length: total }, (_, i) => i));
    // a judgment needs only its position and the one before: the plies stored first are as they were
    expect(analysis.plies.slice(0, partial.plies.length)).toEqual(partial.plies);
    await closeClient(news.client);
  });
});
