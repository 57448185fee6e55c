/**
 * The one error type of this package. Every failure a caller can meet carries a code from
 * this closed list, so callers branch on the code and logs group by it.
 */
export const USI_ERRORS = [
  /** The engine binary could not be started. */
  'spawn_failed',
  /** The engine process exited (or was killed from outside) while it owed an answer. */
  'crashed',
  /** The engine did not answer in time and was killed. */
  'timeout',
  /** The engine wrote a line longer than the configured bound and was killed. */
  'line_too_long',
  /** The engine answered `bestmove` with something that is not a move, `resign` or `win`. */
  'bad_bestmove',
  /** A command could not be written: bad SFEN, move, option or limits from the caller. */
  'bad_command',
  /** A setoption names an option the engine did not list. */
  'unknown_option',
  /** A setoption value does not fit the option's type or range. */
  'bad_option_value',
  /** The engine is doing something else (one operation at a time). */
  'busy',
  /** The engine or pool was closed, or the engine was killed on purpose. */
  'closed',
  /** The caller's signal aborted the operation before it started. */
  'aborted',
  /** The pool's queue is full. */
  'queue_full',
] as const;
export type UsiErrorCode = (typeof USI_ERRORS)[number];

/** Codes after which the engine process is gone: a pool replaces the engine and may retry. */
const ENGINE_LOST: ReadonlySet<UsiErrorCode> = new Set(['spawn_failed', 'crashed', 'timeout', 'line_too_long']);

export class UsiError extends Error {
  override readonly name = 'UsiError';
  readonly code: UsiErrorCode;

  constructor(code: UsiErrorCode, message: string) {
    super(message);
    this.code = code;
  }

  /** True when the engine that raised it is dead, so the work may be retried on a fresh one. */
  get engineLost(): boolean {
    return ENGINE_LOST.has(this.code);
  }
}

export const isUsiError = (e: unknown): e is UsiError => e instanceof UsiError;
