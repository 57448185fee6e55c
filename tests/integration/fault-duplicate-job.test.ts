/**
 * The same validate job delivered twice (issue 8): each case ends with exactly one verdict
 * per submission and the audit.
 *
 * 1. Stalled-job recovery: worker A takes the job, decides the verdict, and is held just
 *    before its append without renewing its lock (a process frozen by GC, a paused VM).
 *    The lock expires, worker B's stalled check moves the job back to wait, B validates it
 *    and appends the verdict. A then wakes up and appends the verdict it had decided: the
 *    append must lose on (game_id, seq), re-read and find the verdict there.
 * 2. The same submission enqueued again after it completed, under new job ids (a sweeper
 *    run racing a slow worker, an operator re-adding jobs), several at once across two
 *    workers: no second verdict.
 */

import { enqueueValidate, VALIDATE_QUEUE } from '@shogi/pipeline';
import { closeClient, redisClient } from '@shogi/redis';
import { createPgEventStore } from '@shogi/store';
import { createValidateProcessor, type RunningWorker, startWorker } from '@shogi/worker';
import { QueueEvents, Worker } from 'bullmq';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHarness, type Harness, REDIS_TARGET, verdictCounts } from '../../apps/worker/test/harness.js';
import { audit } from './audit.js';
import { silentLogger } from './harness.js';

let h: Harness;
let events: QueueEvents;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  h = await createHarness();
  const eventsConnection = redisClient(REDIS_TARGET, 'test-queue-events', { maxRetriesPerRequest: null });
  events = new QueueEvents(VALIDATE_QUEUE, { connection: eventsConnection, prefix: h.validatePrefix });
  await events.waitUntilReady();
  closers.push(() => events.close().then(() => closeClient(eventsConnection)));
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await h?.close();
});

function startB(): Promise<RunningWorker> {
  return startWorker({
    databaseUrl: h.t.url,
    ...h.workerTarget,
    logger: silentLogger(),
    concurrency: 4,
    prefix: h.prefix,
    channelPrefix: h.channelPrefix,
    lockDuration: 1_000,
    stalledInterval: 200,
    sweepIntervalMs: 0,
    projectorIntervalMs: 0,
  }).then((w) => {
    closers.push(() => w.close());
    return w;
  });
}

test('a job whose worker froze past its lock is redelivered: one verdict, the late append loses', async () => {
  await h.createGame('stall');
  // 1. worker A: the real processor, its appends held at a gate, its lock never renewed
  let reachedAppend: () => void = () => undefined;
  const atAppend = new Promise<void>((r) => {
    reachedAppend = r;
  });
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const store = createPgEventStore(h.t.db, { batch: false });
  let appendsByA = 0;
  const processA = createValidateProcessor({
    events: {
      readStream: (gameId, after) => store.readStream(gameId, after),
      append: async (gameId, expected, events) => {
        appendsByA++;
        reachedAppend();
        await gate;
        return store.append(gameId, expected, events);
      },
    },
    publish: async () => undefined,
  });
  const resultsOfA: { appended: number; conflicts: number }[] = [];
  const connection = redisClient(REDIS_TARGET, 'test-worker-a', { maxRetriesPerRequest: null });
  const workerA = new Worker(
    VALIDATE_QUEUE,
    async (job) => {
      const result = await processA(job.data);
      resultsOfA.push(result);
      return result;
    },
    {
      connection,
      prefix: h.validatePrefix,
      concurrency: 1,
      lockDuration: 1_000,
      skipLockRenewal: true,
      stalledInterval: 200,
    },
  );
  // (the stalled check of whichever worker runs it blocks the others' for its own
  // stalledInterval, so A's must be as short as B's)
  // A loses its lock: its completion is refused, which BullMQ reports as an error
  workerA.on('error', () => undefined);
  const closeA = async () => {
    await workerA.close(true);
    await closeClient(connection);
  };
  closers.push(closeA);

  const seq = await h.submit('stall', '7g7f');
  await atAppend;
  // 2. A holds the job with the verdict decided; B starts and takes the job back once A's lock expires
  await startB();
  const verdict = await h.verdict('stall', seq, 30_000);
  expect(verdict[0]?.type).toBe('MoveAccepted');
  expect(appendsByA).toBe(1);

  // 3. A wakes up and appends the verdict it decided before B's
  release();
  while (resultsOfA.length === 0) await new Promise((r) => setTimeout(r, 20));
  expect(resultsOfA[0]).toEqual({ appended: 0, verdicts: 0, conflicts: 1 });
  await closeA();

  const { submitted, verdicts } = verdictCounts(await h.events('stall'));
  expect(submitted).toEqual([seq]);
  expect(verdicts.get(seq)).toBe(1);
  const report = await audit(h.t.db);
  expect(report.problems).toEqual([]);
}, 60_000);

test('the same submission enqueued again under new job ids, after and during its validation: one verdict each', async () => {
  await startB();
  await startB();
  await h.createGame('again');
  const moves = ['7g7f', '3c3d', '2g2f', '4c4d', '2f2e', '2b3c'];
  for (const usi of moves) {
    const seq = await h.submit('again', usi);
    // five more copies of the job at once, while the first may be running on either worker
    const copies = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => enqueueValidate(h.queue, [{ gameId: 'again', seq }], { copy: `copy${n}` })),
    );
    await h.verdict('again', seq);
    await Promise.all(copies.flat().map((job) => job.waitUntilFinished(events, 20_000)));
  }
  // after the game moved on, the first job of every submission once more
  const all = verdictCounts(await h.events('again')).submitted;
  const late = await Promise.all(
    all.map((seq) => enqueueValidate(h.queue, [{ gameId: 'again', seq }], { copy: 'late' })),
  );
  await Promise.all(late.flat().map((job) => job.waitUntilFinished(events, 20_000)));

  const { submitted, verdicts } = verdictCounts(await h.events('again'));
  expect(submitted).toHaveLength(moves.length);
  expect(submitted.map((s) => verdicts.get(s))).toEqual(submitted.map(() => 1));
  expect(await h.queue.getFailedCount()).toBe(0);
  const report = await audit(h.t.db);
  expect(report.problems).toEqual([]);
  expect(report.accepted).toBe(moves.length + 1);
}, 60_000);
