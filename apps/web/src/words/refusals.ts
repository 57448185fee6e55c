/**
 * Why a move cannot be played, in a player's words: the rules' reasons (packages/rules) and
 * the server's verdicts on a submitted move. Pure, so every reason's sentence is checked in
 * unit tests; the codes themselves never reach the page.
 */

/** Each reason as the end of a sentence: "You cannot play 7g7e: that piece cannot move there." */
const REASONS: Readonly<Record<string, string>> = {
  no_piece: 'there is no piece on that square',
  not_own_piece: 'that piece is not yours',
  illegal_piece_move: 'that piece cannot move there',
  capture_own_piece: 'you cannot take your own piece',
  drop_on_occupied: 'a piece is dropped only on an empty square',
  piece_not_in_hand: 'you have no such piece in hand',
  nifu: 'you already have a pawn on that file (nifu)',
  dead_drop: 'the piece could never move from there',
  must_promote: 'the piece must promote there',
  cannot_promote: 'the piece cannot promote on this move',
  leaves_king_in_check: 'your king would be in check',
  uchifuzume: 'a pawn drop may not give checkmate (uchifuzume)',
  perpetual_check: 'it would repeat a perpetual check, which loses',
  game_over: 'the game is over',
  malformed_usi: 'it was not written as a move',
  stale_ply: 'the game had moved on before it arrived',
  not_your_turn: 'it was not your turn',
  timeout: 'your time had run out',
};

/** The end of the sentence for a reason; an unknown one still reads as words. */
export const reasonClause = (reason: string): string => REASONS[reason] ?? reason.replaceAll('_', ' ');

/** A move the player typed that the rules refuse. */
export const illegalTyped = (usi: string, reason: string): string => `You cannot play ${usi}: ${reasonClause(reason)}.`;

/** The server's verdict against a move the player sent. */
export const moveRefused = (usi: string, reason: string): string =>
  `Your move ${usi} was not played: ${reasonClause(reason)}.`;
