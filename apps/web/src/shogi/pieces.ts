/**
 * How pieces are written: kanji (the default) or Latin letters (USI's, `+` for promoted).
 * Types are @shogi/rules' numbers: 1..8 unpromoted, 9..14 promoted.
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
