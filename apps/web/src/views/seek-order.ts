/**
 * The order of the lobby's open seeks: by rating, by clock (the estimated length of a game
 * on it, as the rating categories measure it) or by player, either way; the newest first
 * among equals. Pure: no DOM.
 */
import type { SeekView, TimeControl } from '@shogi/protocol';
import { estimatedSeconds } from '@shogi/ratings';

export type SeekKey = 'rating' | 'clock' | 'player';
export interface SeekOrder {
  readonly key: SeekKey;
  readonly descending: boolean;
}

/** Seconds a game on this clock is expected to take a player; correspondence and none come last. */
export const clockLength = (tc: TimeControl): number =>
  tc.kind === 'correspondence' ? 1e9 + tc.daysPerMove : tc.kind === 'unlimited' ? 2e9 : (estimatedSeconds(tc) ?? 0);

export function sortSeeks(seeks: readonly SeekView[], order: SeekOrder): SeekView[] {
  const sign = order.descending ? -1 : 1;
  const value = (s: SeekView): number | string =>
    order.key === 'rating'
      ? s.rating
      : order.key === 'clock'
        ? clockLength(s.timeControl)
        : s.player.name.toLowerCase();
  return [...seeks].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x !== y) return (x < y ? -1 : 1) * sign;
    return b.createdAt.localeCompare(a.createdAt);
  });
}

/** Clicking a column: the same one turns the order round, another sorts by it (ratings highest first). */
export const nextOrder = (order: SeekOrder, key: SeekKey): SeekOrder =>
  order.key === key ? { key, descending: !order.descending } : { key, descending: key === 'rating' };
