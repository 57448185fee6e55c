/** The validate queue: its name, job data, job ids and the channel verdicts are published on. */
import type { MoveSubmitted, RecordedEvent } from '@shogi/game';
import type { JobsOptions, Queue } from 'bullmq';

export const VALIDATE_QUEUE = 'validate';

/** Validate the submission recorded at `seq` of game `gameId` (and any earlier one still pending). */
export interface ValidateJobData {
  readonly gameId: string;
  readonly seq: number;
  /**
   * The recorded MoveSubmitted's data, when the enqueuer has it: a worker whose cached
   * state ends just before `seq` folds it instead of reading the log (one round trip less
   * on the hot path). The append at the expected version still guards the verdict.
   */
  readonly submitted?: MoveSubmitted['data'];
  /**
   * When the submission was recorded (its `recordedAt`), sent with `submitted`: the worker
   * publishes the submission together with its verdict (gateways do not publish it alone).
   */
  readonly submittedAt?: string;
}

/**
 * Several submissions in one job: a gateway enqueues the moves it recorded in the same tick
 * together, so BullMQ's add, fetch and finish (Lua scripts, 57–72 µs of Redis CPU each here, and
 * a round trip) are paid once per batch instead of once per move. Each move is validated on
 * its own, exactly as a single job would.
 */
export interface ValidateBatchJobData {
  readonly moves: readonly ValidateJobData[];
}

/** The most moves one batch job carries. */
export const MAX_VALIDATE_BATCH = 64;

/** The job id is the idempotency key: one job per submission (BullMQ forbids ':' in custom ids). */
export const validateJobId = (gameId: string, seq: number): string => `${gameId}-${seq}`;

export const VALIDATE_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 50 },
  removeOnComplete: { age: 600, count: 10_000 },
  removeOnFail: { age: 24 * 3600 },
} as const satisfies JobsOptions;

/**
 * A validate job's options with its id, as a literal of its own: `{ ...VALIDATE_JOB_OPTIONS,
 * jobId }` gave every job a hidden class of its own in V8 (not shared: `--log-maps`), each
 * allocated in the old generation and collected only by its mark-compacts.
 */
export const validateJobOptions = (jobId: string): JobsOptions => ({
  attempts: VALIDATE_JOB_OPTIONS.attempts,
  backoff: VALIDATE_JOB_OPTIONS.backoff,
  removeOnComplete: VALIDATE_JOB_OPTIONS.removeOnComplete,
  removeOnFail: VALIDATE_JOB_OPTIONS.removeOnFail,
  jobId,
});

export async function enqueueValidate(
  queue: Queue<ValidateJobData>,
  data: ValidateJobData,
  options: JobsOptions = {},
): Promise<void> {
  await queue.add(VALIDATE_QUEUE, data, {
    ...VALIDATE_JOB_OPTIONS,
    ...options,
    jobId: validateJobId(data.gameId, data.seq),
  });
}

export function isValidateJobData(x: unknown): x is ValidateJobData {
  if (typeof x !== 'object' || x === null) return false;
  const { gameId, seq, submitted, submittedAt } = x as Record<string, unknown>;
  return (
    typeof gameId === 'string' &&
    gameId.length > 0 &&
    Number.isInteger(seq) &&
    (seq as number) > 0 &&
    (submitted === undefined || isSubmittedData(submitted)) &&
    (submittedAt === undefined || (typeof submittedAt === 'string' && !Number.isNaN(Date.parse(submittedAt))))
  );
}

export function isValidateBatchJobData(x: unknown): x is ValidateBatchJobData {
  if (typeof x !== 'object' || x === null) return false;
  const { moves } = x as Record<string, unknown>;
  return (
    Array.isArray(moves) && moves.length > 0 && moves.length <= MAX_VALIDATE_BATCH && moves.every(isValidateJobData)
  );
}

function isSubmittedData(x: unknown): x is MoveSubmitted['data'] {
  if (typeof x !== 'object' || x === null) return false;
  const d = x as Record<string, unknown>;
  return (
    typeof d.playerId === 'string' &&
    (d.color === 'sente' || d.color === 'gote') &&
    typeof d.usi === 'string' &&
    Number.isInteger(d.ply) &&
    typeof d.receivedAt === 'string' &&
    (d.idempotencyKey === undefined || typeof d.idempotencyKey === 'string')
  );
}

/** The Redis channel of a game's new events; `channelPrefix` isolates deployments and tests. */
export const gameChannel = (gameId: string, channelPrefix = ''): string => `${channelPrefix}game:${gameId}`;

/** What is published on a game's channel: a JSON array of these. */
export interface EventEnvelope {
  readonly gameId: string;
  readonly seq: number;
  readonly type: string;
  readonly data: unknown;
  readonly recordedAt: string;
}

/** A recorded event as it goes out on its game's channel. */
export const toEnvelope = (e: RecordedEvent): EventEnvelope => ({
  gameId: e.gameId,
  seq: e.seq,
  type: e.type,
  data: e.data,
  recordedAt: e.recordedAt,
});
