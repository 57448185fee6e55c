/**
 * The flag queue: one delayed job per turn of a timed game, due when the side to move
 * runs out (its deadline plus the lag allowance). It lives in Redis, so it survives worker
 * restarts; the job id is derived from the game and the ply, so scheduling a turn twice
 * (the worker after each verdict, the gateway after creating a game) adds one job.
 */
import { type GameState, turnFlagDueAt } from '@shogi/game';
import type { JobsOptions } from 'bullmq';
import { type QueuePlace, queuePlaces, validateQueueOf } from './validate-jobs.js';

export const FLAG_QUEUE = 'flag';

/**
 * The names of `count` flag queues: `flag` alone (as it always was), else `flag-0` …: on a
 * Redis Cluster the flag checks (one delayed job per turn of a timed game) are split by game
 * as the validate work is (`VALIDATE_QUEUES` of each), so that no one master carries them all;
 * a game's flag checks go to the queue of the same index as its validate jobs.
 */
export function flagQueueNames(count: number): string[] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`the flag queues must be at least 1, got ${count}`);
  return count === 1 ? [FLAG_QUEUE] : Array.from({ length: count }, (_, i) => `${FLAG_QUEUE}-${i}`);
}

/** Check the clock of game `gameId` in its turn after `ply` accepted moves. */
export interface FlagJobData {
  readonly gameId: string;
  readonly ply: number;
}

/** One job per turn (BullMQ forbids ':' in custom ids). */
export const flagJobId = (gameId: string, ply: number): string => `flag-${gameId}-${ply}`;

export const FLAG_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 200 },
  // a completed turn's id stays taken a while, so a late duplicate schedule adds nothing
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 24 * 3600 },
} as const satisfies JobsOptions;

/** A flag job's options as a literal of its own (see validateJobOptions: spreading cost a hidden class a job). */
export const flagJobOptions = (jobId: string, delay = 0): JobsOptions => ({
  attempts: FLAG_JOB_OPTIONS.attempts,
  backoff: FLAG_JOB_OPTIONS.backoff,
  removeOnComplete: FLAG_JOB_OPTIONS.removeOnComplete,
  removeOnFail: FLAG_JOB_OPTIONS.removeOnFail,
  delay,
  jobId,
});

/** The `count` flag queues (`flagQueueNames`) with their places, each on its validate queue's share. */
export const flagQueuePlaces = (count: number): QueuePlace[] => queuePlaces(flagQueueNames(count));

/** What queueing a flag check needs of a BullMQ queue. */
export interface FlagQueue {
  add(name: typeof FLAG_QUEUE, data: FlagJobData, opts: JobsOptions): Promise<unknown>;
}

/** The flag queues of a deployment, in order (`flagQueueNames`): one, or several split by game. */
export type FlagQueues = FlagQueue | readonly FlagQueue[];

/** The flag queue of a game among `queues` (the same index as its validate queue's). */
export function flagQueueFor(queues: FlagQueues, gameId: string): FlagQueue {
  const list: readonly FlagQueue[] = Array.isArray(queues) ? queues : [queues as FlagQueue];
  const queue = list[validateQueueOf(gameId, list.length)];
  if (queue === undefined) throw new Error('no flag queue');
  return queue;
}

/**
 * The one way flag checks are queued, on the game's flag queue: due after `delay` ms, as job `flag-<gameId>-<ply>`;
 * `copy` names a further job for the same turn beside that one (the sweeper's time bucket).
 */
export async function enqueueFlagCheck(
  queues: FlagQueues,
  job: FlagJobData,
  options: { readonly delay?: number; readonly copy?: string } = {},
): Promise<void> {
  const id = flagJobId(job.gameId, job.ply);
  await flagQueueFor(queues, job.gameId).add(
    FLAG_QUEUE,
    { gameId: job.gameId, ply: job.ply },
    flagJobOptions(options.copy === undefined ? id : `${id}-${options.copy}`, options.delay ?? 0),
  );
}

/** Schedules the flag check of the state's current turn; nothing for ended or unlimited games. */
export async function scheduleFlag(
  queues: FlagQueues,
  gameId: string,
  state: GameState,
  now: number = Date.now(),
): Promise<void> {
  if (state.status !== 'ongoing' || state.clock === null) return;
  const due = turnFlagDueAt(state.clock, state.ply);
  if (due === null) return;
  // after a takeback a ply comes again as a new turn, whose job must not be the old turn's id
  const delay = Math.max(0, due - now);
  await enqueueFlagCheck(
    queues,
    { gameId, ply: state.ply },
    state.takebacks === 0 ? { delay } : { delay, copy: `t${state.takebacks}` },
  );
}

export function isFlagJobData(x: unknown): x is FlagJobData {
  if (typeof x !== 'object' || x === null) return false;
  const { gameId, ply } = x as Record<string, unknown>;
  return typeof gameId === 'string' && gameId.length > 0 && Number.isInteger(ply) && (ply as number) >= 0;
}
