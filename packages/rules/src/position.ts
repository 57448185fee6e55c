/**
 * The position: a padded mailbox board, both hands, the side to move, an incremental
 * Zobrist key, and make/unmake. Legal move generation lives in movegen.ts and the
 * single-move check in legality.ts; both work on this class without allocating.
 *
 * Nothing outside this package builds a Position directly: use `Position.fromSetup`
 * (or `parseSfen`), which validates. `Position.unchecked` is the named fast path for
 * trusted setups (the start position, copies).
 */
import { DIR_SPAN, dirIndex, KNIGHT_JUMPS, SLIDE_ATTACK, STEP_ATTACK } from './attacks.js';
import { ALL_DIRECTIONS, BOARD_SIZE, colOf, SQUARES } from './squares.js';
import { type Color, colorOf, EMPTY, KING, KNIGHT, PAWN, PROMOTED, typeOf, unpromote, WALL } from './types.js';
import { foldKey, HAND_KEYS, MAX_HAND, PIECE_KEYS, SIDE_KEYS } from './zobrist.js';

/**
 * A move packed in one integer: bits 0-7 destination, bits 8-15 origin square (or the
 * dropped piece type), bit 16 promotion, bit 17 drop.
 */
export type Move = number;
export const PROMOTE_FLAG = 1 << 16;
export const DROP_FLAG = 1 << 17;
export const moveTo = (m: Move): number => m & 0xff;
export const moveFrom = (m: Move): number => (m >> 8) & 0xff;
export const isDrop = (m: Move): boolean => (m & DROP_FLAG) !== 0;
export const isPromotion = (m: Move): boolean => (m & PROMOTE_FLAG) !== 0;
export const boardMove = (from: number, to: number, promote: boolean): Move =>
  to | (from << 8) | (promote ? PROMOTE_FLAG : 0);
export const dropMove = (type: number, to: number): Move => to | (type << 8) | DROP_FLAG;

/** Plain description of a position, the input of validated construction. */
export interface Setup {
  /** 81 piece codes in SFEN order (9a..1a, 9b..1i); 0 for empty. */
  readonly squares: readonly number[];
  /** hands[color][type] = count, for types 1..7. */
  readonly hands: readonly [readonly number[], readonly number[]];
  readonly side: Color;
  readonly moveNumber: number;
}

/** Initial depth of the undo stack; it doubles when a game grows past it. */
const INITIAL_UNDO_DEPTH = 256;

export class Position {
  readonly board = new Uint8Array(BOARD_SIZE).fill(WALL);
  /** hands[color * 8 + type] */
  readonly hands = new Uint8Array(16);
  /** Unpromoted pawns per side and column, for O(1) nifu. */
  readonly pawnsOnColumn = new Uint8Array(32);
  /** King squares; -1 when a side has no king (tsume problems). */
  readonly kingSq = new Int16Array([-1, -1]);
  side: Color = 0;
  moveNumber = 1;
  key1 = 0;
  key2 = 0;
  // undo stack
  private ply = 0;
  private undoCaptured = new Uint8Array(INITIAL_UNDO_DEPTH);
  private undoKey1 = new Int32Array(INITIAL_UNDO_DEPTH);
  private undoKey2 = new Int32Array(INITIAL_UNDO_DEPTH);

  private constructor() {
    for (const s of SQUARES) this.board[s] = EMPTY;
  }

  /** Builds a position from a setup without validating it. Trusted input only. */
  static unchecked(setup: Setup): Position {
    const pos = new Position();
    setup.squares.forEach((piece, i) => {
      const s = SQUARES[i] as number;
      if (piece !== EMPTY) pos.put(s, piece);
    });
    for (let color = 0; color < 2; color++) {
      const hand = setup.hands[color as Color];
      for (let type = 1; type < 8; type++) pos.hands[color * 8 + type] = hand[type] ?? 0;
    }
    pos.side = setup.side;
    pos.moveNumber = setup.moveNumber;
    pos.refreshKey();
    return pos;
  }

  clone(): Position {
    return Position.unchecked(this.toSetup());
  }

  toSetup(): Setup {
    const hand = (color: number): number[] =>
      Array.from({ length: 8 }, (_, t) => (t === 0 ? 0 : (this.hands[color * 8 + t] as number)));
    return {
      squares: SQUARES.map((s) => this.board[s] as number),
      hands: [hand(0), hand(1)],
      side: this.side,
      moveNumber: this.moveNumber,
    };
  }

