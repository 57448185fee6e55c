/**
 * The openings table (戦型): each opening is the position its standard line reaches, keyed by
 * position, so a game that reaches it by another move order is named alike. A position is
 * named by the deepest named position on the way to it (as lichess names by the longest
 * matching line); lines of one opening from either side's view share the name.
 */
import { parseSfen, parseUsi, START_SFEN } from '@shogi/rules';
import { keyOf, keyText, type PositionKey } from './keys.js';

export interface Opening {
  /** English name, as lishogi spells its openings */
  readonly name: string;
  /** the Japanese name of the 戦型 */
  readonly ja: string;
  /** the line from the even start, USI, that defines it */
  readonly line: string;
}

/** [Japanese, English, line from the even start] */
export const OPENING_LINES: readonly (readonly [string, string, string])[] = [
  ['矢倉', 'Yagura', '7g7f 8c8d 7i6h 3c3d 6g6f'],
  ['矢倉', 'Yagura', '7g7f 8c8d 7i6h 3c3d 6g6f 6a5b 5g5f 5c5d 3i4h 7a6b'],
  ['角換わり', 'Bishop Exchange (Kakugawari)', '7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g'],
  ['角換わり', 'Bishop Exchange (Kakugawari)', '2g2f 8c8d 7g7f 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g'],
  [
    '横歩取り',
    'Side Pawn Capture (Yokofudori)',
    '7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d',
  ],
  ['相掛かり', 'Double Wing Attack (Aigakari)', '2g2f 8c8d 2f2e 8d8e'],
  ['四間飛車', 'Fourth File Rook (Shikenbisha)', '7g7f 3c3d 6g6f 8c8d 2h6h'],
  ['四間飛車', 'Fourth File Rook (Shikenbisha)', '2g2f 3c3d 7g7f 4c4d 2f2e 2b3c 3i4h 8b4b'],
  ['三間飛車', 'Third File Rook (Sankenbisha)', '7g7f 3c3d 6g6f 8c8d 2h7h'],
  ['三間飛車', 'Third File Rook (Sankenbisha)', '2g2f 3c3d 7g7f 4c4d 2f2e 2b3c 3i4h 8b3b'],
  ['早石田', 'Early Ishida', '7g7f 3c3d 7f7e 8c8d 2h7h'],
  ['石田流', 'Ishida', '7g7f 3c3d 7f7e 8c8d 2h7h 8d8e 7h7f'],
  ['中飛車', 'Central Rook (Nakabisha)', '5g5f 8c8d 2h5h'],
  ['中飛車', 'Central Rook (Nakabisha)', '7g7f 3c3d 5g5f 8c8d 2h5h'],
  ['ゴキゲン中飛車', 'Gokigen Central Rook', '7g7f 3c3d 2g2f 5c5d 2f2e 8b5b'],
  ['向かい飛車', 'Opposing Rook (Mukaibisha)', '7g7f 3c3d 6g6f 8c8d 8h7g 8d8e 2h8h'],
  ['向かい飛車', 'Opposing Rook (Mukaibisha)', '7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b2b'],
  ['相振り飛車', 'Double Swinging Rook (Aifuribisha)', '7g7f 3c3d 2h6h 8b3b'],
  ['鬼殺し', 'Demon Killer (Onikoroshi)', '7g7f 3c3d 8i7g'],
  ['筋違い角', 'Sujichigai Bishop', '7g7f 3c3d 8h2b+ 3a2b B*4e'],
  ['嬉野流', 'Ureshino', '7i6h'],
];

/** Plays a line from the even start; throws on an unreadable move (the table is ours). */
function positionAfter(line: string): PositionKey {
  const start = parseSfen(START_SFEN);
  if (!start.ok) throw new Error('start position');
  const pos = start.value;
  for (const usi of line.split(' ')) {
    const m = parseUsi(usi);
    if (m < 0) throw new Error(`openings table: bad move ${usi} in ${line}`);
    pos.makeMove(m);
  }
  return keyOf(pos);
}

const TABLE: ReadonlyMap<string, Opening> = new Map(
  OPENING_LINES.map(([ja, name, line]) => [keyText(positionAfter(line)), { name, ja, line }]),
);

/** The opening a position is, if the table names it. */
export const openingAt = (key: PositionKey): Opening | null => TABLE.get(keyText(key)) ?? null;

/** The deepest named position along a path of positions (the start first), or null. */
export function openingOf(path: readonly PositionKey[]): Opening | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const o = openingAt(path[i] as PositionKey);
    if (o !== null) return o;
  }
  return null;
}
