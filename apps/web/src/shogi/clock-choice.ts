/**
 * The clock a challenge asks for, from the challenge form's fields (strings, as inputs hold
 * them). The limits are the server's (@shogi/game's TIME_CONTROL_LIMITS), repeated here so a
 * mistake is named before the request; the server checks again. Pure: no DOM.
 */
import type { TimeControl } from '@shogi/protocol';

export type ClockKind = TimeControl['kind'];

export interface ClockFields {
  readonly kind: ClockKind;
  /** main time, whole minutes (byoyomi, fischer) */
  readonly minutes: string;
  /** seconds a byoyomi period */
  readonly byoyomi: string;
  readonly periods: string;
  /** seconds added a move (fischer) */
  readonly increment: string;
  /** correspondence */
  readonly days: string;
}

/** What the form shows first for each kind: the common clocks. */
export const DEFAULT_FIELDS: ClockFields = {
  kind: 'byoyomi',
  minutes: '10',
  byoyomi: '30',
  periods: '1',
  increment: '5',
  days: '3',
};

export const CLOCK_KINDS: readonly { kind: ClockKind; label: string }[] = [
  { kind: 'byoyomi', label: 'Byoyomi' },
  { kind: 'fischer', label: 'Fischer (increment)' },
  { kind: 'correspondence', label: 'Correspondence' },
  { kind: 'unlimited', label: 'No clock' },
];

/** The fields each kind uses (the form hides the others). */
export const FIELDS_OF: Readonly<Record<ClockKind, readonly (keyof ClockFields)[]>> = {
  byoyomi: ['minutes', 'byoyomi', 'periods'],
  fischer: ['minutes', 'increment'],
  correspondence: ['days'],
  unlimited: [],
};

export type ClockChoice = { ok: true; timeControl: TimeControl } | { ok: false; error: string };

const LIMITS = { minutes: 180, byoyomiSeconds: 600, periods: [1, 5], incrementSeconds: 180, days: [1, 14] } as const;

/** A whole number in [min, max] from a field, or why not. */
function whole(text: string, what: string, min: number, max: number): number | string {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `${what}: a whole number, please`;
  const n = Number(t);
  if (n < min || n > max) return `${what} must be ${min} to ${max}`;
  return n;
}

export function clockChoice(f: ClockFields, rated: boolean): ClockChoice {
  const fail = (error: string): ClockChoice => ({ ok: false, error });
  switch (f.kind) {
    case 'unlimited':
      return rated ? fail('A rated game needs a clock.') : { ok: true, timeControl: { kind: 'unlimited' } };
    case 'byoyomi': {
      const minutes = whole(f.minutes, 'Main time (minutes)', 0, LIMITS.minutes);
      const byoyomi = whole(f.byoyomi, 'Byoyomi (seconds)', 0, LIMITS.byoyomiSeconds);
      const periods = whole(f.periods, 'Periods', LIMITS.periods[0], LIMITS.periods[1]);
      for (const v of [minutes, byoyomi, periods]) if (typeof v === 'string') return fail(v);
      // the server refuses a zero byoyomi: that clock is Fischer with no increment
      if (byoyomi === 0) return fail('Byoyomi of 0 seconds: choose Fischer with an increment of 0 instead.');
      return {
        ok: true,
        timeControl: {
          kind: 'byoyomi',
          mainSeconds: (minutes as number) * 60,
          byoyomiSeconds: byoyomi as number,
          periods: periods as number,
        },
      };
    }
    case 'fischer': {
      const minutes = whole(f.minutes, 'Main time (minutes)', 0, LIMITS.minutes);
      const increment = whole(f.increment, 'Increment (seconds)', 0, LIMITS.incrementSeconds);
      for (const v of [minutes, increment]) if (typeof v === 'string') return fail(v);
      if (minutes === 0 && increment === 0) return fail('Main time and increment are both zero.');
      return {
        ok: true,
        timeControl: { kind: 'fischer', mainSeconds: (minutes as number) * 60, incrementSeconds: increment as number },
      };
    }
    case 'correspondence': {
      const days = whole(f.days, 'Days per move', LIMITS.days[0], LIMITS.days[1]);
      if (typeof days === 'string') return fail(days);
      return { ok: true, timeControl: { kind: 'correspondence', daysPerMove: days } };
    }
  }
}
