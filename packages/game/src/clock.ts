/**
 * Clock arithmetic: a pure fold over the server receive times recorded in the events, so
 * a replay of a game gives exactly the clocks of the live game. Times are integer
 * milliseconds since the epoch (`Date.parse(event.data.receivedAt)`), never read from a
 * clock here.
 *
 * A clock at rest holds each side's time as of the start of the current turn; the running
 * side's time is derived from `turnStartedAt` and the instant asked about. Every limit is
 * inclusive: a move received exactly when time runs out is in time.
 *
 * Lag allowance: a move received up to `lagMs` after a limit (the end of a byoyomi period,
 * the last period, the main time of a Fischer or the day limit of a correspondence clock)
 * counts as made at that limit, so network and queueing delays between the player and the
 * server's receive time do not cost a period or the game. Main time is always charged in
 * full. The allowance must be the same live and in replays: use `LAG_ALLOWANCE_MS`, or
 * record the value used in the game's events.
 */
import type { ColorName } from '@shogi/rules';
import type { TimeControl } from './time-control.js';

/**
 * The rules a clock charges moves by: this server's own (this file and game-clock.ts), or
 * the CSA server protocol's (csa-clock.ts: whole seconds, the increment first, no allowance).
 */
export const CLOCK_RULES = ['standard', 'csa'] as const;
export type ClockRules = (typeof CLOCK_RULES)[number];

/** The default lag allowance: one second. */
export const LAG_ALLOWANCE_MS = 1000;

const SECOND_MS = 1000;
const DAY_MS = 24 * 60 * 60 * SECOND_MS;

/**
 * One side's time. Byoyomi: main time left, periods left (counting the current one) and
 * time left in the current period. Fischer: main time only (periods 0). Correspondence:
 * one period of `daysPerMove` a move (main 0). Unlimited: all zero, and never runs out.
 */
export interface SideClock {
  readonly mainMs: number;
  readonly periodsLeft: number;
  readonly periodMs: number;
}

/** The clocks of a game between moves: plain JSON, fit for `MoveAccepted` and snapshots. */
export interface Clock {
  readonly timeControl: TimeControl;
  readonly sente: SideClock;
  readonly gote: SideClock;
  /** The side whose time runs. */
  readonly toMove: ColorName;
  /** When `toMove`'s turn began: the start of the game, then the opponent's move's receive time. */
  readonly turnStartedAt: number;
  /** Absent: 'standard'. The functions of this file are the standard rules'; game-clock.ts picks by this. */
  readonly rules?: ClockRules;
  /** The first-move limit when the game set its own (GameCreated.firstMoveSeconds); absent: the time control's. */
  readonly firstMoveMs?: number;
}

export type ClockResult =
  /** The move was in time: the clock now runs for the other side. */
  | { readonly kind: 'running'; readonly clock: Clock }
  /** The mover's time ran out at `flaggedAt`, before the move arrived; `clock` shows it at zero. */
  | { readonly kind: 'flagged'; readonly color: ColorName; readonly flaggedAt: number; readonly clock: Clock }
  /** A move by the side whose time is not running (a bug of the caller: decide checks turns). */
  | { readonly kind: 'not_on_move'; readonly clock: Clock };

/** A side's time as the snapshot of a running clock at `at`. */
export interface ClockSnapshot {
  readonly sente: SideClock;
  readonly gote: SideClock;
  readonly toMove: ColorName;
  readonly at: number;
}

const OUT_OF_TIME: SideClock = { mainMs: 0, periodsLeft: 0, periodMs: 0 };

/** The length of one period: a byoyomi period, or a correspondence move's days. */
export function periodLength(tc: TimeControl): number {
  switch (tc.kind) {
    case 'byoyomi':
      return tc.byoyomiSeconds * SECOND_MS;
    case 'correspondence':
      return tc.daysPerMove * DAY_MS;
    case 'fischer':
    case 'unlimited':
      return 0;
    default:
      return tc satisfies never;
  }
}

function initialSide(tc: TimeControl): SideClock {
  switch (tc.kind) {
    case 'byoyomi':
      return { mainMs: tc.mainSeconds * SECOND_MS, periodsLeft: tc.periods, periodMs: periodLength(tc) };
    case 'fischer':
      // main 0 starts with one increment (see FischerTimeControl)
      return { mainMs: (tc.mainSeconds || tc.incrementSeconds) * SECOND_MS, periodsLeft: 0, periodMs: 0 };
    case 'correspondence':
      return { mainMs: 0, periodsLeft: 1, periodMs: periodLength(tc) };
    case 'unlimited':
      return OUT_OF_TIME;
    default:
      return tc satisfies never;
  }
}

const other = (color: ColorName): ColorName => (color === 'sente' ? 'gote' : 'sente');

