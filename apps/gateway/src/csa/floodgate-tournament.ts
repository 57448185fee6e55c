/**
 * Floodgate rounds as tournaments (`format: floodgate`): each CSA game name's rounds of one UTC
 * day are one tournament, under an id every gateway derives alike from the name and the day, so
 * whichever gateway starts a round's game records it without asking another. A game is recorded
 * when it starts (both players agreed): the day's tournament made and started if it is not yet,
 * both players joined, the game paired with its round's number. The tournament director scores
 * it when it ends, as any tournament game; the day's tournament finishes at midnight UTC.
 */
import { createHash } from 'node:crypto';
import { START_SFEN } from '@shogi/rules';
import type {
  TournamentClock,
  TournamentCommandHandler,
  TournamentCommandRequest,
  TournamentTerms,
} from '@shogi/tournament';
import type { Proposal } from './pairing-store.js';

const DAY_MS = 86_400_000;

/** Who "created" a Floodgate tournament: no account, so no one may terminate it. */
export const FLOODGATE_ORGANISER = { id: 'floodgate', name: 'Floodgate' } as const;

const dayStart = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;

/** The round's number in its UTC day, from 1. */
export const floodgateRoundNumber = (at: number, intervalMs: number): number =>
  Math.floor((at - dayStart(at)) / intervalMs) + 1;

/** The tournament of a game name's rounds on the day of `at`: `fg` and 16 hex digits. */
export const floodgateTournamentId = (gameName: string, at: number): string =>
  `fg${createHash('sha256')
    .update(`${gameName}\n${new Date(dayStart(at)).toISOString().slice(0, 10)}`)
    .digest('hex')
    .slice(0, 16)}`;

/** The day's terms, from its first recorded game on (`now`) to midnight UTC. */
export function floodgateTerms(proposal: Proposal, now: number): TournamentTerms {
  const end = dayStart(proposal.round?.at ?? now) + DAY_MS;
  const position = proposal.initialSfen === START_SFEN ? null : proposal.initialSfen;
  return {
    name: proposal.gameName.slice(0, 30),
    format: 'floodgate',
    clock: proposal.timeControl as TournamentClock,
    minutes: Math.max(1, Math.ceil((end - now) / 60_000)),
    startsAt: new Date(now).toISOString(),
    // each game is rated as the CSA front end rates it (both with a trip); the day is rated unless a handicap
    rated: position === null,
    position,
    berserkable: false,
    streakable: false,
    hasChat: false,
    description: `Floodgate rounds of ${proposal.gameName} over CSA, ${new Date(end - DAY_MS).toISOString().slice(0, 10)} (UTC)`,
    passwordHash: null,
    conditions: {},
    botsAllowed: true,
    maxPlayers: 20_000,
    robinCycles: 1,
  };
}

/** Refusals that mean "done already" (a retry, or another gateway first). */
const DONE = new Set(['tournament_exists', 'already_started', 'already_joined']);

/**
 * Records a started game of a Floodgate round in its day's tournament. Throws when a step is
 * refused for another reason (the caller logs it: the game plays on, unrecorded).
 */
export async function recordFloodgateGame(
  handler: TournamentCommandHandler,
  proposal: Proposal & { readonly round: NonNullable<Proposal['round']> },
  now: number,
): Promise<void> {
  const id = floodgateTournamentId(proposal.gameName, proposal.round.at);
  const run = async (request: TournamentCommandRequest) => {
    const handled = await handler.handle(id, request);
    if (handled.kind === 'rejected' && !DONE.has(handled.rejection.code))
      throw new Error(`floodgate tournament ${id}: ${request.type} refused: ${handled.rejection.message}`);
  };
  const state = await handler.current(id);
  if (state.status === 'none')
    await run({
      type: 'CreateTournament',
      tournamentId: id,
      createdBy: FLOODGATE_ORGANISER,
      terms: floodgateTerms(proposal, now),
    });
  if (state.status === 'none' || state.status === 'created') await run({ type: 'StartTournament' });
  for (const p of [proposal.sente, proposal.gote])
    await run({
      type: 'JoinTournament',
      player: { id: p.playerId, name: p.name, rating: p.rating, bot: false },
      passwordHash: null,
      ratedGames: 0,
    });
  const handled = await handler.handle(id, {
    type: 'PairPlayers',
    pairings: [
      {
        gameId: proposal.gameId,
        sente: proposal.sente.playerId,
        gote: proposal.gote.playerId,
        round: proposal.round.number,
      },
    ],
  });
  // a start asked again (a retry) finds its game paired already
  if (handled.kind === 'rejected' && !handled.state.pairings.has(proposal.gameId))
    throw new Error(`floodgate tournament ${id}: the game was not paired: ${handled.rejection.message}`);
}
