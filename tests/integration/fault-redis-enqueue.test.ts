/**
 * Redis down while players act: a submission recorded in PostgreSQL is acknowledged (202
 * over HTTP, an `ack` on the player socket) although its validation job cannot be queued,
 * so a 5xx only ever means that nothing was recorded. Once Redis is back (empty, as in
 * production), the worker's sweeper queues the jobs that never were. A game ended while a
 * submission waited without a job leaves no submission without its verdict.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningWorker, startWorker } from '@shogi/worker';
import { expect, test } from 'vitest';
import type { PlayerSocket } from '../../apps/server/src/client.js';
import { type Acknowledged, auditWhenSettled } from './audit.js';
import { bearer, call, newGame, type Stack, silentLogger, startStack, waitForEvent } from './harness.js';
import { PrivateRedis } from './private-redis.js';

const redis = new PrivateRedis(8100, 800);

test('with Redis down, recorded submissions are acknowledged and the sweeper queues them later', async () => {
  await redis.kill();
  const dataDir = await mkdtemp(join(tmpdir(), 'shogi-redis-'));
  const startRedis = () => redis.start(['--save', '', '--appendonly', 'no', '--dir', dataDir]);
  await startRedis();
  let stack: Stack | null = null;
  let worker: RunningWorker | null = null;
  let socket: PlayerSocket | null = null;
  try {
    stack = await startStack({ listen: true, worker: false, config: { redisUrl: redis.url } });
    const app = stack.app;
    const overHttp = await newGame(app);
    const overSocket = await newGame(app);
    const endedWhilePending = await newGame(app);
    // the player socket joins its game's channel while Redis is up
    socket = await stack.api.playerSocket(overSocket.game.id, overSocket.players.sente.token);
    await socket.waitFor((m) => m.type === 'hello');

    await redis.kill();
    const acknowledged: Acknowledged[] = [];

    const move = (gameId: string, token: string, key: string) =>
      call(
        app,
        'POST',
        `/api/games/${gameId}/moves`,
        { usi: '7g7f', ply: 0 },
        { ...bearer(token), 'idempotency-key': key },
      );
    // each request waits for its Redis commands to give up after the client's retries: the
    // four cases run at once
    const overHttpCase = async () => {
      const first = await move(overHttp.game.id, overHttp.players.sente.token, 'k1');
      expect(first).toEqual({ status: 202, body: { seq: 2 } });
      // the same key again answers the same seq (its job is queued again, and fails again)
      expect(await move(overHttp.game.id, overHttp.players.sente.token, 'k1')).toEqual(first);
      acknowledged.push({ gameId: overHttp.game.id, seq: 2, usi: '7g7f' });
    };
    const overSocketCase = async () => {
      socket?.send({ type: 'move', usi: '7g7f', ply: 0, idempotencyKey: 'k2' });
      const answer = await socket?.waitFor((m) => m.type === 'ack' || m.type === 'error', 40_000);
      expect(answer).toMatchObject({ type: 'ack', seq: 2, ply: 0, usi: '7g7f' });
      acknowledged.push({ gameId: overSocket.game.id, seq: 2, usi: '7g7f' });
    };
    // a timed game is created although its first-move flag job cannot be scheduled (the
    // sweeper's clock check is the backstop)
    const timedCase = async () => {
      const timed = await newGame(app, { timeControl: { kind: 'fischer', mainSeconds: 300, incrementSeconds: 2 } });
      expect(timed.game.status).toBe('ongoing');
    };
    // the opponent resigns while sente's move waits without a job: the move gets its verdict
    const endedCase = async () => {
      const { game: ended, players } = endedWhilePending;
      expect((await move(ended.id, players.sente.token, 'k3')).status).toBe(202);
      acknowledged.push({ gameId: ended.id, seq: 2, usi: '7g7f' });
      const resigned = await call(app, 'POST', `/api/games/${ended.id}/resign`, {}, bearer(players.gote.token));
      expect(resigned.status).toBe(202);
      const events = (await call(app, 'GET', `/api/games/${ended.id}/events?after=0`)).body.events as {
        type: string;
        payload: Record<string, unknown>;
      }[];
      expect(events.map((e) => e.type)).toEqual([
        'GameCreated',
        'MoveSubmitted',
        'Resigned',
        'GameEnded',
        'MoveRejected',
      ]);
      expect(events[4]?.payload).toMatchObject({ submittedSeq: 2, reason: 'game_over' });
    };
    await Promise.all([overHttpCase(), overSocketCase(), timedCase(), endedCase()]);

    // Redis comes back empty: no job of the two moves exists; the sweeper finds them
    await startRedis();
    worker = await startWorker({
      databaseUrl: stack.config.databaseUrl,
      redisUrl: redis.url,
      logger: silentLogger(),
      concurrency: 2,
      prefix: stack.config.queuePrefix,
      channelPrefix: stack.config.channelPrefix,
      sweepIntervalMs: 300,
      sweepAfterMs: 1_000,
    });
    for (const { game } of [overHttp, overSocket])
      await waitForEvent(app, game.id, (e) => e.type === 'MoveAccepted' && e.payload.submittedSeq === 2, 30_000);
    expect(await socket.waitFor((m) => m.type === 'verdict' && m.submittedSeq === 2, 30_000)).toMatchObject({
      accepted: true,
    });
    const report = await auditWhenSettled(stack.db, { acknowledged });
    expect(report.problems).toEqual([]);
  } finally {
    await socket?.close();
    if (!redis.running) await startRedis().catch(() => undefined);
    await worker?.close();
    await stack?.close();
    await redis.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}, 120_000);
