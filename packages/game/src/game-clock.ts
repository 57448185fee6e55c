/**
 * A game's clocks over its events, after lichess: each side's first move is free, and the
 * clocks start for the side to move once both sides have made their first move (from the
 * receive time of the second move). Before that a first-move timer runs for the side to
 * move; a side that does not make its first move in time gets the game aborted (never
 * rated). Every instant is a server receive time recorded in the events, so a replay gives
 * the clocks and the flag decisions of the live game. The arithmetic is clock.ts'.
 *
 * The first-move limits and LAG_ALLOWANCE_MS are constants of the code, not recorded per
 * game: changing one would change the verdicts a replay gives for games already played,
 * so a change must come with the old value recorded for older games (an upcast).
 *
 * A game created with `clockRules: 'csa'` follows the CSA protocol's rules instead
 * (csa-clock.ts): its clocks run from the start, every move is charged, and nothing is
 * allowed for lag. The choice is recorded in GameCreated and carried by the clock.
 */
import type { ColorName } from '@shogi/rules';
import {
  applyMove,
  type Clock,
  type ClockRules,
  deadline,
  LAG_ALLOWANCE_MS,
  remaining,
  type SideClock,
  startClock,
} from './clock.js';
import { applyCsaMove, csaDeadline, csaInitialSide, csaTurnBegins } from './csa-clock.js';
import type { EndReason, RecordedClock } from './events.js';
import type { TimeControl } from './time-control.js';

/** The first-move timer of real-time games (byoyomi, Fischer): 30 s, as lichess's. */
export const FIRST_MOVE_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Plies after which clocks run: each side's first move is not charged. */
export const CLOCK_START_PLY = 2;

/** How long a side has for its first move: correspondence its days per move; null: no limit (unlimited). */
export function firstMoveLimitMs(tc: TimeControl): number | null {
  switch (tc.kind) {
    case 'unlimited':
      return null;
    case 'correspondence':
      return tc.daysPerMove * DAY_MS;
    case 'byoyomi':
    case 'fischer':
      return FIRST_MOVE_MS;
    default:
      return tc satisfies never;
  }
}

export const clockStarted = (ply: number): boolean => ply >= CLOCK_START_PLY;

const isCsa = (clock: Clock): boolean => clock.rules === 'csa';

/** Whether the clock charges the move after `ply` accepted moves: from both first moves on, or always under CSA rules. */
export const clockRuns = (clock: Clock, ply: number): boolean => isCsa(clock) || clockStarted(ply);

/** The lag allowance of the clock's rules: none under CSA's. */
export const lagOf = (clock: Clock): number => (isCsa(clock) ? 0 : LAG_ALLOWANCE_MS);

/**
 * The clock of a new game (null: unlimited, no clock at all); the first-move timer runs from
 * `createdAt`, or under CSA rules the clock of the side to move, its increment credited.
 */
export function newGameClock(
  tc: TimeControl,
  createdAt: number,
  toMove: ColorName,
  rules: ClockRules = 'standard',
  firstMoveMs?: number,
): Clock | null {
  if (tc.kind === 'unlimited') return null;
  if (rules === 'standard') {
    const clock = startClock(tc, createdAt, toMove);
    return firstMoveMs === undefined ? clock : { ...clock, firstMoveMs };
  }
  const side = csaInitialSide(tc);
  const first = csaTurnBegins(side, tc);
  return {
    timeControl: tc,
    sente: toMove === 'sente' ? first : side,
    gote: toMove === 'gote' ? first : side,
    toMove,
    turnStartedAt: createdAt,
    rules,
  };
}

/**
 * The last instant the side on move (`clock.toMove`, at `ply` accepted moves) may move, lag
 * allowance not included: its first-move limit before clocks start, else its time.
 */
export function turnDeadline(clock: Clock, ply: number): number | null {
  if (isCsa(clock)) return csaDeadline(clock);
  if (clockStarted(ply)) return deadline(clock);
  const limit = clock.firstMoveMs ?? firstMoveLimitMs(clock.timeControl);
  return limit === null ? null : clock.turnStartedAt + limit;
}

