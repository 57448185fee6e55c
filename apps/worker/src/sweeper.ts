/**
 * The sweeper: a submission is recorded before its job is enqueued, so a gateway that
 * dies in between leaves a move without a job (and its player waiting). Every interval,
 * each worker looks for submissions that have waited longer than `afterMs` and enqueues
 * them again. Idempotent like every validation; the job id carries the time bucket so
 * several workers sweeping at once add one job, and a failed job's id does not block it.
 */
import { type Db, findStalledSubmissions } from '@shogi/store';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
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

export function startSweeper(
  db: Db,
  queue: Queue<ValidateJobData>,
  options: { intervalMs: number; afterMs: number; logger: Logger },
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweepStalled(db, queue, options.afterMs).then(
      (n) => {
        if (n > 0) options.logger.warn({ count: n }, 'sweeper: re-enqueued submissions that waited without a verdict');
      },
      (err: unknown) => options.logger.warn({ err }, 'sweeper: sweep failed'),
    );
  }, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