  private put(s: number, piece: number): void {
    this.board[s] = piece;
    const type = typeOf(piece);
    const color = colorOf(piece);
    if (type === KING) this.kingSq[color] = s;
    else if (type === PAWN) this.pawnsOnColumn[color * 16 + colOf(s)]!++;
  }

  /** Recomputes the Zobrist key from scratch (used at construction and by tests). */
  computeKey(): [number, number] {
    let k1 = 0;
    let k2 = 0;
    for (const s of SQUARES) {
      const p = this.board[s] as number;
      if (p !== EMPTY) {
        k1 ^= PIECE_KEYS[0][p * BOARD_SIZE + s] as number;
        k2 ^= PIECE_KEYS[1][p * BOARD_SIZE + s] as number;
      }
    }
    for (let i = 0; i < 16; i++) {
      const idx = i * MAX_HAND + (this.hands[i] as number);
      k1 ^= HAND_KEYS[0][idx] as number;
      k2 ^= HAND_KEYS[1][idx] as number;
    }
    if (this.side === 1) {
      k1 ^= SIDE_KEYS[0];
      k2 ^= SIDE_KEYS[1];
    }
    return [k1, k2];
  }

  private refreshKey(): void {
    [this.key1, this.key2] = this.computeKey();
  }

  /** The position's key as one safe integer: equal positions (board, hands, side) share it. */
  key(): number {
    return foldKey(this.key1, this.key2);
  }

  hand(color: Color, type: number): number {
    return this.hands[color * 8 + type] as number;
  }

  /** Is `target` attacked by any piece of `by`? Scans outward from the target. */
  attackedBy(target: number, by: Color): boolean {
    const board = this.board;
    for (const d of ALL_DIRECTIONS) {
      let s = target + d;
      let p = board[s] as number;
      // the piece at s attacks target when it steps or slides in direction -d
      const di = dirIndex(-d);
      if (p !== EMPTY) {
        if (p !== WALL && colorOf(p) === by && STEP_ATTACK[p * DIR_SPAN + di]) return true;
        continue;
      }
      do {
        s += d;
        p = board[s] as number;
      } while (p === EMPTY);
      if (p !== WALL && colorOf(p) === by && SLIDE_ATTACK[p * DIR_SPAN + di]) return true;
    }
    const knight = KNIGHT | (by << 4);
    const jumps = KNIGHT_JUMPS[by] as readonly number[];
    // a knight of `by` attacks target from target - jump
    if (board[target - (jumps[0] as number)] === knight) return true;
    if (board[target - (jumps[1] as number)] === knight) return true;
    return false;
  }

  inCheck(): boolean {
    const k = this.kingSq[this.side] as number;
    return k >= 0 && this.attackedBy(k, (this.side ^ 1) as Color);
  }

  /** Is the side that just moved (not to move) in check? Such positions are impossible. */
  opponentInCheck(): boolean {
    const them = (this.side ^ 1) as Color;
    const k = this.kingSq[them] as number;
    return k >= 0 && this.attackedBy(k, this.side);
  }

