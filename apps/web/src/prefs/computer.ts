/**
 * The lobby's "Play the computer" choice: the level and the clock played last, kept in
 * localStorage so the next game against the computer is one click, as on lishogi. What is
 * kept is the level's number and the clock as players write it, not a bot's id: the choice
 * still fits when the server lists its bots in another order or under other ids.
 */
import type { TimeControl } from '@shogi/protocol';
import { clockNotation } from '../shogi/clock.js';

const KEY = 'shogi.computer';

export interface ComputerChoice {
  /** the engine level played last; null: none yet */
  readonly level: number | null;
  /** the clock played last, as `clockNotation` writes it; null: none yet */
  readonly clock: string | null;
}

const NONE: ComputerChoice = { level: null, clock: null };

/** The choice kept in `raw` (localStorage's text); anything unreadable is no choice. */
export function parseComputerChoice(raw: string | null): ComputerChoice {
  if (raw === null) return NONE;
  try {
    const v = JSON.parse(raw) as { level?: unknown; clock?: unknown };
    return {
      level: typeof v.level === 'number' && Number.isInteger(v.level) ? v.level : null,
      clock: typeof v.clock === 'string' ? v.clock : null,
    };
  } catch {
    return NONE;
  }
}

/**
 * The level to offer first: the one played last if the server still runs it, else the
 * weakest (a newcomer's first game should be winnable).
 */
export function levelToOffer<L extends { readonly level: number }>(
  levels: readonly L[],
  choice: ComputerChoice,
): L | null {
  return levels.find((l) => l.level === choice.level) ?? levels[0] ?? null;
}

/** The index of the clock to offer first: the one played last, else the first. */
export function clockToOffer(clocks: readonly TimeControl[], choice: ComputerChoice): number {
  const i = clocks.findIndex((tc) => clockNotation(tc) === choice.clock);
  return Math.max(0, i);
}

export function savedComputerChoice(): ComputerChoice {
  try {
    return parseComputerChoice(localStorage.getItem(KEY));
  } catch {
    return NONE;
  }
}

export function saveComputerChoice(level: number | null, clock: TimeControl): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ level, clock: clockNotation(clock) }));
  } catch {
    // a browser that keeps nothing plays on; the choice is offered afresh next time
  }
}
