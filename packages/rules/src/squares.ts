/**
 * Board geometry on a padded mailbox: 9 columns plus one wall column, and two wall rows
 * above and below so that knight jumps and slider scans stop on a WALL without bounds
 * checks. Rank a is row 0 (gote's back rank); column 0 is file 9 (sente's left).
 */

export const WIDTH = 10;
export const BOARD_SIZE = WIDTH * 13;

export const sq = (row: number, col: number): number => (row + 2) * WIDTH + col;
export const rowOf = (s: number): number => ((s / WIDTH) | 0) - 2;
export const colOf = (s: number): number => s % WIDTH;
export const fileOf = (s: number): number => 9 - colOf(s);

/** The 81 playable squares in SFEN order (9a, 8a, ..., 1a, 9b, ..., 1i). */
export const SQUARES: readonly number[] = Array.from({ length: 81 }, (_, i) => sq((i / 9) | 0, i % 9));

/** True for the 81 playable squares. */
export const ON_BOARD = new Uint8Array(BOARD_SIZE);
for (const s of SQUARES) ON_BOARD[s] = 1;

export const N = -WIDTH;
export const S = WIDTH;
export const E = 1; // toward file 1
export const W = -1; // toward file 9
export const NE = N + E;
export const NW = N + W;
export const SE = S + E;
export const SW = S + W;
export const ALL_DIRECTIONS = [N, S, E, W, NE, NW, SE, SW] as const;

const FILES = '987654321';
const RANKS = 'abcdefghi';

/** Parses a USI square like `7g`; -1 when malformed. */
export function parseSquare(text: string): number {
  if (text.length !== 2) return -1;
  const file = text.charCodeAt(0) - 48;
  const rank = text.charCodeAt(1) - 97;
  if (file < 1 || file > 9 || rank < 0 || rank > 8) return -1;
  return sq(rank, 9 - file);
}

export const squareName = (s: number): string => `${FILES[colOf(s)]}${RANKS[rowOf(s)]}`;

/** Rows of the opponent's camp (the promotion zone) for a side: sente 0..2, gote 6..8. */
export const inZone = (s: number, color: number): boolean => (color === 0 ? rowOf(s) <= 2 : rowOf(s) >= 6);

/** How many rows a square lies from a side's far edge (0 = last rank for that side). */
export const rowsToEdge = (s: number, color: number): number => (color === 0 ? rowOf(s) : 8 - rowOf(s));
