/**
 * What the arena and Swiss routes share: a tournament command run with its rejection as the
 * catalog's error, and a player's join, with what the aggregate checks the conditions by
 * (rating and rated games in the event's category, a bot or not, the password's hash).
 */
import { TOURNAMENT_REJECTION_ERRORS } from '@shogi/protocol';
import { categoryOf } from '@shogi/ratings';
import { fairplayDb, isBotAccount, isMarked, ratingIn } from '@shogi/store';
import type { TournamentCommandHandler, TournamentCommandRequest, TournamentTerms } from '@shogi/tournament';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.js';
import type { Principal } from '../domain/auth.js';
import { passwordHashOf } from './params.js';

export async function runCommand(handler: TournamentCommandHandler, id: string, request: TournamentCommandRequest) {
  const handled = await handler.handle(id, request);
  if (handled.kind === 'rejected')
    throw new ApiError(TOURNAMENT_REJECTION_ERRORS[handled.rejection.code], handled.rejection.message);
  return handled;
}

export async function joinRequest(
  databases: FastifyInstance['databases'],
  id: string,
  terms: TournamentTerms,
  player: Pick<Principal, 'id' | 'name'>,
  password: unknown,
): Promise<TournamentCommandRequest> {
  const category = categoryOf(terms.clock) ?? 'blitz';
  const [{ rating, games }, bot, marked] = await Promise.all([
    ratingIn(databases.reads, player.id, category),
    isBotAccount(databases.lobby, player.id),
    isMarked(fairplayDb(databases.lobby), player.id),
  ]);
  // a marked account is taken out of its tournaments (PlayerEjected) and joins no other (this server's choice)
  if (marked) throw new ApiError('TOURNAMENT_EJECTED');
  return {
    type: 'JoinTournament',
    player: { id: player.id, name: player.name, rating, bot },
    passwordHash: password === undefined ? null : passwordHashOf(id, String(password)),
    ratedGames: games,
  };
}
