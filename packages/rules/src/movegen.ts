/**
 * Legal move generation. Checkers and pins are found once per call by scanning out from
 * the king, so every emitted move is legal without a make/unmake test; only king moves
 * test the destination (with the king lifted off the board, so it cannot hide behind
 * itself from a slider) and pawn drops that check test for uchifuzume.
 */
import { DIR_SPAN, dirIndex, KNIGHT_JUMPS, SLIDE_ATTACK, SLIDES, STEP_ATTACK, STEPS } from './attacks.js';
import { boardMove, dropMove, type Move, type Position } from './position.js';
import { ALL_DIRECTIONS, BOARD_SIZE, colOf, N, rowOf, S, SQUARES } from './squares.js';
import { type Color, EMPTY, GOLD, KING, KNIGHT, LANCE, PAWN, WALL } from './types.js';

/** Enough room for the legal moves of any position (the known maximum is 593). */
export const MAX_MOVES = 600;

/** ZONE[color * BOARD_SIZE + s]: s is in that side's promotion zone. */
const ZONE = new Uint8Array(2 * BOARD_SIZE);
/** EDGE[color * BOARD_SIZE + s]: rows between s and that side's last rank. */
const EDGE = new Uint8Array(2 * BOARD_SIZE);
for (const s of SQUARES) {
  const row = rowOf(s);
  ZONE[s] = row <= 2 ? 1 : 0;
  ZONE[BOARD_SIZE + s] = row >= 6 ? 1 : 0;
  EDGE[s] = row;
  EDGE[BOARD_SIZE + s] = 8 - row;
}

/** Is a piece of this type forced to promote on arriving at `to`? (RULES: dead squares) */
export function mustPromote(type: number, color: Color, to: number): boolean {
  const edge = EDGE[color * BOARD_SIZE + to] as number;
  return ((type === PAWN || type === LANCE) && edge === 0) || (type === KNIGHT && edge < 2);
}

/** May a piece of this type promote when moving from `from` to `to`? */
export function mayPromote(type: number, color: Color, from: number, to: number): boolean {
  return type < GOLD && (ZONE[color * BOARD_SIZE + from] === 1 || ZONE[color * BOARD_SIZE + to] === 1);
}

/** Is dropping this type on `to` forbidden because it could never move again? */
export const isDeadDrop = mustPromote;

// Per-call scratch, stamped so nothing needs clearing between calls.
const pinStamp = new Int32Array(BOARD_SIZE);
const pinDir = new Int8Array(BOARD_SIZE);
const blockStamp = new Int32Array(BOARD_SIZE);
let stamp = 0;

function emit(out: Int32Array, n: number, from: number, to: number, type: number, us: Color): number {
  if (type < GOLD && (ZONE[us * BOARD_SIZE + from] === 1 || ZONE[us * BOARD_SIZE + to] === 1)) {
    out[n++] = boardMove(from, to, true);
    if (mustPromote(type, us, to)) return n;
  }
  out[n++] = boardMove(from, to, false);
  return n;
}

/**
 * Writes every legal move of the side to move into `out` from index `start`; returns the
 * index after the last one.
 */
