/**
 * A game as the client follows it: the rules' PositionHistory replayed from the initial SFEN,
 * plus what the board view draws (squares, hands, last move, check). Pure: no DOM, no I/O.
 */
import {
  HAND_TYPES,
  isDrop,
  isPromotion,
  legalMoves,
  type Move,
  moveFrom,
  moveTo,
  PositionHistory,
  parseSfen,
  parseUsi,
  type Ruleset,
} from '@shogi/rules';

/** A board square as the client numbers it: row 0 is rank a (top for sente), col 0 is file 9. */
export interface Cell {
  readonly row: number;
  readonly col: number;
}
export interface BoardPiece {
  readonly type: number;
  readonly gote: boolean;
}
export interface BoardState {
  /** 81 entries, row-major from 9a */
  readonly squares: readonly (BoardPiece | null)[];
  /** hands[0] sente, hands[1] gote: [type, count] in SFEN order, counts > 0 only */
  readonly hands: readonly [readonly [number, number][], readonly [number, number][]];
  readonly sideToMove: 'sente' | 'gote';
  readonly inCheck: boolean;
  /** the checked king's index, when in check */
  readonly checkedKing: number | null;
}

// the rules engine's padded mailbox: 10 columns, two wall rows above
export const engineSquare = (index: number): number => (((index / 9) | 0) + 2) * 10 + (index % 9);
export const indexOfEngine = (s: number): number => (((s / 10) | 0) - 2) * 9 + (s % 10);

const FILES = '987654321';
const RANKS = 'abcdefghi';
/** `7g` for board index 6*9+2 */
export const usiSquare = (index: number): string => `${FILES[index % 9]}${RANKS[(index / 9) | 0]}`;

export function boardOf(game: PositionHistory): BoardState {
  const pos = game.position;
  const squares: (BoardPiece | null)[] = [];
  for (let i = 0; i < 81; i++) {
    const p = pos.board[engineSquare(i)] ?? 0;
    squares.push(p === 0 ? null : { type: p & 15, gote: ((p >> 4) & 1) === 1 });
  }
  const hand = (color: 0 | 1): [number, number][] =>
    HAND_TYPES.map((t): [number, number] => [t, pos.hand(color, t)]).filter(([, n]) => n > 0);
  const inCheck = pos.inCheck();
  const king = pos.kingSq[pos.side] ?? -1;
  return {
    squares,
    hands: [hand(0), hand(1)],
    sideToMove: pos.side === 0 ? 'sente' : 'gote',
    inCheck,
    checkedKing: inCheck && king >= 0 ? indexOfEngine(king) : null,
  };
}

/** A board from an SFEN alone (the lobby's mini boards); null when it does not parse. */
export function boardOfSfen(sfen: string): BoardState | null {
  const parsed = parseSfen(sfen);
  if (!parsed.ok) return null;
  return boardOf(new PositionHistory(parsed.value));
}

export function newGame(initialSfen: string, ruleset: Ruleset): PositionHistory {
  const parsed = parseSfen(initialSfen);
  if (!parsed.ok) throw new Error(`bad SFEN ${initialSfen}`);
  return new PositionHistory(parsed.value, ruleset);
}

/** The squares a move touches, as board indices (from is null for a drop). */
export function moveSquares(usi: string): { from: number | null; to: number } | null {
  const m = parseUsi(usi);
  if (m < 0) return null;
  return { from: isDrop(m) ? null : indexOfEngine(moveFrom(m)), to: indexOfEngine(moveTo(m)) };
}

/** The legal moves from a square (or of a hand piece type) grouped by destination. */
export interface Targets {
  /** destination index -> the moves there (one, or plain and promoting) */
  readonly byTarget: ReadonlyMap<number, Move[]>;
}

export function targetsFrom(game: PositionHistory, source: { square: number } | { dropType: number }): Targets {
  const byTarget = new Map<number, Move[]>();
  if (game.outcome.status !== 'ongoing') return { byTarget };
  for (const m of legalMoves(game.position)) {
    const matches =
      'square' in source
        ? !isDrop(m) && indexOfEngine(moveFrom(m)) === source.square
        : isDrop(m) && moveFrom(m) === source.dropType;
    if (!matches) continue;
    const to = indexOfEngine(moveTo(m));
    const list = byTarget.get(to) ?? [];
    list.push(m);
    byTarget.set(to, list);
  }
  return { byTarget };
}

/** Of the moves to one square: promotion is optional when both forms are legal. */
export function promotionChoice(moves: readonly Move[]): { plain: Move | null; promote: Move | null } {
  return {
    plain: moves.find((m) => !isPromotion(m)) ?? null,
    promote: moves.find((m) => isPromotion(m)) ?? null,
  };
}
