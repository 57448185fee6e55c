import type { ColorName } from '@shogi/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyMove,
  type Clock,
  type ClockResult,
  deadline,
  flagDueAt,
  foldClock,
  isFlagged,
  LAG_ALLOWANCE_MS,
  remaining,
  type SideClock,
  startClock,
  type TimedMove,
} from '../src/clock.js';
import {
  byoyomi,
  correspondence,
  fischer,
  type TimeControl,
  UNLIMITED,
  validateTimeControl,
} from '../src/time-control.js';

const T0 = Date.parse('2025-01-01T09:00:00.000Z');
const s = (seconds: number): number => Math.round(seconds * 1000);
const DAY = 86_400_000;
const side = (mainMs: number, periodsLeft: number, periodMs: number): SideClock => ({ mainMs, periodsLeft, periodMs });

/** The moves of a game from sente's first, given each move's thinking time in seconds. */
function moves(thinking: readonly number[], from = T0, first: ColorName = 'sente'): TimedMove[] {
  let at = from;
  let color = first;
  return thinking.map((t) => {
    at += s(t);
    const move = { color, receivedAt: at };
    color = color === 'sente' ? 'gote' : 'sente';
    return move;
  });
}

/** Given a time control, when the players think `thinking` seconds in turn, then the result. */
const play = (tc: TimeControl, thinking: readonly number[], lagMs = LAG_ALLOWANCE_MS): ClockResult =>
  foldClock(startClock(tc, T0), moves(thinking), lagMs);

const running = (r: ClockResult): Clock => {
  if (r.kind !== 'running') throw new Error(`expected a running clock, got ${r.kind}`);
  return r.clock;
};
const moverOf = (thinking: readonly number[]): ColorName => (thinking.length % 2 === 1 ? 'sente' : 'gote');

describe('validateTimeControl', () => {
  it.each([
    ['10 min + 30 s × 3', byoyomi(600, 30, 3)],
    ['10-second shogi', byoyomi(0, 10)],
    ['5 periods', byoyomi(0, 10, 5)],
    ['3 min sudden death', fischer(180, 0)],
    ['0 + 2 s Fischer', fischer(0, 2)],
    ['3 days a move', correspondence(3)],
    ['unlimited', UNLIMITED],
  ] as const)('accepts %s', (_name, tc) => {
    expect(validateTimeControl(tc)).toEqual({ ok: true, value: tc });
  });
  it.each([
    ['negative main time', byoyomi(-1, 30), 'negative', 'mainSeconds'],
    ['zero everything', byoyomi(0, 0), 'no_time', undefined],
    ['byoyomi of 0 s after main time', byoyomi(600, 0), 'zero_byoyomi', 'byoyomiSeconds'],
    ['0 periods', byoyomi(600, 30, 0), 'periods_out_of_range', 'periods'],
    ['6 periods', byoyomi(600, 30, 6), 'periods_out_of_range', 'periods'],
    ['fractional seconds', byoyomi(600.5, 30), 'not_an_integer', 'mainSeconds'],
    ['NaN periods', byoyomi(600, 30, Number.NaN), 'not_an_integer', 'periods'],
    [
      'a string for a number',
      { kind: 'byoyomi', mainSeconds: '600', byoyomiSeconds: 30, periods: 1 },
      'not_an_integer',
      'mainSeconds',
    ],
    ['more than 3 hours', byoyomi(3 * 3600 + 1, 30), 'too_long', 'mainSeconds'],
    ['a 20-minute byoyomi', byoyomi(0, 1200), 'too_long', 'byoyomiSeconds'],
    ['Fischer zero everything', fischer(0, 0), 'no_time', undefined],
    ['a negative increment', fischer(300, -2), 'negative', 'incrementSeconds'],
    ['an increment over 3 min', fischer(300, 181), 'too_long', 'incrementSeconds'],
    ['0 days a move', correspondence(0), 'days_out_of_range', 'daysPerMove'],
    ['15 days a move', correspondence(15), 'days_out_of_range', 'daysPerMove'],
    ['1.5 days a move', correspondence(1.5), 'not_an_integer', 'daysPerMove'],
    ['an unknown kind', { kind: 'hourglass' }, 'unknown_kind', 'kind'],
  ] as const)('refuses %s', (_name, tc, code, field) => {
    const result = validateTimeControl(tc as unknown as TimeControl);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.error.field).toBe(field);
    }
  });
});

