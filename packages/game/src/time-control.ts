/**
 * Time controls: the rules of a game's clocks, as plain values recorded in `GameCreated`.
 * Built from untrusted input only through `validateTimeControl`, which returns an error
 * value for nonsense. The clock arithmetic lives in `clock.ts`.
 */
import { err, ok, type Result } from '@shogi/rules';

export const TIME_CONTROL_KINDS = ['byoyomi', 'fischer', 'correspondence', 'unlimited'] as const;
export type TimeControlKind = (typeof TIME_CONTROL_KINDS)[number];

/**
 * Main time, then `periods` byoyomi periods of `byoyomiSeconds` each: a move within a
 * period resets it, a period used up entirely is lost, and the player flags when the last
 * is lost. `mainSeconds` 0 is pure byoyomi ("10-second shogi").
 */
export interface ByoyomiTimeControl {
  readonly kind: 'byoyomi';
  readonly mainSeconds: number;
  readonly byoyomiSeconds: number;
  readonly periods: number;
}

/**
 * Main time, plus `incrementSeconds` after each move. Sudden death is increment 0.
 * `mainSeconds` 0 starts each player with one increment (lichess's "0+1" convention),
 * so the first move is not lost before it can be made.
 */
export interface FischerTimeControl {
  readonly kind: 'fischer';
  readonly mainSeconds: number;
  readonly incrementSeconds: number;
}

/** Each move must come within `daysPerMove` days of the opponent's. */
export interface CorrespondenceTimeControl {
  readonly kind: 'correspondence';
  readonly daysPerMove: number;
}

/** No clock: never rated, never flags. */
export interface UnlimitedTimeControl {
  readonly kind: 'unlimited';
}

export type TimeControl = ByoyomiTimeControl | FischerTimeControl | CorrespondenceTimeControl | UnlimitedTimeControl;

/** Limits of a sensible time control, in seconds (days for correspondence). */
export const TIME_CONTROL_LIMITS = {
  /** Three hours of main time, as lichess's longest real-time clock. */
  mainSeconds: 3 * 60 * 60,
  /** Ten minutes a period: the longest byoyomi in professional play is 60 s, amateurs may want more. */
  byoyomiSeconds: 10 * 60,
  periods: { min: 1, max: 5 },
  /** Three minutes, as lichess's largest increment. */
  incrementSeconds: 3 * 60,
  daysPerMove: { min: 1, max: 14 },
} as const;

export const TIME_CONTROL_ERROR_CODES = [
  'unknown_kind',
  /** A field that is not a whole number (or NaN, or infinite). */
  'not_an_integer',
  'negative',
  /** Nothing on the clock: main time and byoyomi (or increment) both zero. */
  'no_time',
  /** Byoyomi periods of zero seconds: sudden death is a Fischer control with increment 0. */
  'zero_byoyomi',
  'periods_out_of_range',
  'days_out_of_range',
  'too_long',
] as const;
export type TimeControlErrorCode = (typeof TIME_CONTROL_ERROR_CODES)[number];

export interface TimeControlError {
  readonly code: TimeControlErrorCode;
  /** The offending field, when there is one. */
  readonly field?: string;
  readonly message: string;
}

const fail = (code: TimeControlErrorCode, message: string, field?: string): Result<TimeControl, TimeControlError> =>
  err(field === undefined ? { code, message } : { code, field, message });

/** The first wrong field of `fields` (whole, non-negative, within its upper bound), if any. */
function checkFields(
  tc: Readonly<Record<string, unknown>>,
  fields: readonly (readonly [name: string, max: number])[],
): Result<TimeControl, TimeControlError> | null {
  for (const [name, max] of fields) {
    const v = tc[name];
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      return fail('not_an_integer', `${name} must be a whole number`, name);
    if (v < 0) return fail('negative', `${name} must not be negative`, name);
    if (v > max) return fail('too_long', `${name} must be at most ${max}`, name);
  }
  return null;
}

/**
 * Checks a time control from outside (a seek, a challenge): the value itself when it is
 * sensible, else the first problem found. Safe on any input shaped like a time control,
 * whatever the types of its fields at run time.
 */
export function validateTimeControl(tc: TimeControl): Result<TimeControl, TimeControlError> {
  const L = TIME_CONTROL_LIMITS;
  switch (tc.kind) {
    case 'byoyomi': {
      const bad = checkFields(tc as unknown as Record<string, unknown>, [
        ['mainSeconds', L.mainSeconds],
        ['byoyomiSeconds', L.byoyomiSeconds],
        ['periods', Number.MAX_SAFE_INTEGER],
      ]);
      if (bad) return bad;
      if (tc.mainSeconds === 0 && tc.byoyomiSeconds === 0)
        return fail('no_time', 'main time and byoyomi are both zero');
      if (tc.byoyomiSeconds === 0)
        return fail('zero_byoyomi', 'byoyomi of 0 seconds: use a Fischer control with increment 0', 'byoyomiSeconds');
      if (tc.periods < L.periods.min || tc.periods > L.periods.max)
        return fail('periods_out_of_range', `periods must be ${L.periods.min} to ${L.periods.max}`, 'periods');
      return ok(tc);
    }
    case 'fischer': {
      const bad = checkFields(tc as unknown as Record<string, unknown>, [
        ['mainSeconds', L.mainSeconds],
        ['incrementSeconds', L.incrementSeconds],
      ]);
      if (bad) return bad;
      if (tc.mainSeconds === 0 && tc.incrementSeconds === 0)
        return fail('no_time', 'main time and increment are both zero');
      return ok(tc);
    }
    case 'correspondence': {
      const d = tc.daysPerMove;
      if (typeof d !== 'number' || !Number.isSafeInteger(d))
        return fail('not_an_integer', 'daysPerMove must be a whole number', 'daysPerMove');
      if (d < L.daysPerMove.min || d > L.daysPerMove.max)
        return fail(
          'days_out_of_range',
          `daysPerMove must be ${L.daysPerMove.min} to ${L.daysPerMove.max}`,
          'daysPerMove',
        );
      return ok(tc);
    }
    case 'unlimited':
      return ok(tc);
    default: {
      // exhaustive for typed callers; reached at run time by a kind from untrusted JSON
      const unknown: never = tc;
      const kind = JSON.stringify((unknown as { kind: unknown }).kind);
      return fail('unknown_kind', `unknown time control kind ${kind}`, 'kind');
    }
  }
}

export const byoyomi = (mainSeconds: number, byoyomiSeconds: number, periods = 1): ByoyomiTimeControl => ({
  kind: 'byoyomi',
  mainSeconds,
  byoyomiSeconds,
  periods,
});

export const fischer = (mainSeconds: number, incrementSeconds: number): FischerTimeControl => ({
  kind: 'fischer',
  mainSeconds,
  incrementSeconds,
});

export const correspondence = (daysPerMove: number): CorrespondenceTimeControl => ({
  kind: 'correspondence',
  daysPerMove,
});

export const UNLIMITED: UnlimitedTimeControl = { kind: 'unlimited' };
