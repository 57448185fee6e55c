/**
 * The single-move check: is this move legal here, and if not, why? Used on every
 * submitted move, so it tests only the one move (no full generation) and allocates nothing.
 * History-dependent rules (perpetual check, game over) are game.ts's concern.
 */
import { SLIDES, STEPS } from './attacks.js';
import { isDeadDrop, isPawnDropMate, mayPromote, mustPromote } from './movegen.js';
import { isDrop, isPromotion, type Move, moveFrom, moveTo, type Position } from './position.js';
import { colOf, N, S } from './squares.js';
import { EMPTY, GOLD, type IllegalReason, PAWN } from './types.js';

/** Can `piece` on `from` reach `to` by its movement, with the path clear? */
function reaches(board: Uint8Array, piece: number, from: number, to: number): boolean {
  const delta = to - from;
  const steps = STEPS[piece] as Int8Array;
  for (let i = 0; i < steps.length; i++) if (steps[i] === delta) return true;
  const slides = SLIDES[piece] as Int8Array;
  for (let i = 0; i < slides.length; i++) {
    const d = slides[i] as number;
    for (let t = from + d; ; t += d) {
      if (t === to) return true;
      if (board[t] !== EMPTY) break;
    }
  }
  return false;
}

/** Returns why `m` is illegal in `pos`, or null when it is legal (history aside). */
export function moveIllegality(pos: Position, m: Move): IllegalReason | null {
  const board = pos.board;
  const us = pos.side;
  const to = moveTo(m);
  if (isDrop(m)) {
    const type = moveFrom(m);
    if (pos.hand(us, type) === 0) return 'piece_not_in_hand';
    if (board[to] !== EMPTY) return 'drop_on_occupied';
    if (isDeadDrop(type, us, to)) return 'dead_drop';
    if (type === PAWN && pos.pawnsOnColumn[us * 16 + colOf(to)]) return 'nifu';
    if (leavesKingInCheck(pos, m)) return 'leaves_king_in_check';
    // uchifuzume: only a pawn drop straight in front of the enemy king can mate
    if (type === PAWN && to + (us === 0 ? N : S) === pos.kingSq[us ^ 1] && isPawnDropMate(pos, to)) return 'uchifuzume';
    return null;
  }
  const from = moveFrom(m);
  const piece = board[from] as number;
  if (piece === EMPTY) return 'no_piece';
  if (piece >> 4 !== us) return 'not_own_piece';
  const target = board[to] as number;
  if (target !== EMPTY && target >> 4 === us) return 'capture_own_piece';
  if (!reaches(board, piece, from, to)) return 'illegal_piece_move';
  const type = piece & 15;
  if (isPromotion(m)) {
    if (!mayPromote(type, us, from, to)) return 'cannot_promote';
  } else if (type < GOLD && mustPromote(type, us, to)) return 'must_promote';
  return leavesKingInCheck(pos, m) ? 'leaves_king_in_check' : null;
}

function leavesKingInCheck(pos: Position, m: Move): boolean {
  pos.makeMove(m);
  const exposed = pos.opponentInCheck();
  pos.unmakeMove(m);
  return exposed;
}
