/**
 * The time rules of the CSA server protocol (version 1.2.1, `Least_Time_Per_Move:0`, as
 * Floodgate plays them), for games created with `clockRules: 'csa'`:
 * - a move costs its thinking time in whole seconds, rounded down;
 * - the Fischer increment is added before that time is taken off;
 * - a side runs out when `remaining − used + byoyomi + increment ≤ 0`: with 10 s left, a
 *   move after 9.999 s is in time and one after 10.000 s is not;
 * - no lag allowance, and the clock runs from the start (no free first move).
 *
 * The clock keeps the SideClock shape of this server's own (clock.ts), so that every view of
 * it is the same code: the increment is credited to a side when its turn begins rather than
 * when it moves, which gives the same remaining time and the same flag instant, and shows the
 * side on move the time it really has. Only the server receive times recorded in the events
 * go in, so a replay gives the clocks and the flags of the live game.
 */
import type { ColorName } from '@shogi/rules';
import type { Clock, ClockResult, SideClock } from './clock.js';
import type { TimeControl } from './time-control.js';

const SECOND_MS = 1000;

const other = (color: ColorName): ColorName => (color === 'sente' ? 'gote' : 'sente');

/** The seconds a move received at `receivedAt` costs, for a turn that began at `turnStartedAt`: the `T` of `+7776FU,T3`. */
export const csaSecondsUsed = (turnStartedAt: number, receivedAt: number): number =>
  Math.max(0, Math.floor((receivedAt - turnStartedAt) / SECOND_MS));

const incrementMs = (tc: TimeControl): number => (tc.kind === 'fischer' ? tc.incrementSeconds * SECOND_MS : 0);

/** The side's time at the start of the game, before any increment: main time, and the byoyomi as one period. */
export function csaInitialSide(tc: TimeControl): SideClock {
  switch (tc.kind) {
    case 'byoyomi':
      return { mainMs: tc.mainSeconds * SECOND_MS, periodsLeft: tc.periods, periodMs: tc.byoyomiSeconds * SECOND_MS };
    case 'fischer':
      return { mainMs: tc.mainSeconds * SECOND_MS, periodsLeft: 0, periodMs: 0 };
    case 'correspondence':
    case 'unlimited':
      throw new Error(`CSA clocks are byoyomi or Fischer, not ${tc.kind}`);
    default:
      return tc satisfies never;
  }
}

/** `side` with the increment credited, as its turn begins. */
export const csaTurnBegins = (side: SideClock, tc: TimeControl): SideClock => {
  const inc = incrementMs(tc);
  return inc === 0 ? side : { ...side, mainMs: side.mainMs + inc };
};

/** What the side on move has for this turn, ms: a move `used` whole seconds in is late once `used` × 1000 reaches it. */
const limitMs = (side: SideClock): number => side.mainMs + side.periodsLeft * side.periodMs;

/** The last instant (ms) at which the side on move is in time. */
export const csaDeadline = (clock: Clock): number => clock.turnStartedAt + limitMs(clock[clock.toMove]) - 1;

/** The clock after `color` moved at `receivedAt`, or the flag if its time ran out first (at the deadline). */
export function applyCsaMove(clock: Clock, color: ColorName, receivedAt: number): ClockResult {
  if (color !== clock.toMove) return { kind: 'not_on_move', clock };
  const side = clock[color];
  const usedMs = csaSecondsUsed(clock.turnStartedAt, receivedAt) * SECOND_MS;
  if (usedMs >= limitMs(side)) {
    const out: SideClock = { mainMs: 0, periodsLeft: 0, periodMs: 0 };
    return { kind: 'flagged', color, flaggedAt: csaDeadline(clock), clock: { ...clock, [color]: out } };
  }
  const moved: SideClock = { ...side, mainMs: Math.max(0, side.mainMs - usedMs) };
  const next = other(color);
  return {
    kind: 'running',
    clock: {
      ...clock,
      [color]: moved,
      [next]: csaTurnBegins(clock[next], clock.timeControl),
      toMove: next,
      turnStartedAt: receivedAt,
    },
  };
}