/** When a flag check should run for this turn: the first instant `flagAt` holds. */
export function turnFlagDueAt(clock: Clock, ply: number, lagMs: number = lagOf(clock)): number | null {
  const limit = turnDeadline(clock, ply);
  return limit === null ? null : limit + lagMs + 1;
}

/** Time ran out for `color` at `at`: the game ends on time, or is aborted when it was its first move. */
export interface Flag {
  readonly kind: 'timeout' | 'abort';
  readonly color: ColorName;
  readonly at: number;
}

/** The flag of the side on move at `now` (past its deadline by more than the lag allowance), or null. */
export function flagAt(clock: Clock, ply: number, now: number, lagMs: number = lagOf(clock)): Flag | null {
  const limit = turnDeadline(clock, ply);
  if (limit === null || now - lagMs <= limit) return null;
  return { kind: clockRuns(clock, ply) ? 'timeout' : 'abort', color: clock.toMove, at: limit };
}

export type MoveTiming =
  | { readonly kind: 'in_time'; readonly clock: Clock }
  | { readonly kind: 'late'; readonly flag: Flag['kind']; readonly color: ColorName; readonly at: number };

/**
 * The clock after the side on move made the move number `ply + 1`, received at `receivedAt`:
 * first moves are free (only the first-move limit applies), later ones are charged.
 */
export function clockAfterMove(
  clock: Clock,
  ply: number,
  receivedAt: number,
  lagMs: number = lagOf(clock),
): MoveTiming {
  const color = clock.toMove;
  if (!clockRuns(clock, ply)) {
    const late = flagAt(clock, ply, receivedAt, lagMs);
    if (late !== null) return { kind: 'late', flag: late.kind, color: late.color, at: late.at };
    return { kind: 'in_time', clock: { ...clock, toMove: other(color), turnStartedAt: receivedAt } };
  }
  const r = isCsa(clock) ? applyCsaMove(clock, color, receivedAt) : applyMove(clock, color, receivedAt, lagMs);
  switch (r.kind) {
    case 'running':
      return { kind: 'in_time', clock: r.clock };
    case 'flagged':
      return { kind: 'late', flag: 'timeout', color, at: r.flaggedAt };
    case 'not_on_move':
      throw new Error('clock: the side on move is not the clock running');
    default:
      return r satisfies never;
  }
}

const other = (c: ColorName): ColorName => (c === 'sente' ? 'gote' : 'sente');
const iso = (ms: number): string => new Date(ms).toISOString();

/** The clock recorded in MoveAccepted for a move that left `clock` with `ply` accepted moves. */
export function recordClock(clock: Clock, ply: number): RecordedClock {
  const limit = turnDeadline(clock, ply);
  return {
    sente: clock.sente,
    gote: clock.gote,
    movedAt: iso(clock.turnStartedAt),
    deadlineAt: iso(limit ?? clock.turnStartedAt),
  };
}

/** The clock a recorded one stands for, with `toMove` on move, under `rules`. */
export const clockOfRecord = (
  tc: TimeControl,
  r: RecordedClock,
  toMove: ColorName,
  rules: ClockRules = 'standard',
): Clock => ({
  timeControl: tc,
  sente: r.sente,
  gote: r.gote,
  toMove,
  turnStartedAt: Date.parse(r.movedAt),
  ...(rules === 'standard' ? {} : { rules }),
});

/** How a game ended, for the clocks: they stop at `at`; the loser on time shows zero. */
export interface ClockStop {
  readonly at: string;
  readonly reason: EndReason;
  readonly winner: ColorName | null;
}

/** What a client is shown of the clocks at one instant. */
export interface ClockView {
  readonly sente: SideClock;
  readonly gote: SideClock;
  /** The side whose time runs: null before both first moves (the first-move timer runs) and after the end. */
  readonly running: ColorName | null;
  /** Clocks run (both sides made their first move). */
  readonly started: boolean;
  /** When the side on move runs out (its first-move limit before clocks start), lag allowance not included; null once over. */
  readonly deadlineAt: string | null;
  /** The instant the values hold at. */
  readonly at: string;
}