export function generateLegal(pos: Position, out: Int32Array, start = 0): number {
  const board = pos.board;
  const us = pos.side;
  const them = (us ^ 1) as Color;
  const ksq = pos.kingSq[us] as number;
  if (++stamp > 0x3fffffff) {
    stamp = 1;
    pinStamp.fill(0);
    blockStamp.fill(0);
  }
  const st = stamp;
  let checkers = 0;

  if (ksq >= 0) {
    for (const d of ALL_DIRECTIONS) {
      const di = dirIndex(-d);
      let s = ksq + d;
      let p = board[s] as number;
      if (p === WALL) continue;
      if (p !== EMPTY && p >> 4 === them) {
        if (STEP_ATTACK[p * DIR_SPAN + di]) {
          checkers++;
          blockStamp[s] = st;
        }
        continue;
      }
      if (p === EMPTY) {
        do {
          s += d;
          p = board[s] as number;
        } while (p === EMPTY);
        if (p === WALL) continue;
        if (p >> 4 === them) {
          if (SLIDE_ATTACK[p * DIR_SPAN + di]) {
            checkers++;
            for (let b = ksq + d; b !== s + d; b += d) blockStamp[b] = st;
          }
          continue;
        }
      }
      // an own piece: pinned if the next piece beyond it is an enemy slider on this line
      const own = s;
      do {
        s += d;
        p = board[s] as number;
      } while (p === EMPTY);
      if (p !== WALL && p >> 4 === them && SLIDE_ATTACK[p * DIR_SPAN + di]) {
        pinStamp[own] = st;
        pinDir[own] = d;
      }
    }
    const enemyKnight = KNIGHT | (them << 4);
    for (const j of KNIGHT_JUMPS[them] as readonly number[]) {
      if (board[ksq - j] === enemyKnight) {
        checkers++;
        blockStamp[ksq - j] = st;
      }
    }
  }

  let n = start;
  if (checkers < 2) {
    for (let i = 0; i < 81; i++) {
      const s = SQUARES[i] as number;
      const p = board[s] as number;
      if (p === EMPTY || p >> 4 !== us) continue;
      const type = p & 15;
      if (type === KING) continue;
      const pin = pinStamp[s] === st ? (pinDir[s] as number) : 0;
      const steps = STEPS[p] as Int8Array;
      for (let k = 0; k < steps.length; k++) {
        const d = steps[k] as number;
        if (pin !== 0 && d !== pin && d !== -pin) continue;
        const t = s + d;
        const q = board[t] as number;
        if (q === WALL || (q !== EMPTY && q >> 4 === us)) continue;
        if (checkers !== 0 && blockStamp[t] !== st) continue;
        n = emit(out, n, s, t, type, us);
      }
      const slides = SLIDES[p] as Int8Array;
      for (let k = 0; k < slides.length; k++) {
        const d = slides[k] as number;
        if (pin !== 0 && d !== pin && d !== -pin) continue;
        let t = s + d;
        let q = board[t] as number;
        while (q !== WALL && (q === EMPTY || q >> 4 !== us)) {
          if (checkers === 0 || blockStamp[t] === st) n = emit(out, n, s, t, type, us);
          if (q !== EMPTY) break;
          t += d;
          q = board[t] as number;
        }
      }
    }
  }

  if (ksq >= 0) {
    const king = board[ksq] as number;
    board[ksq] = EMPTY;
    const steps = STEPS[king] as Int8Array;
    for (let k = 0; k < steps.length; k++) {
      const t = ksq + (steps[k] as number);
      const q = board[t] as number;
      if (q === WALL || (q !== EMPTY && q >> 4 === us)) continue;
      if (!pos.attackedBy(t, them)) out[n++] = boardMove(ksq, t, false);
    }
    board[ksq] = king;
  }

  if (checkers < 2) n = generateDrops(pos, out, n, checkers !== 0, st);
  return n;
}

const handTypes = new Int8Array(7);

function generateDrops(pos: Position, out: Int32Array, start: number, inCheck: boolean, st: number): number {
  const us = pos.side;
  let count = 0;
  for (let t = 1; t < 8; t++) if (pos.hands[us * 8 + t]) handTypes[count++] = t;
  if (count === 0) return start;
  const board = pos.board;
  const enemyKing = pos.kingSq[us ^ 1] as number;
  const pawnAttack = us === 0 ? N : S;
  let n = start;
  for (let i = 0; i < 81; i++) {
    const s = SQUARES[i] as number;
    if (board[s] !== EMPTY) continue;
    if (inCheck && blockStamp[s] !== st) continue;
    const edge = EDGE[us * BOARD_SIZE + s] as number;
    for (let k = 0; k < count; k++) {
      const type = handTypes[k] as number;
      if (type === PAWN) {
        if (edge === 0 || pos.pawnsOnColumn[us * 16 + colOf(s)]) continue;
        if (s + pawnAttack === enemyKing && isPawnDropMate(pos, s)) continue;
      } else if (type === LANCE) {
        if (edge === 0) continue;
      } else if (type === KNIGHT) {
        if (edge < 2) continue;
      }
      out[n++] = dropMove(type, s);
    }
  }
  return n;
}

