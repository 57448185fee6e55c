/**
 * How long a bot thinks over a move: the level's own limits (depth, and its time cap) unless
 * the game clock leaves less, as a player who moves faster when short of time. The result
 * is a fixed budget (`go depth D movetime T`), not the clock itself: packages/usi's limits
 * carry either a clock or a depth and movetime, never both, the depth limit is part of what
 * makes a level weak, and the Stockfish 11 search under Debian's Fairy-Stockfish ignores the
 * clock whenever a depth or movetime is given anyway. The clock is read here instead, so
 * that the move always reaches the server before the bot's time (or byoyomi period) is up.
 */
import type { ClockView, TimeControl } from '@shogi/protocol';
import type { ColorName } from '@shogi/rules';
import type { SearchLimits } from '@shogi/usi';
import { LEVELS, type Level } from './levels.js';

type SideTime = ClockView['sente'];

export interface TimeUseOptions {
  /**
   * Kept in hand after the search for the way back: the engine's answer after its movetime,
   * the worker submitting the move, queues and the network. Like the engine's Move Overhead,
   * but applied here, where the whole trip is known.
   */
  readonly marginMs?: number;
  /** Fischer: the most of the remaining main time one move may take, above 0 and below 1. */
  readonly fischerFraction?: number;
  /** When the search starts, in ms since the epoch; the side to move is charged from the view's `at` to it. */
  readonly now?: number;
}

export const DEFAULT_TIME_USE = { marginMs: 500, fischerFraction: 0.1 } as const;

/** The shortest search asked for; below it the bot moves at once and hopes. */
export const MIN_MOVETIME_MS = 1;

/** Too little time left for any budget inside it: depth 1 answers the soonest. */
const AT_ONCE: SearchLimits = { kind: 'fixed', depth: 1, movetime: MIN_MOVETIME_MS };

function instant(iso: string, field: string): number {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new RangeError(`clock.${field} is not an ISO 8601 instant: ${JSON.stringify(iso)}`);
  return ms;
}

/**
 * Time until the current byoyomi period ends, `elapsed` ms after the view: the main time
 * first, then the period; a period used up meanwhile is lost and the next one runs.
 */
function byoyomiLeft(time: SideTime, periodLength: number, elapsed: number): number {
  const period = time.periodsLeft > 0 ? time.periodMs : 0;
  if (elapsed <= time.mainMs) return time.mainMs - elapsed + period;
  const over = elapsed - time.mainMs;
  if (over < period) return period - over;
  const intoNext = over - period;
  const lost = periodLength > 0 ? Math.floor(intoNext / periodLength) : Number.POSITIVE_INFINITY;
  if (time.periodsLeft - 1 - lost <= 0) return 0;
  return periodLength - (intoNext - lost * periodLength);
}

/**
 * The most a search may take, in whole ms, strictly inside what the clock leaves less the
 * margin; null when the clock sets no limit. May be below MIN_MOVETIME_MS.
 */
function clockAllowanceMs(
  clock: ClockView | null,
  side: ColorName,
  timeControl: TimeControl,
  marginMs: number,
  fischerFraction: number,
  now: number | undefined,
): number | null {
  if (clock === null || timeControl.kind === 'unlimited') return null;
  const at = instant(clock.at, 'at');
  if (!clock.started) {
    // the first move: the clocks do not run, only the first-move timer
    if (clock.deadlineAt === null) return null;
    return Math.floor(instant(clock.deadlineAt, 'deadlineAt') - Math.max(at, now ?? at) - marginMs) - 1;
  }
  const elapsed = clock.running === side && now !== undefined ? Math.max(0, now - at) : 0;
  const time = clock[side];
  switch (timeControl.kind) {
    case 'byoyomi':
      return Math.floor(byoyomiLeft(time, timeControl.byoyomiSeconds * 1000, elapsed) - marginMs) - 1;
    case 'fischer': {
      const spare = time.mainMs - elapsed - marginMs;
      return spare > 0 ? Math.floor(spare * fischerFraction) : Math.floor(spare);
    }
    case 'correspondence':
      return Math.floor(time.mainMs + time.periodMs - elapsed - marginMs) - 1;
    default:
      return timeControl satisfies never;
  }
}

/**
 * The search for a bot's move at `level`, `side` to move, under `timeControl` with the clock
 * as `clock` shows it (null for unlimited games): at most the level's depth and time cap,
 * and strictly less than the clock leaves after the margin — in byoyomi, before the current
 * period ends (a bot does not spend periods); in Fischer, at most a fraction of the main
 * time. Correspondence and unlimited games get the level's own budget. With less than
 * MIN_MOVETIME_MS to spare the bot moves at once (depth 1).
 */
export function searchLimitsFor(
  level: Level,
  clock: ClockView | null,
  side: ColorName,
  timeControl: TimeControl,
  options: TimeUseOptions = {},
): SearchLimits {
  const marginMs = options.marginMs ?? DEFAULT_TIME_USE.marginMs;
  const fraction = options.fischerFraction ?? DEFAULT_TIME_USE.fischerFraction;
  if (!(marginMs >= 0 && Number.isFinite(marginMs)))
    throw new RangeError('marginMs is a finite number of ms, at least 0');
  if (!(fraction > 0 && fraction < 1)) throw new RangeError('fischerFraction is above 0 and below 1');
  const spec = LEVELS[level];
  const allowance = clockAllowanceMs(clock, side, timeControl, marginMs, fraction, options.now);
  const movetime = allowance === null ? spec.movetimeMs : Math.min(spec.movetimeMs, allowance);
  if (movetime < MIN_MOVETIME_MS) return AT_ONCE;
  return { kind: 'fixed', depth: spec.depth, movetime };
}

/**
 * How long the side to move may still take before its clock (or byoyomi period) runs out,
 * `now` being the moment asked about; null when the clock sets no limit. What a bot waits at
 * most for an engine's answer before it plays a move of its own.
 */
export function timeLeftMs(
  clock: ClockView | null,
  side: ColorName,
  timeControl: TimeControl,
  now: number,
): number | null {
  return clockAllowanceMs(clock, side, timeControl, 0, 1, now);
}
