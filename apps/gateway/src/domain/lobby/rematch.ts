/**
 * Rematch offers: a challenge to the opponent of an ended game, on its settings with the
 * colours swapped (a handicap giver stays the giver). Offers of one game are serialized
 * under its rematch lock, so two players offering at once make one game: the second offer
 * accepts the first.
 */
import { randomUUID } from 'node:crypto';
import { CHALLENGE_TTL_MS, type ChallengeView, type GameView, type Side } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import { ApiError } from '../api-error.js';
import type { Player } from '../player.js';
import { other, rematchSide } from './pairing.js';
import type { RematchStore, RematchTx, StoredChallenge } from './ports.js';
import { acceptLocked, announceAccepted, type LobbyContext, refuseIfPlaying } from './start-game.js';
import { challengeView } from './views.js';

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
  | { readonly kind: 'accepted'; readonly row: StoredChallenge; readonly challengerSide: Side };

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
      const challenge = challengeView(outcome.row, at);
      if (outcome.kind === 'offered') await deps.notify(previous.opponent.id, { type: 'rematch', challenge });
      if (outcome.kind === 'accepted') await announceAccepted(deps, outcome.row, outcome.challengerSide);
      return { challenge, created: outcome.kind === 'offered' };
    },
  };
}

async function previousGame(deps: RematchDeps, player: Player, gameId: string): Promise<Previous> {
  const view = await deps.games.view(gameId);
  const mySide: Side | null =
    view.players.sente.id === player.id ? 'sente' : view.players.gote.id === player.id ? 'gote' : null;
  if (mySide === null) throw new ApiError('NOT_A_PLAYER');
  if (view.status !== 'ended') throw new ApiError('GAME_NOT_ENDED');
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
    if (locked?.status === 'pending') {
      const done = await acceptLocked(deps, tx, locked, at);
      return { row: done.row, kind: 'accepted', challengerSide: done.challengerSide };
    }
  }
  const mine = live.find((r) => r.challenger_id === player.id);
  if (mine) return { row: mine, kind: 'existing' };
  await refuseIfPlaying(tx, player.id, previous.view.timeControl);
  return { row: await offer(tx, player, previous, at), kind: 'offered' };
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
