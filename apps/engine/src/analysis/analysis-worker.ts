/**
 * The BullMQ worker of the analysis queue. A job that fails is retried (ANALYSIS_JOB_ATTEMPTS,
 * resuming after the plies it stored); once BullMQ gives it up the analysis is marked failed
 * with the reason, which a client sees by GET and may answer with a new request. The mark is
 * made after BullMQ has removed the job, so a request that reads `failed` can queue it again.
 */
import { ANALYSIS_QUEUE, type AnalysisJobData } from '@shogi/engine-bots';
import type { RedisClient } from '@shogi/redis';
import { type Job, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { type AnalysisOutcome, type AnalysisPorts, analyseGame, analysisFailed } from './analyse-game.js';

export interface AnalysisWorkerOptions {
  readonly connection: RedisClient;
  /** the analysis queue's BullMQ prefix (@shogi/redis' queuePrefix) */
  readonly prefix: string;
  readonly concurrency: number;
  readonly ports: AnalysisPorts;
  readonly logger: Logger;
}

/** Reasons are shown to clients: the first line, cut short. */
const MAX_REASON = 300;
export const failureReason = (err: Error): string => (err.message.split('\n')[0] ?? '').slice(0, MAX_REASON);

/** BullMQ sets `finishedOn` only when it gives the job up; a job to be retried has none. */
export const givenUp = (job: Pick<Job, 'finishedOn'>): boolean => job.finishedOn !== undefined;

export interface AnalysisWorker {
  /**
   * Stops the analyses in progress after their current search, then stops. Each counts as a
   * failed run, which BullMQ retries later (on any engine role), resuming after the stored
   * plies. Not moved back to waiting (BullMQ's WaitingError): BullMQ would then fetch the next
   * job at once, this very one, and run it while closing.
   */
  close(): Promise<void>;
}

export function startAnalysisWorker(options: AnalysisWorkerOptions): AnalysisWorker {
  const { logger, ports } = options;
  const worker = new Worker<AnalysisJobData, AnalysisOutcome>(
    ANALYSIS_QUEUE,
    // a processor that takes the signal is cancelled by cancelAllJobs (BullMQ passes it third)
    async (job, _token, signal) => {
      const outcome = await analyseGame(job.data, ports, signal);
      logger.info({ gameId: job.data.gameId, setting: job.data.setting, ...outcome }, 'analysis finished');
      return outcome;
    },
    { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency },
  );
  worker.on('failed', (job, err) => {
    if (job === undefined) return;
    const { gameId, setting } = job.data;
    logger.warn({ err, gameId, setting, attempt: job.attemptsMade }, 'analysis run failed');
    if (!givenUp(job)) return;
    analysisFailed(job.data, failureReason(err), ports).catch((e: unknown) =>
      logger.error({ err: e, gameId }, 'could not mark the analysis failed'),
    );
  });
  worker.on('error', (err) => logger.error({ err }, 'analysis queue'));
  return {
    async close() {
      // closing first, so that no job starts after the running ones are cancelled
      const closed = worker.close();
      worker.cancelAllJobs('the engine role is stopping');
      await closed;
    },
  };
}
