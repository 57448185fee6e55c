/**
 * Clocks as shown: the side to move's time runs from the last move's server time. Main
 * time first, then byoyomi periods one after another. Pure: `now` is an argument.
 */
import type { TimeControl } from '@shogi/protocol';

export interface SideClock {
  readonly mainMs: number;
  readonly periodsLeft: number;
  readonly periodMs: number;
}
export interface ClockState {
  readonly sente: SideClock;
  readonly gote: SideClock;
  /** the side whose time runs (null before both first moves and after the end) */
  readonly running: 'sente' | 'gote' | null;
  /** the instant the values above hold at (ms since epoch) */
  readonly since: number;
  /** a whole byoyomi period (ms); 0 without byoyomi */
  readonly periodLength: number;
}
export interface ClockFace {
  readonly text: string;
  readonly periods: number;
  readonly byoyomi: boolean;
  readonly low: boolean;
  /** the time the face shows, in ms (main time, or what is left of the period) */
  readonly ms: number;
}

export const periodLength = (tc: TimeControl): number => (tc.kind === 'byoyomi' ? tc.byoyomiSeconds * 1000 : 0);

/** The clocks before any move: both sides' full time, nothing running. */
export function initialClock(tc: TimeControl, now: number): ClockState | null {
  switch (tc.kind) {
    case 'byoyomi': {
      const side = { mainMs: tc.mainSeconds * 1000, periodsLeft: tc.periods, periodMs: tc.byoyomiSeconds * 1000 };
      return { sente: side, gote: side, running: null, since: now, periodLength: periodLength(tc) };
    }
    case 'fischer': {
      const side = { mainMs: tc.mainSeconds * 1000, periodsLeft: 0, periodMs: 0 };
      return { sente: side, gote: side, running: null, since: now, periodLength: 0 };
    }
    case 'correspondence':
    case 'unlimited':
      return null;
  }
}

/**
 * What a side's clock shows `elapsed` ms after its values were read: main time first, then
 * what is left of the current period (`periodMs`), then whole periods of `full` ms.
 */
export function clockFace(c: SideClock, elapsed: number, full: number): ClockFace {
  const main = c.mainMs - elapsed;
  if (main > 0) return { text: formatMs(main), periods: c.periodsLeft, byoyomi: false, low: main < 10_000, ms: main };
  const over = -main;
  if (c.periodsLeft <= 0 || (over >= c.periodMs && full <= 0))
    return { text: formatMs(0), periods: 0, byoyomi: false, low: true, ms: 0 };
  if (over < c.periodMs)
    return {
      text: formatMs(c.periodMs - over),
      periods: c.periodsLeft,
      byoyomi: true,
      low: true,
      ms: c.periodMs - over,
    };
  const beyond = over - c.periodMs;
  const periods = c.periodsLeft - 1 - Math.floor(beyond / full);
  if (periods <= 0) return { text: formatMs(0), periods: 0, byoyomi: true, low: true, ms: 0 };
  return { text: formatMs(full - (beyond % full)), periods, byoyomi: true, low: true, ms: full - (beyond % full) };
}

export function formatMs(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/**
 * A clock as shown beside a game or an offer: as players write it, with its kind, so a
 * byoyomi clock never reads as an increment: "3|10 byoyomi", "5+3 Fischer".
 */
export function timeControlText(tc: TimeControl): string {
  switch (tc.kind) {
    case 'byoyomi':
      return `${clockNotation(tc)} byoyomi`;
    case 'fischer':
      return `${clockNotation(tc)} Fischer`;
    case 'correspondence':
    case 'unlimited':
      return clockNotation(tc);
  }
}

/** A clock in words, for a title or a screen reader: "3 min, then 10 s byoyomi × 1". */
export function clockSpelledOut(tc: TimeControl): string {
  switch (tc.kind) {
    case 'byoyomi':
      return `${tc.mainSeconds / 60} min, then ${tc.byoyomiSeconds} s byoyomi × ${tc.periods}`;
    case 'fischer':
      return `${tc.mainSeconds / 60} min, plus ${tc.incrementSeconds} s a move (Fischer)`;
    case 'correspondence':
    case 'unlimited':
      return clockNotation(tc);
  }
}

const QUARTERS: Readonly<Record<number, string>> = { 15: '¼', 30: '½', 45: '¾' };

/** Minutes as players write them: whole, a quarter, a half, three quarters, else decimals. */
function minutesText(seconds: number): string {
  const whole = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (rest === 0) return String(whole);
  const quarter = QUARTERS[rest];
  if (quarter !== undefined) return whole === 0 ? quarter : `${whole}${quarter}`;
  return String(Math.round((seconds / 60) * 100) / 100);
}

/**
 * A clock as players write it, as lishogi shows it: "3|10" for 3 minutes then 10 s byoyomi
 * ("3|20×2" with two periods), "5+3" for 5 minutes and 3 s a move (Fischer).
 */
export function clockNotation(tc: TimeControl): string {
  switch (tc.kind) {
    case 'byoyomi':
      return `${minutesText(tc.mainSeconds)}|${tc.byoyomiSeconds}${tc.periods > 1 ? `×${tc.periods}` : ''}`;
    case 'fischer':
      return `${minutesText(tc.mainSeconds)}+${tc.incrementSeconds}`;
    case 'correspondence':
      return `${tc.daysPerMove} day${tc.daysPerMove > 1 ? 's' : ''} per move`;
    case 'unlimited':
      return 'no clock';
  }
}

/**
 * The clocks once the game ended at `at`: nothing runs any more, the side whose time ran keeps
 * what it had left then, and a loser on time shows nothing left. (The values of the last move
 * still hold a whole byoyomi period, which would read as time to spare.)
 */
export function stoppedClock(c: ClockState, at: number, loserOnTime: 'sente' | 'gote' | null): ClockState {
  let { sente, gote } = c;
  if (c.running === 'sente') sente = spent(sente, at - c.since, c.periodLength);
  if (c.running === 'gote') gote = spent(gote, at - c.since, c.periodLength);
  if (loserOnTime === 'sente') sente = OUT_OF_TIME;
  if (loserOnTime === 'gote') gote = OUT_OF_TIME;
  return { sente, gote, running: null, since: at, periodLength: c.periodLength };
}

const OUT_OF_TIME: SideClock = { mainMs: 0, periodsLeft: 0, periodMs: 0 };

/** A side's clock `elapsed` ms on, as its face reads then. */
function spent(c: SideClock, elapsed: number, full: number): SideClock {
  if (elapsed <= 0) return c;
  const face = clockFace(c, elapsed, full);
  if (face.ms <= 0) return OUT_OF_TIME;
  return face.byoyomi
    ? { mainMs: 0, periodsLeft: face.periods, periodMs: face.ms }
    : { mainMs: face.ms, periodsLeft: c.periodsLeft, periodMs: c.periodMs };
}
