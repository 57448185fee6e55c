/**
 * Where a bot reply's time goes inside the server, from BullMQ's own stamps on the engine
 * role's move jobs: queued (added → taken by the engine role) and run (replay, options,
 * search, rules check), and what the jobs answered.
 */
import { ENGINE_MOVE_QUEUE, type EngineMoveJobData, type EngineMoveResult } from '@shogi/engine-bots';
import { Queue } from 'bullmq';

export interface EngineJobs {
  readonly waitMs: number[];
  readonly runMs: number[];
  /** answers by kind (move, resign, impasse, none) */
  readonly answers: Map<string, number>;
  /** failed jobs kept by the queue (an hour), whenever they failed */
  readonly failed: number;
}

/**
 * The move jobs finished between `from` and `to` (ms since the epoch). Completed jobs are
 * kept a minute (engine-client.ts), so read them right after the window.
 */
export async function engineJobs(redisUrl: string, prefix: string, from: number, to: number): Promise<EngineJobs> {
  const queue = new Queue<EngineMoveJobData, EngineMoveResult>(ENGINE_MOVE_QUEUE, {
    connection: { url: redisUrl },
    prefix,
  });
  try {
    // a job removed (after its minute) between the listing and its read comes back undefined
    const jobs = (await queue.getCompleted(0, 9999)).filter(
      (j) =>
        j !== undefined &&
        j.processedOn !== undefined &&
        j.finishedOn !== undefined &&
        j.finishedOn >= from &&
        j.finishedOn < to,
    );
    const answers = new Map<string, number>();
    for (const j of jobs) answers.set(j.returnvalue?.kind ?? '?', (answers.get(j.returnvalue?.kind ?? '?') ?? 0) + 1);
    return {
      waitMs: jobs.map((j) => (j.processedOn as number) - j.timestamp),
      runMs: jobs.map((j) => (j.finishedOn as number) - (j.processedOn as number)),
      answers,
      failed: await queue.getFailedCount(),
    };
  } finally {
    await queue.close();
  }
}

/** Resolves once the engine role has no move job waiting or running, or after `timeoutMs`; false then. */
export async function drained(redisUrl: string, prefix: string, timeoutMs: number): Promise<boolean> {
  const queue = new Queue(ENGINE_MOVE_QUEUE, { connection: { url: redisUrl }, prefix });
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const left = await queue.getJobCountByTypes('waiting', 'active', 'prioritized', 'delayed');
      if (left === 0) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  } finally {
    await queue.close();
  }
}