  /** Plays a move assumed legal (see movegen.ts / legality.ts). */
  makeMove(m: Move): void {
    const board = this.board;
    const us = this.side;
    const to = m & 0xff;
    const ply = this.ply++;
    if (ply === this.undoKey1.length) this.growUndo();
    this.undoKey1[ply] = this.key1;
    this.undoKey2[ply] = this.key2;
    let k1 = this.key1 ^ SIDE_KEYS[0];
    let k2 = this.key2 ^ SIDE_KEYS[1];
    if (m & DROP_FLAG) {
      const type = (m >> 8) & 0xff;
      const hi = us * 8 + type;
      const n = this.hands[hi] as number;
      k1 ^= (HAND_KEYS[0][hi * MAX_HAND + n] as number) ^ (HAND_KEYS[0][hi * MAX_HAND + n - 1] as number);
      k2 ^= (HAND_KEYS[1][hi * MAX_HAND + n] as number) ^ (HAND_KEYS[1][hi * MAX_HAND + n - 1] as number);
      this.hands[hi] = n - 1;
      const piece = type | (us << 4);
      board[to] = piece;
      if (type === PAWN) this.pawnsOnColumn[us * 16 + colOf(to)]!++;
      k1 ^= PIECE_KEYS[0][piece * BOARD_SIZE + to] as number;
      k2 ^= PIECE_KEYS[1][piece * BOARD_SIZE + to] as number;
      this.undoCaptured[ply] = EMPTY;
    } else {
      const from = (m >> 8) & 0xff;
      const piece = board[from] as number;
      const captured = board[to] as number;
      this.undoCaptured[ply] = captured;
      if (captured !== EMPTY) {
        const ctype = captured & 15;
        const them = us ^ 1;
        if (ctype === PAWN) this.pawnsOnColumn[them * 16 + colOf(to)]!--;
        else if (ctype === KING) this.kingSq[them] = -1;
        const hi = us * 8 + unpromote(ctype);
        const n = this.hands[hi] as number;
        k1 ^= (HAND_KEYS[0][hi * MAX_HAND + n] as number) ^ (HAND_KEYS[0][hi * MAX_HAND + n + 1] as number);
        k2 ^= (HAND_KEYS[1][hi * MAX_HAND + n] as number) ^ (HAND_KEYS[1][hi * MAX_HAND + n + 1] as number);
        this.hands[hi] = n + 1;
        k1 ^= PIECE_KEYS[0][captured * BOARD_SIZE + to] as number;
        k2 ^= PIECE_KEYS[1][captured * BOARD_SIZE + to] as number;
      }
      const moved = m & PROMOTE_FLAG ? piece + PROMOTED : piece;
      board[from] = EMPTY;
      board[to] = moved;
      k1 ^= (PIECE_KEYS[0][piece * BOARD_SIZE + from] as number) ^ (PIECE_KEYS[0][moved * BOARD_SIZE + to] as number);
      k2 ^= (PIECE_KEYS[1][piece * BOARD_SIZE + from] as number) ^ (PIECE_KEYS[1][moved * BOARD_SIZE + to] as number);
      const type = piece & 15;
      if (type === KING) this.kingSq[us] = to;
      // a pawn only moves straight ahead, so only promotion changes its column count
      else if (type === PAWN && m & PROMOTE_FLAG) this.pawnsOnColumn[us * 16 + colOf(from)]!--;
    }
    this.key1 = k1;
    this.key2 = k2;
    this.side = (us ^ 1) as Color;
    this.moveNumber++;
  }

  private growUndo(): void {
    const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const bigger = make(a.length * 2);
      bigger.set(a);
      return bigger;
    };
    this.undoCaptured = grow(this.undoCaptured, (n) => new Uint8Array(n));
    this.undoKey1 = grow(this.undoKey1, (n) => new Int32Array(n));
    this.undoKey2 = grow(this.undoKey2, (n) => new Int32Array(n));
  }

  /** Takes back `m`, which must be the last move made. */
  unmakeMove(m: Move): void {
    const board = this.board;
    const ply = --this.ply;
    const us = (this.side ^ 1) as Color;
    this.side = us;
    this.moveNumber--;
    this.key1 = this.undoKey1[ply] as number;
    this.key2 = this.undoKey2[ply] as number;
    const to = m & 0xff;
    if (m & DROP_FLAG) {
      const type = (m >> 8) & 0xff;
      this.hands[us * 8 + type]!++;
      board[to] = EMPTY;
      if (type === PAWN) this.pawnsOnColumn[us * 16 + colOf(to)]!--;
      return;
    }
    const from = (m >> 8) & 0xff;
    const moved = board[to] as number;
    const piece = m & PROMOTE_FLAG ? moved - PROMOTED : moved;
    const captured = this.undoCaptured[ply] as number;
    board[from] = piece;
    board[to] = captured;
    const type = piece & 15;
    if (type === KING) this.kingSq[us] = from;
    else if (type === PAWN && m & PROMOTE_FLAG) this.pawnsOnColumn[us * 16 + colOf(from)]!++;
    if (captured !== EMPTY) {
      const ctype = captured & 15;
      const them = us ^ 1;
      if (ctype === PAWN) this.pawnsOnColumn[them * 16 + colOf(to)]!++;
      else if (ctype === KING) this.kingSq[them] = to;
      this.hands[us * 8 + unpromote(ctype)]!--;
    }
  }

  /** Counts each piece type (unpromoted) on the board and in hands, for validation. */
  materialCounts(): number[] {
    const counts = new Array<number>(9).fill(0);
    for (const s of SQUARES) {
      const p = this.board[s] as number;
      if (p !== EMPTY) counts[unpromote(typeOf(p))]!++;
    }
    for (let i = 0; i < 16; i++) counts[i & 7]! += this.hands[i] as number;
    return counts;
  }
}
