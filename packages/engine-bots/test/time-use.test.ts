import type { ClockView, TimeControl } from '@shogi/protocol';
import { formatCommand, searchBudgetMs } from '@shogi/usi';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEVEL_NUMBERS, LEVELS, type Level, MIN_MOVETIME_MS, searchLimitsFor } from '../src/index.js';

const AT = Date.parse('2025-01-01T12:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const side = (mainMs: number, periodMs = 0, periodsLeft = 0) => ({ mainMs, periodMs, periodsLeft });

/** A running clock, sente to move, gote with plenty. */
function running(sente: ClockView['sente'], extra: Partial<ClockView> = {}): ClockView {
  return {
    sente,
    gote: side(600_000, 30_000, 1),
    running: 'sente',
    started: true,
    deadlineAt: iso(AT + 60_000),
    at: iso(AT),
    ...extra,
  };
}

const BYO_1S: TimeControl = { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 1, periods: 3 };
const BYO_10M: TimeControl = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 };
const FISCHER: TimeControl = { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 };
const fixed = (depth: number, movetime: number) => ({ kind: 'fixed', depth, movetime });
const margin = { marginMs: 500 };

describe('searchLimitsFor: examples', () => {
  it("gives unlimited and correspondence games the level's own depth and time cap", () => {
    expect(searchLimitsFor(8, null, 'sente', { kind: 'unlimited' })).toEqual(fixed(22, 1000));
    const corr = running(side(0, 3 * 86_400_000, 1));
    expect(searchLimitsFor(3, corr, 'sente', { kind: 'correspondence', daysPerMove: 3 })).toEqual(fixed(5, 150));
  });

  it('keeps to the level cap when the clock has plenty', () => {
    expect(searchLimitsFor(7, running(side(600_000, 30_000, 1)), 'sente', BYO_10M)).toEqual(fixed(13, 500));
    expect(searchLimitsFor(6, running(side(180_000)), 'sente', FISCHER)).toEqual(fixed(8, 400));
  });

  it('byoyomi: ends strictly before the period does, less the margin', () => {
    expect(searchLimitsFor(8, running(side(0, 1000, 3)), 'sente', BYO_1S, margin)).toEqual(fixed(22, 499));
    // main time first, then the period
    expect(searchLimitsFor(8, running(side(200, 1000, 3)), 'sente', BYO_1S, margin)).toEqual(fixed(22, 699));
    // the cap of a low level is below what the clock leaves
    expect(searchLimitsFor(2, running(side(0, 1000, 3)), 'sente', BYO_1S, margin)).toEqual(fixed(5, 100));
  });

  it('byoyomi: time passed since the view is charged to the side on move only', () => {
    const view = running(side(0, 1000, 3));
    expect(searchLimitsFor(8, view, 'sente', BYO_1S, { ...margin, now: AT + 300 })).toEqual(fixed(22, 199));
    const inMain = running(side(400, 1000, 3));
    expect(searchLimitsFor(8, inMain, 'sente', BYO_1S, { ...margin, now: AT + 300 })).toEqual(fixed(22, 599));
    const gotesTurn = running(side(0, 1000, 3), { running: 'gote' });
    expect(searchLimitsFor(8, gotesTurn, 'sente', BYO_1S, { ...margin, now: AT + 300 })).toEqual(fixed(22, 499));
  });

  it('byoyomi: a period that ran out meanwhile is gone, and the next one counts', () => {
    // 100 ms left in the period, 300 ms later: 200 ms into the next 1 s period
    const view = running(side(0, 100, 3));
    expect(searchLimitsFor(8, view, 'sente', BYO_1S, { ...margin, now: AT + 300 })).toEqual(fixed(22, 299));
    const lastPeriod = running(side(0, 100, 1));
    expect(searchLimitsFor(8, lastPeriod, 'sente', BYO_1S, { ...margin, now: AT + 300 })).toEqual(fixed(1, 1));
  });

  it('Fischer: never more than the fraction of the main time left after the margin', () => {
    expect(searchLimitsFor(8, running(side(5000)), 'sente', FISCHER, margin)).toEqual(fixed(22, 450));
    expect(searchLimitsFor(8, running(side(5000)), 'sente', FISCHER, { ...margin, fischerFraction: 0.05 })).toEqual(
      fixed(22, 225),
    );
    expect(searchLimitsFor(3, running(side(5000)), 'sente', FISCHER, margin)).toEqual(fixed(5, 150));
  });

  it('moves at once (depth 1, 1 ms) when less than the margin is left', () => {
    expect(searchLimitsFor(8, running(side(400)), 'sente', FISCHER, margin)).toEqual(fixed(1, MIN_MOVETIME_MS));
    expect(searchLimitsFor(8, running(side(0, 500, 1)), 'sente', BYO_1S, margin)).toEqual(fixed(1, MIN_MOVETIME_MS));
  });

  it('the first move: only the first-move timer counts, not the clocks that do not run yet', () => {
    const first = (deadline: number) =>
      running(side(0, 1000, 3), { running: null, started: false, deadlineAt: iso(deadline) });
    expect(searchLimitsFor(8, first(AT + 30_000), 'sente', BYO_1S, margin)).toEqual(fixed(22, 1000));
    expect(searchLimitsFor(8, first(AT + 30_000), 'sente', BYO_1S, { ...margin, now: AT + 29_000 })).toEqual(
      fixed(22, 499),
    );
    expect(searchLimitsFor(8, first(AT + 700), 'gote', FISCHER, margin)).toEqual(fixed(22, 199));
  });

  it('reads the side asked for, not the side whose clock runs', () => {
    const view = running(side(600_000, 30_000, 1), { gote: side(0, 1000, 1) });
    expect(searchLimitsFor(8, view, 'gote', BYO_1S, margin)).toEqual(fixed(22, 499));
  });

  it('refuses options and instants it cannot use', () => {
    const view = running(side(5000));
    expect(() => searchLimitsFor(8, view, 'sente', FISCHER, { marginMs: -1 })).toThrow(RangeError);
    expect(() => searchLimitsFor(8, view, 'sente', FISCHER, { fischerFraction: 1 })).toThrow(RangeError);
    expect(() => searchLimitsFor(8, view, 'sente', FISCHER, { fischerFraction: 0 })).toThrow(RangeError);
    expect(() => searchLimitsFor(8, { ...view, at: 'yesterday' }, 'sente', FISCHER)).toThrow(/clock\.at/);
  });
});

