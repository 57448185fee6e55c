/**
 * How pieces are written: the kanji set (the default) or the international set (a Latin
 * letter, USI's, over a small kanji). Types are @shogi/rules' numbers: 1..8 unpromoted,
 * 9..14 promoted. The stored value keeps its first name, `latin`, for the international set.
 */
export type PieceStyle = 'kanji' | 'latin';

const KANJI = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '杏', '圭', '全', '馬', '龍'];
const GOTE_KING = '王';
const LATIN = ['', 'P', 'L', 'N', 'S', 'B', 'R', 'G', 'K', '+P', '+L', '+N', '+S', '+B', '+R'];
const ENGLISH = [
  '',
  'pawn',
  'lance',
  'knight',
  'silver',
  'bishop',
  'rook',
  'gold',
  'king',
  'tokin',
  'promoted lance',
  'promoted knight',
  'promoted silver',
  'horse',
  'dragon',
];

/** The glyph drawn on a piece. Gote's king is 王, sente's 玉, as in printed diagrams. */
export function pieceGlyph(type: number, gote: boolean, style: PieceStyle): string {
  if (style === 'latin') return LATIN[type] ?? '?';
  if (type === 8 && gote) return GOTE_KING;
  return KANJI[type] ?? '?';
}

/** What a screen reader says for a piece. */
export const pieceWord = (type: number): string => ENGLISH[type] ?? 'piece';

/** USI drop letters by type, for drops (`P*5e`). */
export const DROP_LETTERS = ['', 'P', 'L', 'N', 'S', 'B', 'R', 'G'];

export const isPromoted = (type: number): boolean => type >= 9;

/**
 * The size of a piece's pentagon by type, as real sets cut them: the king largest, the pawn
 * smallest; a promoted piece keeps its unpromoted size.
 */
const SCALE = [1, 0.84, 0.87, 0.89, 0.92, 0.96, 0.96, 0.92, 1];
export const pieceScale = (type: number): number => SCALE[type >= 9 ? type - 8 : type] ?? 1;

/**
 * The pentagon in a 100×100 box, pointing up (to the opponent): shoulders a fifth of the way
 * down, sides splaying to the base, as a koma is cut.
 */
export const PENTAGON = '50,3 79,15 92,97 8,97 21,15';
