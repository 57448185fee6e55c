/**
 * Rematch offers: a challenge to the opponent of an ended game, on its settings with the
 * colours swapped (a handicap giver stays the giver). Offers of one game are serialized
 * under its rematch lock, so two players offering at once make one game: the second offer
 * accepts the first. A casual rematch offered to a bot the gateway runs is accepted at once
 * in the same transaction, and the bot is given the game, as `POST /api/bots/:id/games` does.
 */
import { randomUUID } from 'node:crypto';
import { CHALLENGE_TTL_MS, type ChallengeView, type GameView, type Side } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import { ApiError } from '../api-error.js';
import type { Player } from '../player.js';
import { other, rematchSide } from './pairing.js';
import type { RematchStore, RematchTx, StoredChallenge } from './ports.js';
import {
  acceptLocked,
  announceAccepted,
  type LobbyContext,
  refuseIfPlaying,
  refuseRatedPairOverLimit,
} from './start-game.js';
import { challengeView, withChallengeTitle } from './views.js';

export interface RematchDeps extends LobbyContext {
  readonly store: RematchStore;
}

/** The ended game a rematch is offered for, as its offerer sees it. */
interface Previous {
  readonly gameId: string;
  readonly view: GameView;
  readonly mySide: Side;
  readonly opponent: Player;
  readonly handicap: string | null;
}

type Outcome =
  | { readonly kind: 'existing' | 'offered'; readonly row: StoredChallenge }
  | {
      readonly kind: 'accepted';
      readonly row: StoredChallenge;
      readonly challengerSide: Side;
      readonly game: GameView;
      /** the offer was this player's, taken at once by a bot the gateway runs */
      readonly byBot: boolean;
    };

export type RematchService = ReturnType<typeof createRematchService>;

export function createRematchService(deps: RematchDeps) {
  return {
    /**
     * Offers a rematch of an ended game to the opponent. When the opponent has already
     * offered, this accepts their offer; offering again answers the live offer. `created`
     * is false when nothing new was offered.
     */
    async rematch(player: Player, gameId: string): Promise<{ challenge: ChallengeView; created: boolean }> {
      const previous = await previousGame(deps, player, gameId);
      const at = deps.now();
      const outcome = await deps.store.transaction((tx) => answerOrOffer(deps, tx, player, previous, at));
      const challenge = await withChallengeTitle(deps.titles, challengeView(outcome.row, at));
      if (outcome.kind === 'offered') await deps.notify(previous.opponent.id, { type: 'rematch', challenge });
      if (outcome.kind === 'accepted') {
        if (outcome.byBot) deps.bots.join(previous.opponent.id, outcome.game);
        await announceAccepted(deps, outcome.row, outcome.challengerSide);
      }
      const created = outcome.kind === 'offered' || (outcome.kind === 'accepted' && outcome.byBot);
      return { challenge, created };
    },
  };
}

async function previousGame(deps: RematchDeps, player: Player, gameId: string): Promise<Previous> {
  const view = await deps.games.view(gameId);
  const mySide: Side | null =
    view.players.sente.id === player.id ? 'sente' : view.players.gote.id === player.id ? 'gote' : null;
  if (mySide === null) throw new ApiError('NOT_A_PLAYER');
  if (view.status !== 'ended') throw new ApiError('GAME_NOT_ENDED');
  if ((await deps.store.tournamentOf(gameId)) !== null)
    throw new ApiError('NO_REMATCH_IN_TOURNAMENT', 'the tournament pairs your next game');
  const opponent = view.players[other(mySide)];
  const handicap = await deps.store.handicapOf(gameId);
  return { gameId, view, mySide, opponent, handicap };
}

/** Under the game's rematch lock: the accepted offer, the opponent's accepted, this player's, or a new one. */
async function answerOrOffer(
  deps: RematchDeps,
  tx: RematchTx,
  player: Player,
  previous: Previous,
  at: Date,
): Promise<Outcome> {
  const { gameId, opponent } = previous;
  await tx.lockRematches(gameId);
  const live = await tx.rematchesOf(gameId, at);
  const accepted = live.find((r) => r.status === 'accepted');
  if (accepted) return { row: accepted, kind: 'existing' };
  const theirs = live.find((r) => r.challenger_id === opponent.id);
  if (theirs) {
    const locked = await tx.lockChallenge(theirs.id);
    if (locked?.status === 'pending')
      return { ...(await acceptLocked(deps, tx, locked, at)), kind: 'accepted', byBot: false };
  }
  const mine = live.find((r) => r.challenger_id === player.id);
  if (mine) return { row: mine, kind: 'existing' };
  await refuseIfPlaying(tx, player.id, previous.view.timeControl);
  if (previous.view.rated) await refuseRatedPairOverLimit(tx, deps.ratedGamesPerPair, player.id, opponent.id, at);
  const row = await offer(tx, player, previous, at);
  // a bot the gateway runs plays only casual games, and takes every one it is offered
  if (!deps.bots.runs(opponent.id) || row.rated) return { row, kind: 'offered' };
  return { ...(await acceptLocked(deps, tx, row, at, 'challenger')), kind: 'accepted', byBot: true };
}

/** Same settings, colours swapped; a handicap giver stays the giver. */
function offer(tx: RematchTx, player: Player, previous: Previous, at: Date): Promise<StoredChallenge> {
  const { view, handicap } = previous;
  return tx.insertChallenge({
    id: randomUUID(),
    challenger_id: player.id,
    challenger_name: player.name,
    opponent_id: previous.opponent.id,
    opponent_name: previous.opponent.name,
    time_control: view.timeControl,
    rated: view.rated,
    ruleset: view.ruleset,
    handicap,
    sfen: handicap === null && view.initialSfen !== START_SFEN ? view.initialSfen : null,
    color: rematchSide(previous.mySide, handicap),
    rematch_of: previous.gameId,
    created_at: at,
    expires_at: new Date(at.getTime() + CHALLENGE_TTL_MS),
  });
}