/**
 * uchifuzume: would a pawn dropped on `s` (checking the enemy king directly ahead) leave
 * the enemy no legal reply? The check is adjacent, so the only replies are a king move
 * or a capture of the pawn; each is tried on the board and undone.
 */
export function isPawnDropMate(pos: Position, s: number): boolean {
  const board = pos.board;
  const us = pos.side;
  const them = (us ^ 1) as Color;
  const k = pos.kingSq[them] as number;
  board[s] = PAWN | (us << 4);
  let mate = true;
  const king = board[k] as number;
  board[k] = EMPTY;
  const steps = STEPS[king] as Int8Array;
  for (let i = 0; i < steps.length && mate; i++) {
    const t = k + (steps[i] as number);
    const q = board[t] as number;
    if (q === WALL || (q !== EMPTY && q >> 4 === them)) continue;
    if (!pos.attackedBy(t, us)) mate = false;
  }
  board[k] = king;
  if (mate) mate = !canCaptureSafely(pos, s, them, k);
  board[s] = EMPTY;
  return mate;
}

/** Can a non-king piece of `by` capture on `target` without exposing its king on `k`? */
function canCaptureSafely(pos: Position, target: number, by: Color, k: number): boolean {
  const board = pos.board;
  const victim = board[target] as number;
  const tryFrom = (from: number): boolean => {
    const piece = board[from] as number;
    board[from] = EMPTY;
    board[target] = piece;
    const safe = !pos.attackedBy(k, (by ^ 1) as Color);
    board[from] = piece;
    board[target] = victim;
    return safe;
  };
  for (const d of ALL_DIRECTIONS) {
    const di = dirIndex(-d);
    let s = target + d;
    let p = board[s] as number;
    let adjacent = true;
    while (p === EMPTY) {
      adjacent = false;
      s += d;
      p = board[s] as number;
    }
    if (p === WALL || p >> 4 !== by || (p & 15) === KING) continue;
    const attacks = adjacent ? STEP_ATTACK[p * DIR_SPAN + di] : SLIDE_ATTACK[p * DIR_SPAN + di];
    if (attacks && tryFrom(s)) return true;
  }
  const knight = KNIGHT | (by << 4);
  for (const j of KNIGHT_JUMPS[by] as readonly number[]) {
    if (board[target - j] === knight && tryFrom(target - j)) return true;
  }
  return false;
}

/** All legal moves as a fresh array (convenience for callers off the hot path). */
export function legalMoves(pos: Position): Move[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = generateLegal(pos, buf);
  return Array.from(buf.subarray(0, n));
}

// hasLegalMove never runs inside another generation, so one scratch buffer serves all calls
const scratch = new Int32Array(MAX_MOVES);

/**
 * Does the side to move have any legal move? Asked after every move of a game (mate and
 * stalemate), so it first tries the few king steps, which settle most positions, and only
 * then generates everything.
 */
export function hasLegalMove(pos: Position): boolean {
  const us = pos.side;
  const ksq = pos.kingSq[us] as number;
  if (ksq >= 0) {
    const board = pos.board;
    const king = board[ksq] as number;
    const steps = STEPS[king] as Int8Array;
    board[ksq] = EMPTY;
    let found = false;
    for (let k = 0; k < steps.length && !found; k++) {
      const t = ksq + (steps[k] as number);
      const q = board[t] as number;
      if (q === WALL || (q !== EMPTY && q >> 4 === us)) continue;
      found = !pos.attackedBy(t, (us ^ 1) as Color);
    }
    board[ksq] = king;
    if (found) return true;
  }
  return generateLegal(pos, scratch) > 0;
}
