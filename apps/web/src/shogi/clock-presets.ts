/**
 * The lobby's clocks: the quick seeks and the clocks offered against a bot are the same few,
 * so a bot game is played on a clock people seek too.
 */
import type { TimeControl } from '@shogi/protocol';
import { clockNotation } from './clock.js';

export const CLOCK_PRESETS: readonly TimeControl[] = [
  { kind: 'byoyomi', mainSeconds: 180, byoyomiSeconds: 10, periods: 1 },
  { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 },
  { kind: 'unlimited' },
];

/** A preset's label on a button or in a list: "3|10", "No clock". */
export const presetLabel = (tc: TimeControl): string => (tc.kind === 'unlimited' ? 'No clock' : clockNotation(tc));