// --- properties: any clock state

/** Mostly short times: the clock binds only when less than a few seconds are left. */
const ms = (max: number) =>
  fc.oneof({ arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 3 }, fc.integer({ min: 0, max }));
const sideTime = fc.record({
  mainMs: ms(3 * 3_600_000),
  periodMs: ms(600_000),
  periodsLeft: fc.integer({ min: 0, max: 5 }),
});
const timeControl: fc.Arbitrary<TimeControl> = fc.oneof(
  fc.record({
    kind: fc.constant('byoyomi' as const),
    mainSeconds: fc.integer({ min: 0, max: 10_800 }),
    byoyomiSeconds: fc.integer({ min: 1, max: 600 }),
    periods: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    kind: fc.constant('fischer' as const),
    mainSeconds: fc.integer({ min: 0, max: 10_800 }),
    incrementSeconds: fc.integer({ min: 0, max: 180 }),
  }),
  fc.record({ kind: fc.constant('correspondence' as const), daysPerMove: fc.integer({ min: 1, max: 14 }) }),
  fc.constant({ kind: 'unlimited' as const }),
);
const clockState = fc.record({
  sente: sideTime,
  gote: sideTime,
  running: fc.constantFrom('sente' as const, 'gote' as const, null),
  started: fc.boolean(),
  deadlineAt: fc.option(fc.integer({ min: -5_000, max: 60_000 }).map((d) => iso(AT + d))),
  at: fc.constant(iso(AT)),
});
const scenario = fc.record({
  level: fc.constantFrom(...LEVEL_NUMBERS),
  clock: fc.option(clockState, { freq: 8 }),
  side: fc.constantFrom('sente' as const, 'gote' as const),
  timeControl,
  marginMs: fc.integer({ min: 0, max: 5_000 }),
  fischerFraction: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
  elapsed: fc.option(ms(120_000)),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const limitsOf = (s: Scenario) =>
  searchLimitsFor(s.level, s.clock, s.side, s.timeControl, {
    marginMs: s.marginMs,
    fischerFraction: s.fischerFraction,
    ...(s.elapsed === null ? {} : { now: AT + s.elapsed }),
  });
const budgetOf = (s: Scenario): number => {
  const budget = searchBudgetMs(limitsOf(s), s.side === 'sente' ? 'b' : 'w');
  if (budget === null) throw new Error('every search is bounded in time');
  return budget;
};

/**
 * What the side has before it flags, as the clock view says, written out independently of
 * the code under test; null where the clock sets no limit.
 */
function timeToFlag(s: Scenario): number | null {
  const { clock, timeControl: tc } = s;
  if (clock === null || tc.kind === 'unlimited') return null;
  const now = AT + (s.elapsed ?? 0);
  if (!clock.started) return clock.deadlineAt === null ? null : Date.parse(clock.deadlineAt) - Math.max(AT, now);
  const t = clock[s.side];
  const elapsed = clock.running === s.side ? (s.elapsed ?? 0) : 0;
  if (tc.kind === 'fischer') return t.mainMs - elapsed;
  if (tc.kind === 'correspondence') return t.mainMs + t.periodMs - elapsed;
  const periods = t.periodsLeft > 0 ? t.periodMs + (t.periodsLeft - 1) * tc.byoyomiSeconds * 1000 : 0;
  return t.mainMs + periods - elapsed;
}

describe('searchLimitsFor: properties', () => {
  it('is always a valid fixed search within the level: depth and time never above its own', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const limits = limitsOf(s);
        expect(limits.kind).toBe('fixed');
        if (limits.kind !== 'fixed') return;
        expect(formatCommand({ type: 'go', limits }).ok).toBe(true);
        expect(limits.depth).toBeLessThanOrEqual(LEVELS[s.level as Level].depth);
        expect(budgetOf(s)).toBeGreaterThanOrEqual(MIN_MOVETIME_MS);
        expect(budgetOf(s)).toBeLessThanOrEqual(LEVELS[s.level as Level].movetimeMs);
      }),
      { numRuns: 2000 },
    );
  });

  it('never flags: the budget is strictly inside the time left less the margin, whenever that allows a search', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const left = timeToFlag(s);
        if (left === null || left - s.marginMs <= MIN_MOVETIME_MS) return;
        expect(budgetOf(s)).toBeLessThan(left - s.marginMs);
      }),
      { numRuns: 5000 },
    );
  });

  it('byoyomi: never spends a period, the main time and the current period are the most it uses', () => {
    fc.assert(
      fc.property(
        scenario.filter((s) => s.timeControl.kind === 'byoyomi' && s.clock?.started === true),
        (s) => {
          const t = s.clock?.[s.side];
          if (t === undefined) return;
          const elapsed = s.clock?.running === s.side ? (s.elapsed ?? 0) : 0;
          const left = t.mainMs + (t.periodsLeft > 0 ? t.periodMs : 0) - elapsed;
          if (left - s.marginMs <= MIN_MOVETIME_MS) return;
          expect(budgetOf(s)).toBeLessThan(left - s.marginMs);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('Fischer: never more than the fraction of the main time left after the margin', () => {
    fc.assert(
      fc.property(
        scenario.filter((s) => s.timeControl.kind === 'fischer' && s.clock?.started === true),
        (s) => {
          const t = s.clock?.[s.side];
          if (t === undefined) return;
          const elapsed = s.clock?.running === s.side ? (s.elapsed ?? 0) : 0;
          const share = s.fischerFraction * (t.mainMs - elapsed - s.marginMs);
          if (share < MIN_MOVETIME_MS) return;
          expect(budgetOf(s)).toBeLessThanOrEqual(share);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("sets the level's own limits where the clock sets none", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const left = timeToFlag(s);
        if (left !== null) return;
        expect(limitsOf(s)).toEqual({
          kind: 'fixed',
          depth: LEVELS[s.level as Level].depth,
          movetime: LEVELS[s.level as Level].movetimeMs,
        });
      }),
    );
  });
});
