/**
 * The closed catalog of tournament command rejections: expected failures of `decide`, returned
 * as values with a code the gateway carries into its error catalog.
 */
export const TOURNAMENT_REJECTION_CODES = [
  'unknown_tournament',
  'tournament_exists',
  /** A clock the tournament cannot use (unlimited, correspondence, or out of bounds). */
  'invalid_clock',
  /** A duration out of bounds, or too short for three games at the clock (lichess's rule). */
  'invalid_duration',
  /** A start in the past, or too far ahead. */
  'invalid_start',
  'invalid_terms',
  'already_joined',
  'tournament_finished',
  'tournament_full',
  'wrong_password',
  /** The player's rating in the tournament's category is below `conditions.minRating`. */
  'min_rating_not_met',
  /** The player has fewer rated games in the category than `conditions.nbRatedGame`. */
  'nb_rated_games_not_met',
  'bots_not_allowed',
  /** Rejoining an arena before the pause's delay is over (lishogi's Pause). */
  'paused',
  /** A robin takes no one once it has started: its table is drawn for the players it has. */
  'already_started',
  'not_joined',
  'not_started',
  'not_creator',
  /** A pairing naming someone who is not free to play, or one repeated. */
  'invalid_pairing',
  'pairings_closed',
  'unknown_game',
  'game_already_scored',
  'not_berserkable',
  'too_few_players',
  /** No game of an arranged robin has this id. */
  'unknown_arrangement',
  /** A time outside the event's window, or a proposal where none is taken. */
  'invalid_arrangement_time',
  /** A player proposing a time for a game that is not theirs. */
  'not_in_arrangement',
  /** A time proposed for a game paired already. */
  'arrangement_played',
  /** A Swiss's TRF that cannot continue this event (more rounds than it has, a player twice, too many players). */
  'invalid_trf',
  /** A TRF import after the start, or a second one. */
  'import_closed',
  /** A player taken out of the tournament as an engine user may not come back. */
  'ejected',
] as const;
export type TournamentRejectionCode = (typeof TOURNAMENT_REJECTION_CODES)[number];

export interface TournamentRejection {
  readonly code: TournamentRejectionCode;
  readonly message: string;
}

export const tournamentRejection = (code: TournamentRejectionCode, message: string): TournamentRejection => ({
  code,
  message,
});

export const isTournamentRejectionCode = (s: string): s is TournamentRejectionCode =>
  (TOURNAMENT_REJECTION_CODES as readonly string[]).includes(s);
