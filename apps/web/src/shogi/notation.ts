/**
 * Japanese move notation (▲７六歩, △同　歩, ▲５五角打, ▲２二角成) from USI moves, replayed
 * on the rules engine. When two pieces of a kind can reach the square, the origin is added
 * in parentheses as in KIF (▲５八金(49)) instead of the 右/左/上/引 words: exact, and short.
 */
import {
  isDrop,
  isPromotion,
  legalMoves,
  moveFrom,
  moveTo,
  type PositionHistory,
  parseUsi,
  type Ruleset,
} from '@shogi/rules';
import { newGame } from './model.js';

const ZEN = '１２３４５６７８９';
const KAN = '一二三四五六七八九';
const NAMES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '成香', '成桂', '成銀', '馬', '龍'];

const fileOf = (s: number) => 9 - (s % 10);
const rankOf = (s: number) => ((s / 10) | 0) - 1;

/** One move in Japanese notation on the game's position before it; the game is not changed. */
export function japaneseMove(game: PositionHistory, usi: string, previousTo: number | null): string {
  const pos = game.position;
  const m = parseUsi(usi);
  if (m < 0) return usi;
  const mark = pos.side === 0 ? '▲' : '△';
  const to = moveTo(m);
  const where = previousTo === to ? '同　' : `${ZEN[fileOf(to) - 1]}${KAN[rankOf(to) - 1]}`;
  if (isDrop(m)) return `${mark}${where}${NAMES[moveFrom(m)]}打`;
  const from = moveFrom(m);
  const type = (pos.board[from] ?? 0) & 15;
  const legal = legalMoves(pos);
  let suffix = '';
  if (isPromotion(m)) suffix = '成';
  else if (legal.some((o) => isPromotion(o) && moveFrom(o) === from && moveTo(o) === to)) suffix = '不成';
  const rivals = legal.some(
    (o) => !isDrop(o) && moveTo(o) === to && moveFrom(o) !== from && ((pos.board[moveFrom(o)] ?? 0) & 15) === type,
  );
  const origin = rivals ? `(${fileOf(from)}${rankOf(from)})` : '';
  return `${mark}${where}${NAMES[type]}${suffix}${origin}`;
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
