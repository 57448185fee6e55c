/**
 * One move as players write it (KI2, the JSA's and Kakinoki's convention): `▲７六歩`, `△同　歩`
 * (a full-width space after 同 for a recapture), `▲５五角打`, `▲２二角成`, `▲２四歩不成`, and,
 * where another piece of the kind could also reach the square, the words that tell the two apart:
 *
 * - first the way the piece goes, from the mover's side: 上 (forward), 引 (back), 寄 (sideways);
 * - when that is not enough, where it comes from: 右 / 左 (the mover's right or left), or 直 for a
 *   piece going straight forward (a gold, silver or promoted piece; 直 says 上 too);
 * - both (右上, 左引, 左寄) when neither alone tells it;
 * - a dragon or horse (there are only two) says 右 / 左 by where it stands, never 直.
 *
 * Another piece "could reach" the square by its moves, pins aside, as Kifu for Windows and tsshogi
 * count it (a reader that ignores pins still finds one piece). 打 is written only when a piece on
 * the board could reach the square too; 不成 only when the move could have promoted.
 */
import { type Color, canPromoteType, DRAGON, HORSE } from '../types.js';
import { NAMES } from './kif-words.js';
import { fileOfIndex, rankOfIndex, readUsi } from './record.js';

/** The board a move is written on: 81 piece codes in SFEN order (type | color << 4) and the side to move. */
export interface Ki2Board {
  readonly squares: readonly number[];
  readonly side: Color;
}

const ZEN = '１２３４５６７８９';
const KAN = '一二三四五六七八九';

/** [file step, forward step] of each type's one-step moves (all symmetric left to right). */
const GOLDISH: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 1],
  [-1, 1],
  [1, 0],
  [-1, 0],
  [0, -1],
];
const DIAGONALS: readonly (readonly [number, number])[] = [
  [1, 1],
  [-1, 1],
  [1, -1],
  [-1, -1],
];
const ORTHOGONALS: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
];
const STEPS: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  1: [[0, 1]],
  3: [
    [1, 2],
    [-1, 2],
  ],
  4: [[0, 1], ...DIAGONALS],
  7: GOLDISH,
  8: [...GOLDISH, [1, -1], [-1, -1]],
  9: GOLDISH,
  10: GOLDISH,
  11: GOLDISH,
  12: GOLDISH,
  13: ORTHOGONALS,
  14: DIAGONALS,
};
const SLIDES: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  2: [[0, 1]],
  5: DIAGONALS,
  6: ORTHOGONALS,
  13: DIAGONALS,
  14: ORTHOGONALS,
};

const at = (file: number, rank: number): number => (rank - 1) * 9 + (9 - file);

/** Whether the piece on `from` could move to `to` by its moves, pins aside. */
function reaches(board: Ki2Board, from: number, to: number): boolean {
  const piece = board.squares[from] ?? 0;
  const type = piece & 15;
  const color = (piece >> 4) as Color;
  // the mover's forward is rank 1 for sente, rank 9 for gote; files are mirrored the same way
  const dir = color === 0 ? 1 : -1;
  const df = (fileOfIndex(to) - fileOfIndex(from)) * dir;
  const dr = (rankOfIndex(from) - rankOfIndex(to)) * dir;
  if ((STEPS[type] ?? []).some(([f, r]) => f === df && r === dr)) return true;
  const slides = SLIDES[type] ?? [];
  if (!(df === 0 || dr === 0 || Math.abs(df) === Math.abs(dr))) return false;
  const sf = Math.sign(df);
  const sr = Math.sign(dr);
  if (!slides.some(([f, r]) => f === sf && r === sr)) return false;
  const n = Math.max(Math.abs(df), Math.abs(dr));
  for (let k = 1; k < n; k++) {
    const file = fileOfIndex(from) + sf * k * dir;
    const rank = rankOfIndex(from) - sr * k * dir;
    if ((board.squares[at(file, rank)] ?? 0) !== 0) return false;
  }
  return true;
}

/** -1, 0, 1: the way a move goes from the mover's side: [sideways toward the mover's left, forward]. */
function way(board: Ki2Board, from: number, to: number): [number, number] {
  const dir = board.side === 0 ? 1 : -1;
  return [
    Math.sign((fileOfIndex(to) - fileOfIndex(from)) * dir),
    Math.sign((rankOfIndex(from) - rankOfIndex(to)) * dir),
  ];
}

/** The words that tell this move from the other pieces' (empty when none could reach the square). */
function modifiers(board: Ki2Board, from: number, to: number, type: number): string {
  const others: number[] = [];
  for (let s = 0; s < 81; s++)
    if (s !== from && board.squares[s] === (board.squares[from] ?? 0) && reaches(board, s, to)) others.push(s);
  if (others.length === 0) return '';
  const [mySide, myForward] = way(board, from, to);
  const ways = others.map((s) => way(board, s, to));
  const vertical = myForward > 0 ? '上' : myForward < 0 ? '引' : '寄';
  const sameForward = ways.filter(([, f]) => f === myForward);
  if (sameForward.length === 0) return vertical;
  const dir = board.side === 0 ? 1 : -1;
  if (type === DRAGON || type === HORSE) {
    // two pieces: right or left by where each stands, from the mover's side
    const other = others[0] as number;
    return (fileOfIndex(from) - fileOfIndex(other)) * dir < 0 ? '右' : '左';
  }
  // a piece going straight forward is the only one that does: 直, which says 上 as well
  if (mySide === 0) return '直';
  // going toward the mover's left means coming from the right
  const horizontal = mySide > 0 ? '右' : '左';
  const sameSide = ways.filter(([s]) => s === mySide);
  return sameSide.length > 0 ? `${horizontal}${vertical}` : horizontal;
}

/**
 * A move in KI2 notation, with its side's mark (▲ sente, △ gote): `lastTo` is the previous
 * move's destination (a square index, -1 when none), for 同. Null for a move that cannot be
 * written on the board (no piece on its origin, a malformed USI move).
 */
export function ki2Move(board: Ki2Board, usi: string, lastTo: number): string | null {
  const m = readUsi(usi);
  if (m === null) return null;
  const mark = board.side === 0 ? '▲' : '△';
  const where = m.to === lastTo ? '同　' : `${ZEN[fileOfIndex(m.to) - 1]}${KAN[rankOfIndex(m.to) - 1]}`;
  const mine = (s: number): boolean => {
    const p = board.squares[s] ?? 0;
    return p !== 0 && p >> 4 === board.side;
  };
  if (m.drop > 0) {
    const piece = m.drop | (board.side << 4);
    let boardMove = false;
    for (let s = 0; s < 81 && !boardMove; s++) boardMove = board.squares[s] === piece && reaches(board, s, m.to);
    return `${mark}${where}${NAMES[m.drop]}${boardMove ? '打' : ''}`;
  }
  if (!mine(m.from)) return null;
  const type = (board.squares[m.from] ?? 0) & 15;
  const words = modifiers(board, m.from, m.to, type);
  const zone = (s: number): boolean => (board.side === 0 ? rankOfIndex(s) <= 3 : rankOfIndex(s) >= 7);
  const couldPromote = canPromoteType(type) && (zone(m.from) || zone(m.to));
  const promotion = m.promote ? '成' : couldPromote ? '不成' : '';
  return `${mark}${where}${NAMES[type]}${words}${promotion}`;
}
