/** The tournament aggregate as an Emmett-style Decider, the shape of `@shogi/game`'s. */
import type { Decider } from '@shogi/game';
import type { TournamentCommand } from './commands.js';
import { decideTournament, type TournamentDecision } from './decide.js';
import type { TournamentEvent } from './events.js';
import { evolveTournament } from './evolve.js';
import { initialTournamentState, type TournamentState } from './state.js';

export type TournamentDecider = Decider<TournamentState, TournamentCommand, TournamentEvent, TournamentDecision>;

export const tournamentDecider: TournamentDecider = {
  initialState: initialTournamentState,
  evolve: evolveTournament,
  decide: decideTournament,
};
