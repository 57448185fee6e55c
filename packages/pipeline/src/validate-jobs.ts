/** The validate queue: its name, job data, job ids and options, and the one way a job is added to it. */
import { randomUUID } from 'node:crypto';
import type { MoveSubmitted } from '@shogi/game';
import type { JobsOptions } from 'bullmq';

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
 * Several submissions in one job: a gateway enqueues the moves it recorded over a few ticks
 * together, so BullMQ's add, fetch and finish (Lua scripts, each with its Redis CPU and a
 * round trip) are paid once per batch instead of once per move. Each move is validated on
 * its own, exactly as a single job would.
 */
export interface ValidateBatchJobData {
  readonly moves: readonly ValidateJobData[];
}

export type ValidateJob = ValidateJobData | ValidateBatchJobData;

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

/** What enqueueing needs of a BullMQ queue (method syntax: a Queue of either job type fits). */
export interface ValidateQueue<Added = unknown> {
  add(name: typeof VALIDATE_QUEUE, data: ValidateJob, opts: JobsOptions): Promise<Added>;
}

/**
 * The validate queues of a deployment, in order: one, or several that share the work by game
 * (`VALIDATE_QUEUES`), so that on a Redis Cluster no one queue, whose keys all live on one
 * master, carries every move.
 */
export type ValidateQueues<Added = unknown> = ValidateQueue<Added> | readonly ValidateQueue<Added>[];

/**
 * How many validate queues there are unless VALIDATE_QUEUES says: one on a single Redis (a
 * second queue there only adds BullMQ's overhead), three on a cluster: each queue takes an equal
 * part of the slot space, so three fall one on each master of the smallest cluster Redis
 * recommends (three masters, slots split evenly). Another cluster wants its own master count.
 */
export const validateQueueCount = (cluster: boolean, configured?: number): number => configured ?? (cluster ? 3 : 1);

/**
 * The names of `count` validate queues: `validate` alone (as it always was), else
 * `validate-0` … `validate-<count-1>`. Gateways, workers and sweepers must agree on `count`.
 */
export function validateQueueNames(count: number): string[] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`the validate queues must be at least 1, got ${count}`);
  return count === 1 ? [VALIDATE_QUEUE] : Array.from({ length: count }, (_, i) => `${VALIDATE_QUEUE}-${i}`);
}

/**
 * One of the queues that share a kind of work by game, where every process must put it: its
 * name and its share of a cluster's slot space (`queuePrefix`'s `share` in @shogi/redis). A
 * process that left the share out would open a queue under another tag, that nobody else uses.
 */
export interface QueuePlace {
  readonly name: string;
  readonly share: { readonly index: number; readonly of: number };
}

/** The places of the queues `names`, queue i taking the i-th of `names.length` shares. */
export const queuePlaces = (names: readonly string[]): QueuePlace[] =>
  names.map((name, index) => ({ name, share: { index, of: names.length } }));

/** The `count` validate queues (`validateQueueNames`) with their places. */
export const validateQueuePlaces = (count: number): QueuePlace[] => queuePlaces(validateQueueNames(count));

/**
 * The queue of a game among `count`: a hash of its id (32-bit FNV-1a), so every job of a game
 * goes to the same queue whichever gateway or sweeper adds it.
 */
export function validateQueueOf(gameId: string, count: number): number {
  if (count <= 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < gameId.length; i++) {
    hash ^= gameId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}

/**
 * The one way validation jobs are queued: by the gateway after an append, the worker's
 * sweeper and the tests. Each move goes to its game's queue (`validateQueueOf`); a lone move
 * is job `${gameId}-${seq}`, so queueing it again (a retried request, a second gateway) adds
 * nothing while the first job is known; several moves for one queue leave as one batch job
 * under an id of its own (a move validated twice is decided once: the worker appends at an
 * expected version). `copy` names a deliberate further job for a lone move, beside its first
 * one: the sweeper's time bucket, a test's duplicate. Resolves with what the queues' `add`
 * gave (BullMQ's Jobs), one per queue that got moves.
 */
export function enqueueValidate<Added>(
  queues: ValidateQueues<Added>,
  moves: readonly ValidateJobData[],
  options: { readonly copy?: string } = {},
): Promise<Added[]> {
  const list: readonly ValidateQueue<Added>[] = Array.isArray(queues) ? queues : [queues as ValidateQueue<Added>];
  if (moves.length === 0) return Promise.resolve([]);
  const [only] = list;
  if (list.length === 1 && only !== undefined) return addTo(only, moves, options).then((job) => [job]);
  const byQueue = new Map<number, ValidateJobData[]>();
  for (const move of moves) {
    const i = validateQueueOf(move.gameId, list.length);
    const group = byQueue.get(i);
    if (group === undefined) byQueue.set(i, [move]);
    else group.push(move);
  }
  return Promise.all([...byQueue].map(([i, group]) => addTo(list[i] as ValidateQueue<Added>, group, options)));
}

function addTo<Added>(
  queue: ValidateQueue<Added>,
  moves: readonly ValidateJobData[],
  options: { readonly copy?: string },
): Promise<Added> {
  const [only] = moves;
  if (moves.length > 1 || only === undefined)
    return queue.add(VALIDATE_QUEUE, { moves }, validateJobOptions(`batch-${randomUUID()}`));
  const id = validateJobId(only.gameId, only.seq);
  return queue.add(VALIDATE_QUEUE, only, validateJobOptions(options.copy === undefined ? id : `${id}-${options.copy}`));
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
