/**
 * The evaluation of one position on request (the analysis board's engine), between the
 * gateway and the engine role: a job on its own queue, the depth updates on a channel of the
 * evaluation's own, and one channel on which any gateway tells every engine role to stop an
 * evaluation (its client left, or the player asked for another). The lines published are
 * the protocol's `PositionEvalLine`s, as the client gets them.
 */
export const POSITION_QUEUE = 'engine-positions';

export interface PositionJobData {
  /** the evaluation's id: names its channel and its job */
  readonly id: string;
  readonly sfen: string;
  /** checked by the gateway's rules: legal, and the game goes on after them */
  readonly moves: readonly string[];
  readonly multiPv: number;
  readonly maxDepth: number;
  /** wall time from the first search's start; a bot move's pause counts in it */
  readonly maxMs: number;
}

/** BullMQ custom ids may not hold ':'; the evaluation's id is a UUID. */
export const positionJobId = (id: string): string => `position-${id}`;

export const positionChannel = (id: string, channelPrefix = ''): string => `${channelPrefix}position-eval:${id}`;

/** Carries the id of an evaluation to stop, to every engine role. */
export const positionStopChannel = (channelPrefix = ''): string => `${channelPrefix}position-eval-stop`;
