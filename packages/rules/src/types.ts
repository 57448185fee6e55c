/**
 * Closed vocabularies and the numeric encodings the engine uses internally.
 *
 * Pieces are small integers so the board fits in a Uint8Array:
 *   type   1..8  unpromoted (pawn, lance, knight, silver, bishop, rook, gold, king)
 *          9..14 promoted (type + 8) for pawn..rook
 *   piece  type | color << 4   (sente 1..14, gote 17..30), 0 = empty, WALL = 64.
 */

export const COLORS = ['sente', 'gote'] as const;
export type ColorName = (typeof COLORS)[number];
/** 0 = sente (black, moves first, uppercase in SFEN), 1 = gote. */
export type Color = 0 | 1;

export const PAWN = 1;
export const LANCE = 2;
export const KNIGHT = 3;
export const SILVER = 4;
export const BISHOP = 5;
export const ROOK = 6;
export const GOLD = 7;
export const KING = 8;
export const PROMOTED = 8;
export const TOKIN = PAWN + PROMOTED;
export const HORSE = BISHOP + PROMOTED;
export const DRAGON = ROOK + PROMOTED;

export const EMPTY = 0;
export const WALL = 64;

/** Piece types that can be held in hand, in the order SFEN writes hands. */
export const HAND_TYPES = [ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN] as const;

/** How many pieces of each unpromoted type exist in a full set (both sides). */
export const PIECE_TOTALS: Readonly<Record<number, number>> = {
  [PAWN]: 18,
  [LANCE]: 4,
  [KNIGHT]: 4,
  [SILVER]: 4,
  [GOLD]: 4,
  [BISHOP]: 2,
  [ROOK]: 2,
  [KING]: 2,
};

export const pieceOf = (type: number, color: Color): number => type | (color << 4);
export const typeOf = (piece: number): number => piece & 15;
export const colorOf = (piece: number): Color => ((piece >> 4) & 1) as Color;
export const unpromote = (type: number): number => (type > KING ? type - PROMOTED : type);
export const canPromoteType = (type: number): boolean => type < GOLD;

export const RULESETS = ['default', 'jsa'] as const;
export type Ruleset = (typeof RULESETS)[number];

/** Why a move is illegal; a closed catalog shared by the CLI, the workers and the gateway. */
export const ILLEGAL_REASONS = [
  'no_piece',
  'not_own_piece',
  'illegal_piece_move',
  'capture_own_piece',
  'drop_on_occupied',
  'piece_not_in_hand',
  'nifu',
  'dead_drop',
  'must_promote',
  'cannot_promote',
  'leaves_king_in_check',
  'uchifuzume',
  'perpetual_check',
  'game_over',
] as const;
export type IllegalReason = (typeof ILLEGAL_REASONS)[number];

export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };
export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });
