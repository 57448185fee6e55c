/**
 * tsshogi (MIT). It has no legal-move generator, so perft builds candidates from its own
 * piece-movement tables (movableDirections / resolveMoveType / Square.neighbor), drops onto
 * every empty square, both promotion choices where its promotion rules allow one, and keeps
 * those its legality check `isValidMove` accepts; then doMove / undoMove.
 */
import {
  type Color,
  handPieceTypes,
  isPromotableRank,
  type Move,
  MoveType,
  movableDirections,
  Position,
  resolveMoveType,
  Square,
} from 'tsshogi';
import type { Library } from './adapter.js';

const VALIDATED = { ignoreValidation: true }; // doMove after isValidMove has accepted the move

function load(sfen: string): Position {
  const pos = Position.newBySFEN(sfen);
  if (!pos) throw new Error(`tsshogi rejects SFEN ${sfen}`);
  return pos;
}

function perft(pos: Position, depth: number): number {
  const board = pos.board;
  const color: Color = pos.color;
  let nodes = 0;
  const visit = (move: Move): void => {
    if (!pos.isValidMove(move)) return;
    pos.doMove(move, VALIDATED);
    nodes += depth === 1 ? 1 : perft(pos, depth - 1);
    pos.undoMove(move);
  };
  for (const from of board.listSquaresByColor(color)) {
    const piece = board.at(from);
    if (!piece) continue;
    const promotable = piece.isPromotable();
    for (const dir of movableDirections(piece)) {
      const long = resolveMoveType(piece, dir) === MoveType.LONG;
      for (let to = from.neighbor(dir); to.valid; to = to.neighbor(dir)) {
        const target = board.at(to);
        if (target && target.color === color) break;
        const move = pos.createMove(from, to);
        if (!move) break;
        visit(move);
        if (promotable && (isPromotableRank(color, from.rank) || isPromotableRank(color, to.rank))) {
          visit(move.withPromote());
        }
        if (target || !long) break;
      }
    }
  }
  const hand = pos.hand(color);
  for (const type of handPieceTypes) {
    if (hand.count(type) === 0) continue;
    for (const to of Square.all) {
      if (board.at(to)) continue;
      const move = pos.createMove(type, to);
      if (move) visit(move);
    }
  }
  return nodes;
}

export const tsshogi: Library = {
  name: 'tsshogi',
  perft(sfen, depth) {
    const pos = load(sfen);
    return () => (depth === 0 ? 1 : perft(pos, depth));
  },
  replays: [
    {
      name: 'tsshogi',
      calls: 'createMoveByUSI + doMove (which runs isValidMove)',
      prepare(sfen, moves) {
        const pos = load(sfen);
        return () => {
          let played = 0;
          for (const usi of moves) {
            const move = pos.createMoveByUSI(usi);
            if (!move || !pos.doMove(move)) break; // doMove runs isValidMove first
            played++;
          }
          return played;
        };
      },
    },
  ],
};