describe('byoyomi: 1 min + 10 s × 3 periods', () => {
  const tc = byoyomi(60, 10, 3);
  // Given each side's thinking times in turn, when the last move arrives (lag allowance in
  // ms), then the mover's clock after it.
  it.each([
    ['a move within main time', [20], 1000, side(40_000, 3, 10_000)],
    ['main time used exactly', [60], 1000, side(0, 3, 10_000)],
    ['a move within the first period resets it', [65], 1000, side(0, 3, 10_000)],
    ['a move exactly at the end of a period keeps it', [70], 0, side(0, 3, 10_000)],
    ['1 ms past the end of a period loses it', [70.001], 0, side(0, 2, 10_000)],
    ['within the lag allowance past a period, the period is kept', [71], 1000, side(0, 3, 10_000)],
    ['past the lag allowance, the period is lost', [71.001], 1000, side(0, 2, 10_000)],
    ['a move that uses two periods', [85], 1000, side(0, 1, 10_000)],
    ['a move exactly at the end of the last period', [90], 0, side(0, 1, 10_000)],
    ['a move late by less than the lag allowance', [90.6], 1000, side(0, 1, 10_000)],
    ['later moves charged from main time left', [30, 5, 20], 1000, side(10_000, 3, 10_000)],
    ['a period lost earlier stays lost', [75, 1, 5], 0, side(0, 2, 10_000)],
    ['the opponent keeps their own periods', [85, 3], 0, side(57_000, 3, 10_000)],
  ] as const)('%s', (_name, thinking, lagMs, expected) => {
    const clock = running(play(tc, thinking, lagMs));
    expect(clock[moverOf(thinking)]).toEqual(expected);
    expect(clock.toMove).toBe(moverOf(thinking) === 'sente' ? 'gote' : 'sente');
    expect(clock.turnStartedAt).toBe(moves(thinking).at(-1)?.receivedAt);
  });
  it.each([
    ['1 ms past the last period, no allowance', [90.001], 0, s(90)],
    ['1 ms past the lag allowance', [91.001], 1000, s(91 - 1)],
    ['a move that would use four periods', [95], 1000, s(90)],
    ['the last period lost after an earlier move used two', [85, 1, 10.001], 0, s(85 + 1 + 10)],
  ] as const)('flags on %s', (_name, thinking, lagMs, flaggedAt) => {
    const result = play(tc, thinking, lagMs);
    expect(result).toMatchObject({ kind: 'flagged', color: moverOf(thinking), flaggedAt: T0 + flaggedAt });
    if (result.kind === 'flagged') expect(result.clock[moverOf(thinking)]).toEqual(side(0, 0, 0));
  });
});

describe('pure byoyomi: 10-second shogi', () => {
  const tc = byoyomi(0, 10);
  it.each([
    ['a move at 10 s', [10], 0, 'running'],
    ['a move at 10.001 s without allowance', [10.001], 0, 'flagged'],
    ['a move at 11 s with the 1 s allowance', [11], 1000, 'running'],
    ['a move at 11.001 s with the 1 s allowance', [11.001], 1000, 'flagged'],
    ['many moves of 9.9 s', Array.from({ length: 40 }, () => 9.9), 0, 'running'],
  ] as const)('%s is %s', (_name, thinking, lagMs, kind) => {
    expect(play(tc, thinking, lagMs).kind).toBe(kind);
  });
});

describe('Fischer: 1 min + 5 s', () => {
  const tc = fischer(60, 5);
  it.each([
    ['adds the increment after a move', [20], side(45_000, 0, 0)],
    ['adds it to an empty main time', [60], side(5_000, 0, 0)],
    ['forgives a move late by less than the allowance, from zero', [60.5], side(5_000, 0, 0)],
    ['charges later moves from what is left', [20, 1, 44], side(6_000, 0, 0)],
  ] as const)('%s', (_name, thinking, expected) => {
    expect(running(play(tc, thinking))[moverOf(thinking)]).toEqual(expected);
  });
  it('flags past main time and allowance', () => {
    expect(play(tc, [61.001])).toMatchObject({ kind: 'flagged', color: 'sente', flaggedAt: T0 + s(60) });
  });
  it('starts 0 + 2 s with one increment on each clock', () => {
    const clock = startClock(fischer(0, 2), T0);
    expect(clock.sente).toEqual(side(2_000, 0, 0));
    expect(running(applyMove(clock, 'sente', T0 + 1_500)).sente).toEqual(side(2_500, 0, 0));
  });
});

