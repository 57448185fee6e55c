/**
 * lishogi's parameters of `POST /api/challenge/{username}` read into this server's challenge
 * terms, pure. A form body gives every value as a string (`clock.limit=300`); a JSON body may
 * give numbers and booleans, and the clock flat (`"clock.limit": 300`) or nested (`"clock":
 * {"limit": 300}`), as lishogi's form binding reads either. What the lobby checks itself (the
 * clock's sense, a rated game's clock, the position) is left to it.
 */
import type { CreateChallengeBody, ErrorCode, TimeControl } from '@shogi/protocol';

type Scalar = string | number | boolean;

export interface LishogiChallengeParams {
  readonly rated?: Scalar;
  readonly 'clock.limit'?: Scalar;
  readonly 'clock.increment'?: Scalar;
  readonly 'clock.byoyomi'?: Scalar;
  readonly 'clock.periods'?: Scalar;
  readonly clock?: {
    readonly limit?: Scalar;
    readonly increment?: Scalar;
    readonly byoyomi?: Scalar;
    readonly periods?: Scalar;
  };
  readonly days?: Scalar;
  readonly color?: Scalar;
  readonly variant?: Scalar;
  readonly sfen?: Scalar;
  readonly keepAliveStream?: Scalar;
  readonly acceptByToken?: Scalar;
  readonly message?: Scalar;
}

export type ChallengeTerms = Omit<CreateChallengeBody, 'opponent'>;

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: ErrorCode; readonly detail: string };

/** lishogi's bounds of each number (its API reference), seconds and days. */
const BOUNDS = {
  'clock.limit': [0, 10_800],
  'clock.increment': [0, 60],
  'clock.byoyomi': [0, 60],
  'clock.periods': [1, 5],
  days: [1, 14],
} as const;
type Bounded = keyof typeof BOUNDS;

/** Thrown inside the parser only, and answered as a value by parseChallengeParams. */
class Refusal extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  constructor(code: ErrorCode, detail: string) {
    super(detail);
    this.code = code;
    this.detail = detail;
  }
}

function integer(name: Bounded, value: Scalar | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  const [min, max] = BOUNDS[name];
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Refusal('INVALID_TIME_CONTROL', `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

function flag(name: string, value: Scalar | undefined): boolean {
  if (value === undefined || value === '' || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new Refusal('BAD_REQUEST', `${name} must be true or false`);
}

function oneOf<const T extends string>(name: string, value: Scalar | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Refusal('BAD_REQUEST', `${name} must be one of ${allowed.join(', ')}`);
}

/** A clock, a number of days per move, or neither: unlimited, as lishogi has it. */
function timeControlOf(params: LishogiChallengeParams): TimeControl {
  const nested = params.clock ?? {};
  const limit = integer('clock.limit', params['clock.limit'] ?? nested.limit);
  const increment = integer('clock.increment', params['clock.increment'] ?? nested.increment);
  const byoyomi = integer('clock.byoyomi', params['clock.byoyomi'] ?? nested.byoyomi);
  const periods = integer('clock.periods', params['clock.periods'] ?? nested.periods);
  const days = integer('days', params.days);
  const clocked = [limit, increment, byoyomi, periods].some((v) => v !== undefined);
  if (clocked && days !== undefined) throw new Refusal('BAD_REQUEST', 'give a clock or days, not both');
  if (days !== undefined) return { kind: 'correspondence', daysPerMove: days };
  if (!clocked) return { kind: 'unlimited' };
  if (limit === undefined) throw new Refusal('INVALID_TIME_CONTROL', 'clock.limit is needed with a clock');
  if ((byoyomi ?? 0) > 0) {
    // this server's clocks have byoyomi or an increment, never both
    if ((increment ?? 0) > 0)
      throw new Refusal('INVALID_TIME_CONTROL', 'a clock has an increment or byoyomi here, not both');
    return { kind: 'byoyomi', mainSeconds: limit, byoyomiSeconds: byoyomi ?? 0, periods: periods ?? 1 };
  }
  return { kind: 'fischer', mainSeconds: limit, incrementSeconds: increment ?? 0 };
}

const START_NAMES = ['startpos', 'standard'];

export function parseChallengeParams(params: LishogiChallengeParams): Parsed<ChallengeTerms> {
  try {
    if (flag('keepAliveStream', params.keepAliveStream))
      throw new Refusal('BAD_REQUEST', 'keepAliveStream is not served here: a challenge stays pending for 5 minutes');
    if (params.acceptByToken !== undefined && params.acceptByToken !== '')
      throw new Refusal('BAD_REQUEST', 'acceptByToken is not served here: the challenged player accepts');
    const variant = params.variant ?? 'standard';
    if (variant !== 'standard' && variant !== '')
      return { ok: false, code: 'UNSUPPORTED_VARIANT', detail: String(variant) };
    const sfen = params.sfen === undefined || params.sfen === '' ? undefined : params.sfen;
    if (sfen !== undefined && (typeof sfen !== 'string' || sfen.length > 200))
      throw new Refusal('INVALID_SFEN', 'sfen must be a position of at most 200 characters');
    return {
      ok: true,
      value: {
        timeControl: timeControlOf(params),
        rated: flag('rated', params.rated),
        color: oneOf('color', params.color, ['sente', 'gote', 'random'] as const, 'random'),
        ...(sfen === undefined || START_NAMES.includes(sfen) ? {} : { sfen }),
      },
    };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, code: err.code, detail: err.detail };
    throw err;
  }
}
