/**
 * The sweeper: a submission is recorded before its job is enqueued, so a gateway that
 * dies in between leaves a move without a job (and its player waiting). Every interval,
 * each worker looks for submissions that have waited longer than `afterMs` and enqueues
 * them again. Idempotent like every validation; the job id carries the time bucket so
 * several workers sweeping at once add one job, and a failed job's id does not block it.
 *
 * It is also the backstop of the flag jobs: ongoing games whose side to move ran out
 * (games.deadline_at, plus the lag allowance) get a flag check, for a delayed job lost
 * with Redis' data or never scheduled (a gateway or worker dying after its append).
 */
import { LAG_ALLOWANCE_MS } from '@shogi/game';
import { type Db, findOverdueClocks, findStalledSubmissions } from '@shogi/store';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { FLAG_JOB_OPTIONS, FLAG_QUEUE, type FlagJobData, flagJobId } from './flag-queue.js';
import { VALIDATE_JOB_OPTIONS, VALIDATE_QUEUE, type ValidateJobData, validateJobId } from './queues.js';

export async function sweepStalled(
  db: Db,
  queue: Queue<ValidateJobData>,
  afterMs: number,
  now: number = Date.now(),
): Promise<number> {
  const stalled = await findStalledSubmissions(db, afterMs);
  const bucket = Math.floor(now / afterMs);
  await Promise.all(
    stalled.map(({ gameId, seq }) =>
      queue.add(
        VALIDATE_QUEUE,
        { gameId, seq },
        { ...VALIDATE_JOB_OPTIONS, jobId: `${validateJobId(gameId, seq)}-sweep${bucket}` },
      ),
    ),
  );
  return stalled.length;
}

/**
 * Enqueues a flag check for every ongoing game past its deadline and the lag allowance; the
 * job id carries the time bucket, as above. Returns how many were found.
 */
export async function sweepOverdueClocks(
  db: Db,
  queue: Queue<FlagJobData>,
  intervalMs: number,
  now: number = Date.now(),
): Promise<number> {
  const overdue = await findOverdueClocks(db, LAG_ALLOWANCE_MS);
  const bucket = Math.floor(now / intervalMs);
  await Promise.all(
    overdue.map(({ gameId, ply }) =>
      queue.add(
        FLAG_QUEUE,
        { gameId, ply },
        { ...FLAG_JOB_OPTIONS, jobId: `${flagJobId(gameId, ply)}-sweep${bucket}` },
      ),
    ),
  );
  return overdue.length;
}

export function startSweeper(
  db: Db,
  queue: Queue<ValidateJobData>,
  options: { intervalMs: number; afterMs: number; logger: Logger; flagQueue?: Queue<FlagJobData> },
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const flagQueue = options.flagQueue;
  const timer = setInterval(() => {
    const stalled = sweepStalled(db, queue, options.afterMs).then(
      (n) => {
        if (n > 0) options.logger.warn({ count: n }, 'sweeper: re-enqueued submissions that waited without a verdict');
      },
      (err: unknown) => options.logger.warn({ err }, 'sweeper: sweep failed'),
    );
    const overdue =
      flagQueue === undefined
        ? null
        : sweepOverdueClocks(db, flagQueue, options.intervalMs).then(
            (n) => {
              if (n > 0) options.logger.info({ count: n }, 'sweeper: flag checks for games past their deadline');
            },
            (err: unknown) => options.logger.warn({ err }, 'sweeper: clock sweep failed'),
          );
    running = Promise.all([stalled, overdue]);
  }, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