describe('correspondence: 2 days a move', () => {
  const tc = correspondence(2);
  it('resets the days after each move', () => {
    const clock = running(play(tc, [47 * 3600, 1]));
    expect(clock.sente).toEqual(side(0, 1, 2 * DAY));
    expect(deadline(clock)).toBe(T0 + s(47 * 3600 + 1) + 2 * DAY);
  });
  it('accepts a move at the day limit plus the allowance, flags 1 ms later', () => {
    expect(play(tc, [2 * 86_400 + 1]).kind).toBe('running');
    expect(play(tc, [2 * 86_400 + 1.001])).toMatchObject({ kind: 'flagged', flaggedAt: T0 + 2 * DAY });
  });
});

describe('unlimited', () => {
  it('never flags and has no deadline', () => {
    const clock = running(play(UNLIMITED, [365 * 86_400, 1]));
    expect(clock.sente).toEqual(side(0, 0, 0));
    expect(deadline(clock)).toBeNull();
    expect(flagDueAt(clock)).toBeNull();
    expect(isFlagged(clock, T0 + 1000 * DAY)).toBe(false);
  });
});

describe('turns', () => {
  it('refuses a move by the side whose time is not running', () => {
    const clock = startClock(byoyomi(60, 10), T0);
    expect(applyMove(clock, 'gote', T0 + 1000)).toEqual({ kind: 'not_on_move', clock });
  });
  it('starts gote first in a handicap game', () => {
    const clock = startClock(byoyomi(60, 10), T0, 'gote');
    expect(running(applyMove(clock, 'gote', T0 + s(5))).gote).toEqual(side(55_000, 1, 10_000));
  });
  it('counts a receive time before the turn began (clock skew) as no time spent', () => {
    const clock = startClock(fischer(60, 0), T0);
    expect(running(applyMove(clock, 'sente', T0 - 200)).sente).toEqual(side(60_000, 0, 0));
  });
});

describe('deadline and the flag job', () => {
  const clock = startClock(byoyomi(60, 10, 3), T0);
  it('is the end of main time and every period', () => expect(deadline(clock)).toBe(T0 + s(90)));
  it('falls due 1 ms after the deadline plus the allowance', () => {
    expect(flagDueAt(clock)).toBe(T0 + s(91) + 1);
    expect(isFlagged(clock, T0 + s(91))).toBe(false);
    expect(isFlagged(clock, T0 + s(91) + 1)).toBe(true);
    expect(isFlagged(clock, T0 + s(90) + 1, 0)).toBe(true);
  });
  it('moves to the opponent after a move', () => {
    const after = running(applyMove(clock, 'sente', T0 + s(75)));
    expect(after.sente).toEqual(side(0, 2, 10_000));
    expect(deadline(after)).toBe(T0 + s(75) + s(90));
  });
});

describe('remaining (snapshots)', () => {
  const clock = startClock(byoyomi(60, 10, 3), T0);
  it.each([
    ['at the start', 0, side(60_000, 3, 10_000)],
    ['within main time', 30, side(30_000, 3, 10_000)],
    ['within the first period', 65, side(0, 3, 5_000)],
    ['at the end of the first period', 70, side(0, 3, 0)],
    ['1 ms into the second period', 70.001, side(0, 2, 9_999)],
    ['at the end of the last period', 90, side(0, 1, 0)],
    ['past the deadline', 95, side(0, 0, 0)],
  ] as const)('shows the side on move %s', (_name, at, expected) => {
    const snap = remaining(clock, T0 + s(at));
    expect(snap.sente).toEqual(expected);
    expect(snap.gote).toEqual(side(60_000, 3, 10_000));
    expect(snap).toMatchObject({ toMove: 'sente', at: T0 + s(at) });
  });
  it('shows a Fischer clock running down to zero', () => {
    const f = startClock(fischer(60, 5), T0);
    expect(remaining(f, T0 + s(59)).sente).toEqual(side(1_000, 0, 0));
    expect(remaining(f, T0 + s(61)).sente).toEqual(side(0, 0, 0));
  });
  it('shows a correspondence move’s time left', () => {
    expect(remaining(startClock(correspondence(1), T0), T0 + s(3600)).sente).toEqual(side(0, 1, DAY - s(3600)));
  });
});