const ZERO: SideClock = { mainMs: 0, periodsLeft: 0, periodMs: 0 };

/** The clocks at `now` of a game with `ply` accepted moves (stopped at its end, if it ended). */
export function clockView(clock: Clock, ply: number, stop: ClockStop | null, now: number): ClockView {
  const started = clockRuns(clock, ply);
  if (stop !== null) {
    let { sente, gote } = clock;
    if (started) ({ sente, gote } = remaining(clock, Math.max(clock.turnStartedAt, Date.parse(stop.at))));
    if (stop.reason === 'timeout' && stop.winner !== null) {
      if (stop.winner === 'sente') gote = ZERO;
      else sente = ZERO;
    }
    return { sente, gote, running: null, started, deadlineAt: null, at: iso(now) };
  }
  const limit = turnDeadline(clock, ply);
  const deadlineAt = limit === null ? null : iso(limit);
  if (!started) return { sente: clock.sente, gote: clock.gote, running: null, started, deadlineAt, at: iso(now) };
  const r = remaining(clock, now);
  return { sente: r.sente, gote: r.gote, running: clock.toMove, started, deadlineAt, at: iso(now) };
}

/**
 * One side's time after `elapsed` more ms from `side` (which may be part-way through a period):
 * main time first, then what is left of the current period, then whole periods; every end
 * inclusive, as in clock.ts. `remaining` composes with it: advancing the clocks at t1 to t2
 * gives the clocks at t2.
 */
function advanceSide(side: SideClock, elapsed: number, period: number): SideClock {
  if (elapsed <= side.mainMs) return { ...side, mainMs: side.mainMs - elapsed };
  const rest = elapsed - side.mainMs;
  if (side.periodsLeft === 0) return ZERO;
  if (rest <= side.periodMs) return { mainMs: 0, periodsLeft: side.periodsLeft, periodMs: side.periodMs - rest };
  const beyond = rest - side.periodMs; // into the periods after the current one
  const whole = side.periodsLeft - 1;
  if (period === 0 || beyond > whole * period) return ZERO;
  const lost = Math.ceil(beyond / period) - 1;
  return { mainMs: 0, periodsLeft: whole - lost, periodMs: period - (beyond - lost * period) };
}

const periodOf = (tc: TimeControl): number =>
  tc.kind === 'byoyomi' ? tc.byoyomiSeconds * 1000 : tc.kind === 'correspondence' ? tc.daysPerMove * DAY_MS : 0;

/** The view at `now` of clocks viewed at `view.at` (the running side charged the time between). */
export function advanceClockView(view: ClockView, tc: TimeControl, now: number): ClockView {
  const running = view.running;
  if (running === null) return { ...view, at: iso(now) };
  const elapsed = Math.max(0, now - Date.parse(view.at));
  return { ...view, [running]: advanceSide(view[running], elapsed, periodOf(tc)), at: iso(now) };
}

/**
 * The view, at the move's receive time, of the clocks a MoveAccepted recorded (`ply` counts
 * that move); `started`: the clocks run (the previous view's, or both first moves made).
 */
export const clockViewOfRecord = (
  r: RecordedClock,
  ply: number,
  toMove: ColorName,
  started: boolean = clockStarted(ply),
): ClockView => ({
  sente: r.sente,
  gote: r.gote,
  running: started ? toMove : null,
  started,
  deadlineAt: r.deadlineAt,
  at: r.movedAt,
});

/** The view stopped at the end of the game (`stop.at`): nothing runs, and the loser on time shows zero. */
export function stopClockView(view: ClockView, tc: TimeControl, stop: ClockStop): ClockView {
  let { sente, gote } = advanceClockView(view, tc, Math.max(Date.parse(view.at), Date.parse(stop.at)));
  if (stop.reason === 'timeout' && stop.winner !== null) {
    if (stop.winner === 'sente') gote = ZERO;
    else sente = ZERO;
  }
  return { sente, gote, running: null, started: view.started, deadlineAt: null, at: stop.at };
}
