/**
 * The one catalog of error codes shared by the gateway and its clients (HTTP bodies and
 * WebSocket error frames), after colyseus' Protocol.ts: a code is a stable string a
 * client can switch on, the status is the HTTP answer, the message is for people.
 *
 * The game's rejection codes (packages/game) map onto these in `rejectionError`.
 */

export const ERRORS = {
  // 400: the request itself is malformed
  BAD_REQUEST: { status: 400, message: 'The request does not match the schema of this route' },
  MALFORMED_JSON: { status: 400, message: 'The body is not valid JSON' },
  MALFORMED_MULTIPART: {
    status: 400,
    message:
      'The multipart/form-data body is malformed or holds something else than one file part (the detail says what): send the record as the one file part of the form, or as the raw body',
  },
  MALFORMED_USI: { status: 400, message: 'The move is not well-formed USI (like 7g7f, 8h2b+ or P*5e)' },
  INVALID_SFEN: { status: 400, message: 'The initial position is not a valid SFEN' },
  INVALID_SETUP: { status: 400, message: 'Give either a handicap or an SFEN, not both' },
  UNSUPPORTED_VARIANT: { status: 400, message: 'Only standard shogi is played here (variant standard)' },
  BOT_ACCOUNT_REQUIRED: {
    status: 400,
    message: "This endpoint can only be used with a bot account (lishogi's Bot API); people play through the Board API",
  },
  NOT_FOR_BOT_ACCOUNTS: {
    status: 400,
    message: "This endpoint cannot be used with a bot account: bots play through lishogi's Bot API",
  },
  INVALID_RECORD: {
    status: 400,
    message:
      'The game record cannot be imported: the answer names the record, the line, the ply and why (an unknown format, a move the rules refuse, ...); nothing was imported',
  },
  INVALID_NAME: {
    status: 400,
    message: 'The name is blank, too long, or holds an invisible, format or control character',
  },
  // 401/403: who is asking
  UNAUTHORIZED: { status: 401, message: 'A valid bearer token is required' },
  TOKEN_IN_URL: {
    status: 400,
    message:
      'Tokens are not accepted in URLs (they end up in logs and history): send Authorization: Bearer <token>, or open a WebSocket with a ticket from POST /api/socket-ticket (?ticket=)',
  },
  NOT_A_PLAYER: { status: 403, message: 'You do not play in this game' },
  SPECTATOR_ROOM_CLOSED: {
    status: 403,
    message: "A game's players read and write its spectators' chat room only once the game has ended, as on lishogi",
  },
  // accounts and tokens: one answer for an unknown user and a wrong password
  INVALID_CREDENTIALS: { status: 401, message: 'Unknown username or wrong password' },
  WRONG_PASSWORD: { status: 403, message: 'The current password is wrong' },
  INSUFFICIENT_SCOPE: { status: 403, message: 'This token does not have the scope this needs' },
  ACCOUNT_REQUIRED: { status: 403, message: 'Only an account keeps preferences: register to choose yours' },
  SESSION_REQUIRED: { status: 403, message: 'This needs a session token (log in with POST /api/session)' },
  GUEST_TOKEN_REQUIRED: {
    status: 403,
    message: "This replaces a guest player's token; an account revokes its tokens with DELETE /api/tokens/:id",
  },
  ADMIN_REQUIRED: {
    status: 403,
    message: 'This needs a token with the admin scope (operators mint one with npm run admin:token)',
  },
  MOD_REQUIRED: {
    status: 403,
    message:
      'This needs a token with the mod scope (operators mint one with npm run admin:token -- USERNAME --scope mod)',
  },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'No account has this username' },
  SELF_REPORT: { status: 422, message: 'You cannot report yourself' },
  TOKEN_NOT_FOUND: { status: 404, message: 'No token of yours has this id' },
  USERNAME_TAKEN: { status: 409, message: 'This username is taken (usernames are compared case-insensitively)' },
  NAME_TAKEN: {
    status: 409,
    message:
      "This name is an account's username (compared case-insensitively, full-width letters as plain ones): pick another",
  },
  BOT_UPGRADE_REFUSED: {
    status: 400,
    message: 'Only an account that has played no game becomes a bot account: make a new account for the bot',
  },
  TOO_MANY_TOKENS: { status: 409, message: 'This account has too many active tokens; revoke one first' },
  SPECTATOR_READ_ONLY: {
    status: 403,
    message: 'A spectator socket is read-only; players send moves on /api/games/{id}/ws',
  },
  LOBBY_READ_ONLY: {
    status: 403,
    message:
      'The lobby socket only tells you what happens; seek, challenge and accept over HTTP (/api/seeks, /api/challenges)',
  },
  // 404
  GAME_NOT_FOUND: { status: 404, message: 'No game has this id' },
  PLAYER_NOT_FOUND: { status: 404, message: 'No player has this id' },
  NOT_FOUND: { status: 404, message: 'No such route' },
  // 409: the state of the game forbids it now
  NOT_YOUR_TURN: { status: 409, message: 'It is not your turn' },
  GAME_OVER: { status: 409, message: 'The game has ended' },
  STALE_PLY: { status: 409, message: 'The ply is behind the game: a move was already made at this ply' },
  FUTURE_PLY: { status: 409, message: 'The ply is ahead of the game' },
  MOVE_PENDING: { status: 409, message: 'A move at this ply is waiting for its verdict' },
  CONFLICT: { status: 409, message: 'The game changed while the request was handled; try again' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'This idempotency key was used for a different request' },
  TOO_LATE_TO_ABORT: { status: 409, message: 'A game can be aborted only before your first move' },
  ABORT_NOT_ALLOWED: { status: 409, message: 'A tournament game cannot be aborted' },
  TAKEBACK_NOT_ALLOWED: { status: 409, message: 'Takebacks are off in this game' },
  TAKEBACK_PENDING: { status: 409, message: 'A takeback has been proposed already' },
  NO_MOVE_TO_TAKE_BACK: { status: 409, message: 'You have no move to take back' },
  NO_TAKEBACK_PROPOSAL: { status: 409, message: 'There is no takeback proposal to answer' },
  RECORD_ALREADY_IMPORTED: {
    status: 409,
    message: 'This record was imported before (the same bytes): the answer names its game',
  },
  // 413/415
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The body is too large' },
  TOO_MANY_RECORDS: {
    status: 413,
    message:
      'The file holds more records than one import takes (the detail names the cap, IMPORT_MAX_RECORDS): split it into files of at most that many records',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send application/json' },
  // 429
  TOO_MANY_CONNECTIONS: { status: 429, message: 'Too many open connections from this address or token' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the Retry-After header (seconds)' },
  IMPORT_QUOTA_EXCEEDED: {
    status: 429,
    message:
      'Your account or your network address has imported as many records as a day allows (IMPORT_MAX_RECORDS_PER_DAY; the detail says how many are left); retry after the Retry-After header (seconds)',
  },
  // 422: well-formed but refused by the rules
  ILLEGAL_MOVE: { status: 422, message: 'The move is illegal in this position' },
  POSITION_OVER: {
    status: 422,
    message: 'The game is over in this position (checkmate, stalemate or a repetition): there is nothing to evaluate',
  },
  UNKNOWN_PLAYER: { status: 422, message: 'A player id does not exist' },
  SAME_PLAYER: { status: 422, message: 'Sente and gote must be different players' },
  // the lobby: seeks, challenges, rematch offers
  SEEK_NOT_FOUND: { status: 404, message: 'No seek has this id' },
  CHALLENGE_NOT_FOUND: { status: 404, message: 'No challenge has this id, or it is not yours to see' },
  NOT_YOUR_SEEK: { status: 403, message: 'Only the seeker may cancel a seek' },
  NOT_YOUR_CHALLENGE: {
    status: 403,
    message: 'Only the challenged player answers a challenge; only the challenger cancels it',
  },
  SEEK_CLOSED: { status: 409, message: 'The seek was already paired, cancelled or has expired' },
  CHALLENGE_CLOSED: { status: 409, message: 'The challenge was already answered, cancelled or has expired' },
  GAME_NOT_ENDED: {
    status: 409,
    message: 'The game has not ended: a rematch is offered, and an analysis requested, once it has',
  },
  TOO_MANY_SEEKS: { status: 409, message: 'You have too many open seeks; cancel one first' },
  TOO_MANY_CHALLENGES: { status: 409, message: 'You have too many pending challenges; wait or cancel one' },
  TOO_MANY_SEEKS_FROM_ADDRESS: {
    status: 409,
    message:
      'Too many open seeks come from your network address (all its players together); cancel one, or wait until some are paired or expire',
  },
  RATED_PAIR_LIMIT: {
    status: 409,
    message:
      'You two have played as many rated games together as a day allows (RATED_GAMES_PER_PAIR_PER_DAY, over the last 24 hours); play a casual game instead',
  },
  ALREADY_PLAYING: {
    status: 409,
    message:
      'You are playing a real-time game (the detail names it); finish it before you seek, challenge or accept another. Correspondence and unlimited games are not limited',
  },
  OPPONENT_PLAYING: {
    status: 409,
    message: 'The other player is playing a real-time game; the challenge stays pending: accept it once that game ends',
  },
  BOT_ACCOUNT: {
    status: 403,
    message: 'A bot account plays only through challenges and the Bot API: no seeks, no games against the house bots',
  },
  INVALID_TIME_CONTROL: { status: 422, message: 'The time control is not allowed (a rated game needs a clock)' },
  RATED_NEEDS_STANDARD_START: {
    status: 422,
    message: 'A rated game starts from the standard position or a named handicap, never from a custom SFEN',
  },
  INVALID_RATING_RANGE: { status: 422, message: 'The rating range must have min <= max' },
  AMBIGUOUS_PLAYER: { status: 422, message: 'Several players have this name; give the player id' },
  // tournaments (a tournament's rejection codes, packages/tournament, map onto these in TOURNAMENT_REJECTION_ERRORS)
  TOURNAMENT_NOT_FOUND: { status: 404, message: 'No such tournament' },
  INVALID_TOURNAMENT_DURATION: {
    status: 400,
    message: 'The duration is out of bounds, or too short for three games at this clock',
  },
  INVALID_TOURNAMENT_START: { status: 400, message: 'The start is in the past, or more than 31 days ahead' },
  INVALID_TOURNAMENT_TERMS: { status: 400, message: 'The tournament cannot be created with these terms' },
  ALREADY_JOINED: { status: 409, message: 'You are in this tournament already' },
  TOURNAMENT_FINISHED: { status: 409, message: 'The tournament is over' },
  TOURNAMENT_FULL: { status: 409, message: 'The tournament is full' },
  TOURNAMENT_STARTED: { status: 409, message: 'The tournament has started: a round-robin takes no one more' },
  TOURNAMENT_NOT_STARTED: { status: 409, message: 'The tournament is not running' },
  TOURNAMENT_PAUSED: { status: 409, message: 'You paused: you may rejoin once the delay is over' },
  NOT_IN_TOURNAMENT: { status: 409, message: 'You are not in this tournament' },
  TOURNAMENT_PASSWORD_WRONG: { status: 403, message: "The tournament's password is wrong" },
  RATING_TOO_LOW: { status: 403, message: "Your rating is below the tournament's minimum" },
  TOO_FEW_RATED_GAMES: { status: 403, message: 'You have played fewer rated games than the tournament asks' },
  BOTS_NOT_ALLOWED: { status: 403, message: 'Bots may not join this tournament' },
  NOT_TOURNAMENT_CREATOR: { status: 403, message: 'Only its creator may do this' },
  INVALID_TRF: { status: 400, message: 'The TRF cannot continue this Swiss (the detail says why)' },
  TOURNAMENT_EJECTED: {
    status: 403,
    message: 'An account marked for engine use is taken out of its tournaments and joins none',
  },
  NO_REMATCH_IN_TOURNAMENT: { status: 409, message: "A tournament's game has no rematch" },
  NOT_BERSERKABLE: {
    status: 409,
    message: 'This game has no berserk (not an arena game that allows it, or moved already)',
  },
  ARRANGEMENT_NOT_FOUND: { status: 404, message: 'No game of this round-robin has this id' },
  INVALID_ARRANGEMENT_TIME: {
    status: 400,
    message: "The time must fall within the tournament's window, in an arranged round-robin that has started",
  },
  // analysis by the engine role
  ANALYSIS_NOT_FOUND: {
    status: 404,
    message: 'This game has not been analysed: request an analysis with POST /api/games/{id}/analysis',
  },
  ENGINE_UNAVAILABLE: {
    status: 503,
    message:
      'No engine is running on this server, so nothing can be analysed now; try again later (operators: start the engine role, --role engine or all, with ENGINE_PATH set)',
  },
  // 5xx: ours
  UNAVAILABLE: { status: 503, message: 'The service is starting, stopping or overloaded; try again' },
  INTERNAL: { status: 500, message: 'Internal error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The JSON body of every error answer and the payload of a WebSocket error frame. */
export interface ErrorBody {
  readonly code: ErrorCode;
  readonly message: string;
  /** Extra context: the illegal-move reason, the expected ply, the failing field. */
  readonly detail?: string;
}

export const errorBody = (code: ErrorCode, detail?: string): ErrorBody =>
  detail === undefined ? { code, message: ERRORS[code].message } : { code, message: ERRORS[code].message, detail };

export const statusOf = (code: ErrorCode): number => ERRORS[code].status;

export const isErrorCode = (s: string): s is ErrorCode => Object.hasOwn(ERRORS, s);

/**
 * WebSocket close codes (4000-4999 is the application range of RFC 6455 §7.4.2).
 * Standard ones are listed for completeness so clients switch on one table.
 */
export const CLOSE_CODES = {
  NORMAL: 1000,
  GOING_AWAY: 1001,
  /** a frame that is not JSON text, or binary */
  UNSUPPORTED_DATA: 1003,
  /** a frame above the gateway's maxPayload */
  MESSAGE_TOO_BIG: 1009,
  INTERNAL: 1011,
  /** the server lost its database connection for a moment: reconnect with ?after= (RFC 6455 §7.4.1, IANA registry) */
  TRY_AGAIN_LATER: 1013,
  UNAUTHORIZED: 4001,
  NOT_A_PLAYER: 4003,
  GAME_NOT_FOUND: 4004,
  /** the client sent too many bad frames in a row */
  TOO_MANY_ERRORS: 4008,
  /** the client did not read its messages fast enough */
  SLOW_CONSUMER: 4009,
  /** a spectator fell too far behind (or the gateway lost its place): reconnect with ?since=<last seq> */
  RESYNC: 4010,
} as const;
export type CloseCode = (typeof CLOSE_CODES)[keyof typeof CLOSE_CODES];

/**
 * Frames a socket answers with error frames before closing with TOO_MANY_ERRORS: bad frames
 * in a row on a player socket, any frame on a read-only one (watch, live feed).
 */
export const MAX_BAD_FRAMES = 20;

/**
 * The game aggregate's rejection codes (packages/game REJECTION_CODES) on the wire.
 * The gateway checks at compile time that every code of the game has an entry.
 */
export const REJECTION_ERRORS = {
  unknown_game: 'GAME_NOT_FOUND',
  game_exists: 'CONFLICT',
  invalid_setup: 'INVALID_SFEN',
  invalid_time_control: 'INVALID_TIME_CONTROL',
  rated_custom_position: 'RATED_NEEDS_STANDARD_START',
  not_a_player: 'NOT_A_PLAYER',
  not_your_turn: 'NOT_YOUR_TURN',
  game_over: 'GAME_OVER',
  stale_ply: 'STALE_PLY',
  malformed_usi: 'MALFORMED_USI',
  illegal_move: 'ILLEGAL_MOVE',
  move_pending: 'MOVE_PENDING',
  unknown_submission: 'CONFLICT',
  too_late_to_abort: 'TOO_LATE_TO_ABORT',
  abort_not_allowed: 'ABORT_NOT_ALLOWED',
  berserk_not_allowed: 'NOT_BERSERKABLE',
  takeback_not_allowed: 'TAKEBACK_NOT_ALLOWED',
  takeback_pending: 'TAKEBACK_PENDING',
  no_move_to_take_back: 'NO_MOVE_TO_TAKE_BACK',
  no_takeback_proposal: 'NO_TAKEBACK_PROPOSAL',
} as const satisfies Record<string, ErrorCode>;

/**
 * The tournament aggregate's rejection codes (packages/tournament TOURNAMENT_REJECTION_CODES)
 * on the wire; the gateway checks at compile time that every code has an entry.
 */
export const TOURNAMENT_REJECTION_ERRORS = {
  unknown_tournament: 'TOURNAMENT_NOT_FOUND',
  tournament_exists: 'CONFLICT',
  invalid_clock: 'INVALID_TIME_CONTROL',
  invalid_duration: 'INVALID_TOURNAMENT_DURATION',
  invalid_start: 'INVALID_TOURNAMENT_START',
  invalid_terms: 'INVALID_TOURNAMENT_TERMS',
  already_joined: 'ALREADY_JOINED',
  tournament_finished: 'TOURNAMENT_FINISHED',
  tournament_full: 'TOURNAMENT_FULL',
  wrong_password: 'TOURNAMENT_PASSWORD_WRONG',
  min_rating_not_met: 'RATING_TOO_LOW',
  nb_rated_games_not_met: 'TOO_FEW_RATED_GAMES',
  bots_not_allowed: 'BOTS_NOT_ALLOWED',
  paused: 'TOURNAMENT_PAUSED',
  already_started: 'TOURNAMENT_STARTED',
  not_joined: 'NOT_IN_TOURNAMENT',
  not_started: 'TOURNAMENT_NOT_STARTED',
  not_creator: 'NOT_TOURNAMENT_CREATOR',
  invalid_pairing: 'CONFLICT',
  pairings_closed: 'CONFLICT',
  unknown_game: 'GAME_NOT_FOUND',
  game_already_scored: 'GAME_OVER',
  not_berserkable: 'NOT_BERSERKABLE',
  too_few_players: 'CONFLICT',
  unknown_arrangement: 'ARRANGEMENT_NOT_FOUND',
  invalid_arrangement_time: 'INVALID_ARRANGEMENT_TIME',
  not_in_arrangement: 'NOT_A_PLAYER',
  arrangement_played: 'CONFLICT',
  invalid_trf: 'INVALID_TRF',
  import_closed: 'CONFLICT',
  ejected: 'TOURNAMENT_EJECTED',
} as const satisfies Record<string, ErrorCode>;
