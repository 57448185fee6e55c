/**
 * Zobrist keys as two independent 32-bit halves (JavaScript has no fast 64-bit ints).
 * A position's key folds both halves into one 53-bit safe integer for Map lookups.
 */
import { BOARD_SIZE } from './squares.js';

/** Hands hold at most 18 of a type (pawns). */
export const MAX_HAND = 19;

function xorshift(seed: number): () => number {
  let x = seed | 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x | 0;
  };
}

const next = xorshift(0x2545f491);
/** PIECE_KEYS[half][piece * BOARD_SIZE + square] */
export const PIECE_KEYS: readonly [Int32Array, Int32Array] = [
  new Int32Array(32 * BOARD_SIZE).map(next),
  new Int32Array(32 * BOARD_SIZE).map(next),
];
/** HAND_KEYS[half][(color * 8 + type) * MAX_HAND + count] */
export const HAND_KEYS: readonly [Int32Array, Int32Array] = [
  new Int32Array(16 * MAX_HAND).map(next),
  new Int32Array(16 * MAX_HAND).map(next),
];
/** XORed in when gote is to move. */
export const SIDE_KEYS: readonly [number, number] = [next(), next()];

export const foldKey = (k1: number, k2: number): number => (k1 >>> 0) * 0x200000 + (k2 >>> 11);
