/**
 * The player cards lishogi's shapes need (username, bot title, rating in the game's or the
 * challenge's category), read on the read pool, and the shapes filled with them.
 */
import type { ChallengeView, GameView, TimeControl } from '@shogi/protocol';
import { categoryOf } from '@shogi/ratings';
import { type Db, type PlayerCard, playerCards } from '@shogi/store';
import { type LishogiOngoingGame, lishogiOngoingGame, sideIn } from './account-shapes.js';
import { type LishogiChallenge, lishogiChallenge } from './shapes.js';

export async function cardsOf(
  db: Db,
  ids: readonly string[],
  timeControl: TimeControl,
  now = new Date(),
): Promise<ReadonlyMap<string, PlayerCard>> {
  const cards = await playerCards(db, ids, categoryOf(timeControl), now);
  return new Map(cards.map((card) => [card.id, card]));
}

export interface Shaper {
  /** a challenge as `viewerId` sees it */
  challenge(challenge: ChallengeView, viewerId: string): Promise<LishogiChallenge>;
  /** a game of `playerId`'s as its ongoing-game entry */
  game(game: GameView, playerId: string): Promise<LishogiOngoingGame>;
}

/** `origin`: the server's, as the client reached it, for the challenges' `url`. */
export function shaper(db: Db, origin: string): Shaper {
  return {
    async challenge(challenge, viewerId) {
      const ids = [challenge.challenger.id, challenge.opponent.id];
      const cards = await cardsOf(db, ids, challenge.timeControl);
      return lishogiChallenge(challenge, { origin, viewerId, cards });
    },
    async game(game, playerId) {
      const opponent = game.players[sideIn(game, playerId) === 'sente' ? 'gote' : 'sente'];
      const cards = await cardsOf(db, [opponent.id], game.timeControl);
      return lishogiOngoingGame(game, playerId, cards.get(opponent.id));
    },
  };
}
