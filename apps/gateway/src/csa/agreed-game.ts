/**
 * The game of an agreed proposal, created through the lobby's start path (the one-real-time-
 * game rule, under both players' locks) and the game service, with CSA's terms: shogi-server's
 * rules, the CSA clock, an illegal move losing, the move limit. Created once under the
 * proposal's id: a second start (a retry, or two gateways after a lapsed claim) finds the
 * game, or fails on it (ALREADY_PLAYING, the append's game_exists) and then finds it.
 */
import { ApiError } from '../domain/api-error.js';
import type { GameService } from '../domain/game-service.js';
import type { StartTx, Transactional } from '../domain/lobby/ports.js';
import { startTogether } from '../domain/lobby/start-game.js';
import { floodgateTournamentId } from './floodgate-tournament.js';
import type { StartedGame } from './pairing-store.js';
import type { StartGame } from './proposals.js';

export interface AgreedGameDeps {
  readonly lobby: Transactional<StartTx>;
  readonly games: Pick<GameService, 'createGame' | 'details'>;
  /** rated games one pair may start in 24 hours; past it their game is casual (0: no cap) */
  readonly ratedGamesPerPair?: number;
}

export function agreedGameStarter({ lobby, games, ratedGamesPerPair = 0 }: AgreedGameDeps): StartGame {
  /** The game under the id if it exists already (a start made before, maybe by a gateway since gone). */
  const existing = async (gameId: string): Promise<StartedGame | null> => {
    try {
      const { view, createdAt } = await games.details(gameId);
      return { createdAt, initialSfen: view.initialSfen };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'GAME_NOT_FOUND') return null;
      throw err;
    }
  };

  return async (proposal) => {
    const before = await existing(proposal.gameId);
    if (before !== null) return before;
    const { sente, gote } = proposal;
    const players = [
      [sente.playerId, sente.name],
      [gote.playerId, gote.name],
    ] as const;
    try {
      // the Game_Summary says nothing of rating, so a pair past its daily cap plays on, casual
      await startTogether(
        lobby,
        players,
        proposal.timeControl,
        new Date(),
        (ratedAllowed) =>
          games.createGame(
            {
              sente: sente.playerId,
              gote: gote.playerId,
              // shogi-server's rules: perpetual check loses for the checker, it is no illegal move
              ruleset: 'jsa',
              timeControl: proposal.timeControl,
              rated: proposal.rated && ratedAllowed,
              ...(proposal.handicap === null ? {} : { handicap: proposal.handicap }),
            },
            {
              gameId: proposal.gameId,
              clockRules: 'csa',
              illegalMoveLoses: true,
              maxMoves: proposal.maxMoves,
              // a Floodgate round's game is its day's tournament's: no abort, as on shogi-server
              ...(proposal.round === undefined
                ? {}
                : { tournamentId: floodgateTournamentId(proposal.gameName, proposal.round.at) }),
            },
          ),
        // a casual proposal has no rated game to count
        proposal.rated ? ratedGamesPerPair : 0,
      );
    } catch (err) {
      const after = await existing(proposal.gameId);
      if (after !== null) return after;
      throw err;
    }
    return (await existing(proposal.gameId)) as StartedGame;
  };
}
