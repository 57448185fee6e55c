/**
 * Redis stopped and restarted mid-game: the gateways reconnect on their own and every
 * spectator ends with the full ordered stream, including events whose pub/sub messages
 * were lost while Redis was down. The test runs its own redis-server on a private port
 * (the shared one on 6379 is never touched) and kills it with SIGKILL.
 */
import { buildApp } from '@shogi/gateway';
import { startWorker } from '@shogi/worker';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MATE_GAME } from './fixtures.js';
import { bearer, call, newGame, playMove, type Stack, silentLogger, startStack } from './harness.js';
import { PrivateRedis } from './private-redis.js';
import { range, Watcher } from './spectate-client.js';

const redis = new PrivateRedis(6390);
const REDIS = redis.url;

let stack: Stack;
let second: FastifyInstance;
let urlB: string;
let worker: { close(): Promise<void> } | null = null;
beforeAll(async () => {
  await redis.start();
  stack = await startStack({ listen: true, worker: false, config: { redisUrl: REDIS } });
  worker = await startWorker({
    databaseUrl: stack.config.databaseUrl,
    redisUrl: REDIS,
    logger: silentLogger(),
    concurrency: 4,
    prefix: stack.config.queuePrefix,
    channelPrefix: stack.config.channelPrefix,
  });
  second = await buildApp(stack.config, silentLogger());
  urlB = await second.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  if (!redis.running) await redis.start().catch(() => undefined);
  await worker?.close();
  await second?.close();
  await stack?.close();
  await redis.kill();
});

test('Redis restarted mid-game: every spectator ends with the whole game, in order, once', async () => {
  const { game, players } = await newGame(stack.app);
  const watchers = await Promise.all([
    Watcher.open(stack.baseUrl, game.id),
    Watcher.open(stack.baseUrl, game.id),
    Watcher.open(urlB, game.id),
    Watcher.open(urlB, game.id),
  ]);
  for (const w of watchers) await w.waitFor(() => w.received[0]?.type === 'snapshot');
  // 1. ten moves with Redis up
  const played = MATE_GAME.slice(0, 10);
  let seq = 1;
  for (const [ply, usi] of played.entries())
    seq = (await playMove(stack.app, game.id, ply % 2 ? players.gote.token : players.sente.token, usi, ply)).verdict
      .seq;
  for (const w of watchers) await w.waitForSeq(seq);

  // 2. Redis dies; sente resigns through gateway B meanwhile: the events are durable in
  //    PostgreSQL, their pub/sub message goes out (if at all) before the subscribers are back
  await redis.kill();
  const resigned = call(second, 'POST', `/api/games/${game.id}/resign`, {}, bearer(players.sente.token));
  await new Promise((r) => setTimeout(r, 300));

  // 3. Redis comes back empty, on the same port; the gateways reconnect by themselves
  await redis.start();
  expect((await resigned).status).toBe(202);
  const { body: end } = await call(stack.app, 'GET', `/api/games/${game.id}`);
  expect(end.status).toBe('ended');

  // 4. every spectator has the whole stream: no gap, no repeat, the moves in order; and
  //    soon (the rooms re-read their tails when Redis is back, not only at the 10 s idle sweep)
  for (const w of watchers) {
    await w.waitForSeq(end.lastSeq, 8_000);
    expect(w.seqs).toEqual(range(2, end.lastSeq));
    expect(w.moves).toEqual([...played]);
    expect(w.events.at(-1)?.type).toBe('GameEnded');
  }
  // 5. a late reconnect with since gets exactly the missing tail
  const late = await Watcher.open(urlB, game.id, seq);
  await late.waitForSeq(end.lastSeq);
  expect(late.seqs).toEqual(range(seq + 1, end.lastSeq));
  await Promise.all([...watchers, late].map((w) => w.close()));
});

test('after the restart, live moves flow again through both gateways', async () => {
  const { game, players } = await newGame(stack.app);
  const w = await Watcher.open(urlB, game.id);
  await w.waitFor(() => w.received[0]?.type === 'snapshot');
  // the worker's blocking connection may take a moment longer to come back
  let seq = 1;
  for (const [ply, usi] of MATE_GAME.slice(0, 4).entries())
    seq = (await playMove(stack.app, game.id, ply % 2 ? players.gote.token : players.sente.token, usi, ply)).verdict
      .seq;
  await w.waitForSeq(seq);
  expect(w.seqs).toEqual(range(2, seq));
  await w.close();
});
