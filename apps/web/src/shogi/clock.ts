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
  /** when the side to move's time began running (ms since epoch); null: not running */
  readonly runningSince: number | null;
}
export interface ClockFace {
  readonly text: string;
  readonly periods: number;
  readonly byoyomi: boolean;
  readonly low: boolean;
}

export function initialClock(tc: TimeControl): ClockState | null {
  switch (tc.kind) {
    case 'byoyomi': {
      const side = { mainMs: tc.mainSeconds * 1000, periodsLeft: tc.periods, periodMs: tc.byoyomiSeconds * 1000 };
      return { sente: side, gote: side, runningSince: null };
    }
    case 'fischer': {
      const side = { mainMs: tc.mainSeconds * 1000, periodsLeft: 0, periodMs: 0 };
      return { sente: side, gote: side, runningSince: null };
    }
    case 'correspondence':
    case 'unlimited':
      return null;
  }
}

/** What a side's clock shows `elapsed` ms into its turn. */
export function clockFace(c: SideClock, elapsed: number): ClockFace {
  let main = c.mainMs - elapsed;
  if (main > 0) return { text: formatMs(main), periods: c.periodsLeft, byoyomi: false, low: main < 10_000 };
  if (c.periodMs <= 0 || c.periodsLeft <= 0) return { text: '0:00', periods: 0, byoyomi: false, low: true };
  main = -main;
  const used = Math.floor(main / c.periodMs);
  const periods = Math.max(0, c.periodsLeft - used);
  const left = periods === 0 ? 0 : c.periodMs - (main % c.periodMs);
  return { text: formatMs(left), periods, byoyomi: true, low: true };
}

export function formatMs(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export function timeControlText(tc: TimeControl): string {
  switch (tc.kind) {
    case 'byoyomi':
      return `${tc.mainSeconds / 60} min + ${tc.byoyomiSeconds} s byoyomi × ${tc.periods}`;
    case 'fischer':
      return `${tc.mainSeconds / 60} min + ${tc.incrementSeconds} s`;
    case 'correspondence':
      return `${tc.daysPerMove} day${tc.daysPerMove > 1 ? 's' : ''} per move`;
    case 'unlimited':
      return 'no clock';
  }
}