// Valid time controls of every kind, and thinking times up to 2 minutes a move.
const timeControl: fc.Arbitrary<TimeControl> = fc.oneof(
  fc
    .record({
      mainSeconds: fc.integer({ min: 0, max: 600 }),
      byoyomiSeconds: fc.integer({ min: 1, max: 60 }),
      periods: fc.integer({ min: 1, max: 5 }),
    })
    .map(({ mainSeconds, byoyomiSeconds, periods }) => byoyomi(mainSeconds, byoyomiSeconds, periods)),
  fc
    .record({ mainSeconds: fc.integer({ min: 0, max: 600 }), incrementSeconds: fc.integer({ min: 0, max: 30 }) })
    .filter(({ mainSeconds, incrementSeconds }) => mainSeconds + incrementSeconds > 0)
    .map(({ mainSeconds, incrementSeconds }) => fischer(mainSeconds, incrementSeconds)),
  fc.integer({ min: 1, max: 14 }).map(correspondence),
  fc.constant(UNLIMITED),
);
const thinkingMs = fc.array(fc.integer({ min: 0, max: 120_000 }), { maxLength: 120 });
const lag = fc.constantFrom(0, 1000);
const timedMoves = (thinking: readonly number[]): TimedMove[] => moves(thinking.map((ms) => ms / 1000));

describe('replay', () => {
  it('gives identical clocks when the same receive times are folded twice', () => {
    fc.assert(
      fc.property(timeControl, thinkingMs, lag, (tc, thinking, lagMs) => {
        const live = foldClock(startClock(tc, T0), timedMoves(thinking), lagMs);
        const replay = foldClock(startClock(tc, T0), timedMoves(thinking), lagMs);
        expect(replay).toEqual(live);
      }),
    );
  });
  it('resumes from a clock stored as JSON (as in MoveAccepted) with the same result', () => {
    fc.assert(
      fc.property(timeControl, thinkingMs, fc.nat(), lag, (tc, thinking, cut, lagMs) => {
        const all = timedMoves(thinking);
        const k = all.length === 0 ? 0 : cut % all.length;
        const head = foldClock(startClock(tc, T0), all.slice(0, k), lagMs);
        if (head.kind !== 'running') return;
        const stored = JSON.parse(JSON.stringify(head.clock)) as Clock;
        expect(foldClock(stored, all.slice(k), lagMs)).toEqual(foldClock(startClock(tc, T0), all, lagMs));
      }),
    );
  });
  it('flags a move exactly when isFlagged holds at its receive time', () => {
    fc.assert(
      fc.property(timeControl, thinkingMs, fc.integer({ min: 0, max: 2_000_000 }), lag, (tc, thinking, t, lagMs) => {
        const before = foldClock(startClock(tc, T0), timedMoves(thinking), lagMs);
        if (before.kind !== 'running') return;
        const at = before.clock.turnStartedAt + t;
        const flagged = applyMove(before.clock, before.clock.toMove, at, lagMs).kind === 'flagged';
        expect(flagged).toBe(isFlagged(before.clock, at, lagMs));
        const due = flagDueAt(before.clock, lagMs);
        expect(flagged).toBe(due !== null && at >= due);
      }),
    );
  });
  it('never gives back main time or periods in byoyomi', () => {
    fc.assert(
      fc.property(timeControl, thinkingMs, lag, (tc, thinking, lagMs) => {
        let clock = startClock(tc, T0);
        for (const move of timedMoves(thinking)) {
          const result = applyMove(clock, move.color, move.receivedAt, lagMs);
          if (result.kind !== 'running') return;
          const [was, is] = [clock[move.color], result.clock[move.color]];
          if (tc.kind === 'byoyomi') {
            expect(is.mainMs).toBeLessThanOrEqual(was.mainMs);
            expect(is.periodsLeft).toBeLessThanOrEqual(was.periodsLeft);
            expect(is.periodsLeft).toBeGreaterThanOrEqual(1);
          }
          clock = result.clock;
        }
      }),
    );
  });
});
