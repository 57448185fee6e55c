/**
 * The one interface of the format-specific pairers: given the state and the time, the pairings
 * to make now (none when no wave or round is due). The caller gives each a game id and decides
 * `PairPlayers` with them; a later format (Swiss) adds its pairer behind the same interface.
 */
import type { TournamentState } from './state.js';

export interface ProposedPairing {
  readonly sente: string;
  readonly gote: string;
  readonly round?: number;
}

export interface PairingRequest {
  readonly state: TournamentState;
  readonly now: Date;
  /**
   * The players connected to the tournament (lichess pairs only those on its page or a bot's
   * event stream). Absent: everyone waiting counts as present.
   */
  readonly present?: ReadonlySet<string>;
}

export interface Pairer {
  pair(request: PairingRequest): ProposedPairing[];
}