/** The clock of a game that starts at `startedAt` with `toMove` on move (gote in handicap games). */
export const startClock = (timeControl: TimeControl, startedAt: number, toMove: ColorName = 'sente'): Clock => ({
  timeControl,
  sente: initialSide(timeControl),
  gote: initialSide(timeControl),
  toMove,
  turnStartedAt: startedAt,
});

/** The last instant the side on move may move without lag allowance; `null` if time never runs out. */
export function deadline(clock: Clock): number | null {
  if (clock.timeControl.kind === 'unlimited') return null;
  const side = clock[clock.toMove];
  return clock.turnStartedAt + side.mainMs + side.periodsLeft * periodLength(clock.timeControl);
}

/** Whether the side on move has flagged by `now`: a move at `now` would be refused as late. */
export function isFlagged(clock: Clock, now: number, lagMs: number = LAG_ALLOWANCE_MS): boolean {
  const limit = deadline(clock);
  return limit !== null && now - lagMs > limit;
}

/**
 * The first instant at which `isFlagged` holds: when to run the delayed flag job
 * (it must still check that no move arrived meanwhile). `null` if time never runs out.
 */
export function flagDueAt(clock: Clock, lagMs: number = LAG_ALLOWANCE_MS): number | null {
  const limit = deadline(clock);
  return limit === null ? null : limit + lagMs + 1;
}

/**
 * The clock after `color` moved at `receivedAt`, or the flag fall if their time ran out
 * first. A receive time before the turn began (clock skew between gateways) counts as 0 ms.
 */
export function applyMove(
  clock: Clock,
  color: ColorName,
  receivedAt: number,
  lagMs: number = LAG_ALLOWANCE_MS,
): ClockResult {
  if (color !== clock.toMove) return { kind: 'not_on_move', clock };
  const tc = clock.timeControl;
  const next = (side: SideClock): ClockResult => ({
    kind: 'running',
    clock: { ...clock, [color]: side, toMove: other(color), turnStartedAt: receivedAt },
  });
  if (tc.kind === 'unlimited') return next(clock[color]);

  const side = clock[color];
  const period = periodLength(tc);
  const elapsed = Math.max(0, receivedAt - clock.turnStartedAt);
  const over = elapsed - side.mainMs; // time spent beyond the main time
  const late = over - lagMs; // the same, less the allowance, for the limits beyond main time
  if (late > side.periodsLeft * period) {
    const flaggedAt = clock.turnStartedAt + side.mainMs + side.periodsLeft * period;
    return { kind: 'flagged', color, flaggedAt, clock: { ...clock, [color]: OUT_OF_TIME } };
  }
  // A move within a period (its end included) keeps it; each period overrun entirely is lost.
  const periodsLost = late > 0 ? Math.ceil(late / period) - 1 : 0;
  const increment = tc.kind === 'fischer' ? tc.incrementSeconds * SECOND_MS : 0;
  return next({
    mainMs: Math.max(0, side.mainMs - elapsed) + increment,
    periodsLeft: side.periodsLeft - periodsLost,
    periodMs: period,
  });
}

/**
 * Both sides' time at `now`, for snapshots and display: the side on move is charged the
 * time since its turn began (no lag allowance; a side past its deadline shows zero).
 */
export function remaining(clock: Clock, now: number): ClockSnapshot {
  const snapshot = (running: SideClock): ClockSnapshot => ({
    sente: clock.toMove === 'sente' ? running : clock.sente,
    gote: clock.toMove === 'gote' ? running : clock.gote,
    toMove: clock.toMove,
    at: now,
  });
  const side = clock[clock.toMove];
  if (clock.timeControl.kind === 'unlimited') return snapshot(side);
  const period = periodLength(clock.timeControl);
  const elapsed = Math.max(0, now - clock.turnStartedAt);
  if (elapsed <= side.mainMs) return snapshot({ ...side, mainMs: side.mainMs - elapsed });
  const over = elapsed - side.mainMs;
  if (over > side.periodsLeft * period) return snapshot(OUT_OF_TIME);
  // inclusive ends, as in applyMove: at over = k·period the k-th period is still running, at 0 ms
  const lost = Math.ceil(over / period) - 1;
  return snapshot({ mainMs: 0, periodsLeft: side.periodsLeft - lost, periodMs: period - (over - lost * period) });
}

/** A move's clock input: who moved, and the server's receive time. */
export interface TimedMove {
  readonly color: ColorName;
  readonly receivedAt: number;
}

/** `applyMove` over a game's moves in order, stopping at the first that is not in time. */
export function foldClock(clock: Clock, moves: Iterable<TimedMove>, lagMs: number = LAG_ALLOWANCE_MS): ClockResult {
  let result: ClockResult = { kind: 'running', clock };
  for (const { color, receivedAt } of moves) {
    result = applyMove(result.clock, color, receivedAt, lagMs);
    if (result.kind !== 'running') return result;
  }
  return result;
}
