/**
 * What a player reads when the server says no: the error catalog's codes
 * (packages/protocol/src/errors.ts) in a player's words. The catalog's own messages are
 * written for programs that call the API (headers, routes, token scopes), so the page never
 * shows them. Pure: checked in unit tests.
 */
import type { ErrorBody, ErrorCode } from '@shogi/protocol';
import { reasonClause } from './refusals.js';

const SENTENCES: Partial<Readonly<Record<ErrorCode, string>>> = {
  INVALID_NAME: 'Pick a name of a few visible letters or digits.',
  UNAUTHORIZED: 'Your session has ended: reload the page to play on.',
  NOT_A_PLAYER: 'You are not playing in this game.',
  SPECTATOR_ROOM_CLOSED: "The spectators' chat opens to the players when the game ends.",
  INVALID_CREDENTIALS: 'Unknown username or wrong password.',
  WRONG_PASSWORD: 'The current password is wrong.',
  INSUFFICIENT_SCOPE: 'You cannot do this while signed in this way: log in again.',
  SESSION_REQUIRED: 'Log in to do this.',
  USERNAME_TAKEN: 'This username is taken: pick another.',
  NAME_TAKEN: 'This name belongs to an account: pick another.',
  GAME_NOT_FOUND: 'This game does not exist.',
  PLAYER_NOT_FOUND: 'This player does not exist.',
  NOT_YOUR_TURN: 'It is not your turn.',
  GAME_OVER: 'The game is over.',
  STALE_PLY: 'The game moved on before your move arrived.',
  FUTURE_PLY: 'Your board was behind the game: it has been brought up to date.',
  MOVE_PENDING: 'Your previous move is still being checked.',
  CONFLICT: 'The game changed meanwhile: please try again.',
  TOO_LATE_TO_ABORT: 'A game can be aborted only before your first move.',
  ABORT_NOT_ALLOWED: 'A tournament game cannot be aborted: make your first move in time.',
  TOURNAMENT_NOT_FOUND: 'This tournament does not exist.',
  TOURNAMENT_PASSWORD_WRONG: "The tournament's password is wrong.",
  ALREADY_JOINED: 'You are in this tournament already.',
  TOURNAMENT_FINISHED: 'The tournament is over.',
  TOURNAMENT_FULL: 'The tournament is full.',
  TOURNAMENT_STARTED: 'The round-robin has started: it takes no one more.',
  TOURNAMENT_PAUSED: 'You paused a moment ago: you can rejoin in a little while.',
  NOT_IN_TOURNAMENT: 'You are not in this tournament.',
  RATING_TOO_LOW: "Your rating is below the tournament's minimum.",
  TOO_FEW_RATED_GAMES: 'You have played fewer rated games than the tournament asks.',
  NOT_BERSERKABLE: 'You can berserk only before your first move, where the tournament allows it.',
  INVALID_TOURNAMENT_DURATION: 'The length is out of bounds or too short for three games at this clock.',
  INVALID_TOURNAMENT_START: 'The start must be from now to 31 days ahead.',
  INVALID_TOURNAMENT_TERMS: 'Check the name (2 to 30 characters) and the other terms.',
  INVALID_TRF: 'The tournament file cannot continue this Swiss: check it and send it again.',
  TOO_MANY_CONNECTIONS: 'Too many pages are open on this server: close a few and reload.',
  RATE_LIMITED: 'You are going too fast: wait a few seconds and try again.',
  ILLEGAL_MOVE: 'This move is not allowed here.',
  UNKNOWN_PLAYER: 'This player does not exist.',
  SAME_PLAYER: 'You cannot play against yourself.',
  SEEK_NOT_FOUND: 'This seek is gone.',
  CHALLENGE_NOT_FOUND: 'This challenge is gone.',
  NOT_YOUR_SEEK: 'Only its player can cancel this seek.',
  NOT_YOUR_CHALLENGE: 'This challenge is not yours to answer.',
  SEEK_CLOSED: 'Someone else took this seek, or it was cancelled.',
  CHALLENGE_CLOSED: 'This challenge was already answered or cancelled.',
  GAME_NOT_ENDED: 'The game is still going on.',
  TOO_MANY_SEEKS: 'You have too many open seeks: cancel one first.',
  TOO_MANY_CHALLENGES: 'You have too many challenges waiting: cancel one first.',
  TOO_MANY_SEEKS_FROM_ADDRESS: 'Too many seeks are open from your network: cancel one, or wait a little.',
  ALREADY_PLAYING: 'You are playing a game already: finish it first.',
  OPPONENT_PLAYING: 'Your opponent is in another game: your challenge waits until it ends.',
  BOT_ACCOUNT: 'A bot account plays only through challenges.',
  BOT_ACCOUNT_REQUIRED: 'Only a bot account can do this.',
  NOT_FOR_BOT_ACCOUNTS: 'A bot account cannot do this.',
  INVALID_TIME_CONTROL: 'This clock is not allowed (a rated game needs a clock).',
  RATED_NEEDS_STANDARD_START: 'A rated game starts from the usual position or a handicap.',
  INVALID_RATING_RANGE: 'The lowest rating must not be above the highest.',
  AMBIGUOUS_PLAYER: 'Several players have this name: give the player id.',
  ANALYSIS_NOT_FOUND: 'This game has not been analysed yet.',
  ENGINE_UNAVAILABLE: 'The computer is not running on this server just now: try again later.',
  POSITION_OVER: 'The game is over in this position: there is nothing left to evaluate.',
  UNAVAILABLE: 'The server is busy or restarting: try again in a moment.',
  RATED_PAIR_LIMIT: 'You two have played enough rated games today: play this one casual.',
  TOO_MANY_RECORDS: 'This file holds too many games: split it into smaller files.',
  IMPORT_QUOTA_EXCEEDED: 'You have imported as many games as a day allows: try again tomorrow.',
  MALFORMED_MULTIPART: 'The file did not arrive whole: choose it again.',
};

/** The sentence for an error answer: the catalog's code in a player's words. */
export function errorSentence(status: number, body: Pick<ErrorBody, 'code' | 'detail'>): string {
  // an illegal move names the rules' reason in its detail
  if (body.code === 'ILLEGAL_MOVE' && body.detail) return `This move is not allowed: ${reasonClause(body.detail)}.`;
  const known = SENTENCES[body.code as ErrorCode];
  if (known) return known;
  if (status === 429) return SENTENCES.RATE_LIMITED as string;
  return status >= 500 ? 'Something went wrong on the server: please try again.' : 'This could not be done.';
}

/** What went wrong with a request, for the page: the server's answer in words, or the network. */
export function failureSentence(err: unknown): string {
  if (err instanceof Error && 'body' in err && 'status' in err) return err.message;
  return 'The server cannot be reached: check your connection and try again.';
}

/** What the chat's note says when a line is not sent: the rate limit in the chat's own words. */
export function chatFailureSentence(err: unknown): string {
  if (err instanceof Error && 'status' in err && err.status === 429)
    return 'You are writing too fast: wait a few seconds, then send your line again.';
  return failureSentence(err);
}
