/**
 * Which live game the lobby's TV shows: the highest-rated ongoing one, as lishogi's "Top
 * rated" channel, by the sum of the players' ratings (a player without one counts as a new
 * player, 1500); more spectators, then more moves, break a tie. Pure: no DOM.
 */
import type { LiveGame } from '@shogi/protocol';

const NEW_PLAYER = 1500;

export const gameRating = (g: LiveGame): number =>
  (g.ratings?.sente?.rating ?? NEW_PLAYER) + (g.ratings?.gote?.rating ?? NEW_PLAYER);

export function topRated(games: Iterable<LiveGame>): LiveGame | null {
  let best: LiveGame | null = null;
  for (const g of games) {
    if (g.status !== 'ongoing') continue;
    if (
      best === null ||
      gameRating(g) > gameRating(best) ||
      (gameRating(g) === gameRating(best) &&
        (g.spectators > best.spectators || (g.spectators === best.spectators && g.ply > best.ply)))
    )
      best = g;
  }
  return best;
}
