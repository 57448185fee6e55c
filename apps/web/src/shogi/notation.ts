/**
 * Move notation from USI moves, replayed on the rules engine: Japanese as players write it (KI2,
 * the rules package's writer: ▲７六歩, △同　歩, ▲２二角成, ▲５八金右, ▲５二金直, 打 only where a
 * piece on the board could reach the square too), Western (P-7f, Bx2b+, G*5b, S-4c=), KIF
 * (７六歩(77), the origin instead of the words), CSA (+7776FU) and USI itself. When two pieces
 * of a kind can reach the square, Western adds the origin before the move (G6i-5h), as Hodges'
 * notation does: exact, and short.
 */
import {
  isDrop,
  isPromotion,
  ki2Move,
  legalMoves,
  moveFrom,
  moveTo,
  type PositionHistory,
  parseUsi,
  type Ruleset,
} from '@shogi/rules';
import { engineSquare, indexOfEngine, newGame } from './model.js';

const ZEN = '１２３４５６７８９';
const KAN = '一二三四五六七八九';

const fileOf = (s: number) => 9 - (s % 10);
const rankOf = (s: number) => ((s / 10) | 0) - 1;

/** The notations a move list can be written in (the settings' choice). */
export const NOTATIONS = ['japanese', 'western', 'kif', 'csa', 'usi'] as const;
export type Notation = (typeof NOTATIONS)[number];
export const isNotation = (s: unknown): s is Notation => (NOTATIONS as readonly unknown[]).includes(s);

const WESTERN = ['', 'P', 'L', 'N', 'S', 'B', 'R', 'G', 'K', '+P', '+L', '+N', '+S', '+B', '+R'];
const CSA = ['', 'FU', 'KY', 'KE', 'GI', 'KA', 'HI', 'KI', 'OU', 'TO', 'NY', 'NK', 'NG', 'UM', 'RY'];
const KIF_NAMES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '成香', '成桂', '成銀', '馬', '龍'];
const PROMOTED = 8;
const squareText = (s: number) => `${fileOf(s)}${'abcdefghi'[rankOf(s) - 1]}`;

/** One move in every notation, on the game's position before it; the game is not changed. */
export function notateMove(game: PositionHistory, usi: string, previousTo: number | null): Record<Notation, string> {
  const pos = game.position;
  const m = parseUsi(usi);
  if (m < 0) return { japanese: usi, western: usi, kif: usi, csa: usi, usi };
  const sign = pos.side === 0 ? '+' : '-';
  const to = moveTo(m);
  const kifWhere = previousTo === to ? '同　' : `${ZEN[fileOf(to) - 1]}${KAN[rankOf(to) - 1]}`;
  const digits = `${fileOf(to)}${rankOf(to)}`;
  if (isDrop(m)) {
    const type = moveFrom(m);
    return {
      japanese: japaneseMove(game, usi, previousTo),
      western: `${WESTERN[type]}*${squareText(to)}`,
      kif: `${kifWhere}${KIF_NAMES[type]}打`,
      csa: `${sign}00${digits}${CSA[type]}`,
      usi,
    };
  }
  const from = moveFrom(m);
  const type = (pos.board[from] ?? 0) & 15;
  const capture = (pos.board[to] ?? 0) !== 0;
  const legal = legalMoves(pos);
  const promotes = isPromotion(m);
  const declined = !promotes && legal.some((o) => isPromotion(o) && moveFrom(o) === from && moveTo(o) === to);
  const rivals = legal.some(
    (o) => !isDrop(o) && moveTo(o) === to && moveFrom(o) !== from && ((pos.board[moveFrom(o)] ?? 0) & 15) === type,
  );
  const choice = promotes ? '+' : declined ? '=' : '';
  return {
    japanese: japaneseMove(game, usi, previousTo),
    western: `${WESTERN[type]}${rivals ? squareText(from) : ''}${capture ? 'x' : '-'}${squareText(to)}${choice}`,
    kif: `${kifWhere}${KIF_NAMES[type]}${promotes ? '成' : declined ? '不成' : ''}(${fileOf(from)}${rankOf(from)})`,
    csa: `${sign}${fileOf(from)}${rankOf(from)}${digits}${CSA[promotes ? type + PROMOTED : type]}`,
    usi,
  };
}

/**
 * One move in Japanese notation (KI2) on the game's position before it; the game is not changed.
 * `previousTo` is the previous move's destination as the engine numbers squares, for 同.
 */
export function japaneseMove(game: PositionHistory, usi: string, previousTo: number | null): string {
  const pos = game.position;
  const squares = Array.from({ length: 81 }, (_, i) => pos.board[engineSquare(i)] ?? 0);
  const lastTo = previousTo === null ? -1 : indexOfEngine(previousTo);
  return ki2Move({ squares, side: pos.side }, usi, lastTo) ?? usi;
}

/** Every move of a game in Japanese notation; stops at the first move that does not replay. */
export function japaneseMoves(initialSfen: string, ruleset: Ruleset, moves: readonly string[]): string[] {
  const game = newGame(initialSfen, ruleset);
  const out: string[] = [];
  let previousTo: number | null = null;
  for (const usi of moves) {
    out.push(japaneseMove(game, usi, previousTo));
    if (!game.playUsi(usi).ok) break;
    previousTo = moveTo(parseUsi(usi));
  }
  return out;
}

/** Every move of a game in one notation; stops at the first move that does not replay. */
export function notatedMoves(
  initialSfen: string,
  ruleset: Ruleset,
  moves: readonly string[],
  notation: Notation,
): string[] {
  const game = newGame(initialSfen, ruleset);
  const out: string[] = [];
  let previousTo: number | null = null;
  for (const usi of moves) {
    out.push(notateMove(game, usi, previousTo)[notation]);
    if (!game.playUsi(usi).ok) break;
    previousTo = moveTo(parseUsi(usi));
  }
  return out;
}
