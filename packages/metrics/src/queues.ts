/**
 * BullMQ queues' depth and the oldest waiting job's age, read from Redis at scrape. Every
 * process that serves a queue reports the same figures: sum nothing across instances, take
 * the max by queue (infra/prometheus/rules.yml does).
 */
import { metrics } from './metrics.js';

/** What is read of a BullMQ Queue (kept structural: this package does not depend on BullMQ). */
export interface SampledQueue {
  readonly name: string;
  getJobCounts(...states: (typeof STATES)[number][]): Promise<Record<string, number>>;
  getJobs(
    states: 'waiting'[],
    start: number,
    end: number,
    asc: boolean,
  ): Promise<readonly ({ timestamp: number; delay?: number } | undefined)[]>;
}

const STATES = ['waiting', 'prioritized', 'active', 'delayed'] as const;

/** Reports these queues until the function returned is called. */
export function sampleQueues(queues: readonly SampledQueue[]): () => void {
  const stopJobs = metrics.queueJobs.read(async () => {
    const counts = await Promise.all(queues.map((q) => q.getJobCounts(...STATES)));
    return queues.flatMap((q, i) =>
      STATES.map((state) => [{ queue: q.name, state }, counts[i]?.[state] ?? 0] as const),
    );
  });
  const stopAge = metrics.queueOldestAge.read(async () => {
    const now = Date.now();
    const oldest = await Promise.all(
      queues.map(async (q) => {
        // the oldest job ready to run: the head of the waiting list (FIFO)
        const [oldest] = await q.getJobs(['waiting'], 0, 0, true);
        // a delayed job (a flag check) waits from when it fell due, not from when it was made
        return oldest === undefined ? 0 : Math.max(0, now - oldest.timestamp - (oldest.delay ?? 0)) / 1000;
      }),
    );
    return queues.map((q, i) => [{ queue: q.name }, oldest[i] ?? 0] as const);
  });
  return () => {
    stopJobs();
    stopAge();
  };
}
