/**
 * Precomputed movement tables, built once at module load. Directions are mailbox offsets
 * (see squares.ts) written from sente's point of view; gote's are the negation.
 */
import { E, N, NE, NW, S, SE, SW, W } from './squares.js';
import { BISHOP, DRAGON, GOLD, HORSE, KING, KNIGHT, LANCE, PAWN, PROMOTED, ROOK, SILVER } from './types.js';

const GOLD_STEPS = [N, NE, NW, E, W, S];
const KING_STEPS = [N, NE, NW, E, W, S, SE, SW];

/** One-step moves (including the knight's jump) of each type, for sente. */
const SENTE_STEPS: Record<number, number[]> = {
  [PAWN]: [N],
  [LANCE]: [],
  [KNIGHT]: [2 * N + E, 2 * N + W],
  [SILVER]: [N, NE, NW, SE, SW],
  [GOLD]: GOLD_STEPS,
  [BISHOP]: [],
  [ROOK]: [],
  [KING]: KING_STEPS,
  [PAWN + PROMOTED]: GOLD_STEPS,
  [LANCE + PROMOTED]: GOLD_STEPS,
  [KNIGHT + PROMOTED]: GOLD_STEPS,
  [SILVER + PROMOTED]: GOLD_STEPS,
  [HORSE]: [N, S, E, W],
  [DRAGON]: [NE, NW, SE, SW],
};

/** Sliding directions of each type, for sente. */
const SENTE_SLIDES: Record<number, number[]> = {
  [LANCE]: [N],
  [BISHOP]: [NE, NW, SE, SW],
  [ROOK]: [N, S, E, W],
  [HORSE]: [NE, NW, SE, SW],
  [DRAGON]: [N, S, E, W],
};

/** STEPS[piece] / SLIDES[piece]: direction lists indexed by the full piece code. */
export const STEPS: Int8Array[] = [];
export const SLIDES: Int8Array[] = [];

/** Offset into the direction-indexed tables: directions span -21..21. */
export const DIR_SPAN = 43;
export const dirIndex = (d: number): number => d + 21;
/** STEP_ATTACK[piece * DIR_SPAN + dirIndex(d)] = 1 when the piece attacks the square one step d away. */
export const STEP_ATTACK = new Uint8Array(32 * DIR_SPAN);
/** SLIDE_ATTACK[piece * DIR_SPAN + dirIndex(d)] = 1 when the piece slides along d. */
export const SLIDE_ATTACK = new Uint8Array(32 * DIR_SPAN);

for (let color = 0; color < 2; color++) {
  const sign = color === 0 ? 1 : -1;
  for (let type = 1; type <= 14; type++) {
    const piece = type | (color << 4);
    const steps = (SENTE_STEPS[type] ?? []).map((d) => d * sign);
    const slides = (SENTE_SLIDES[type] ?? []).map((d) => d * sign);
    STEPS[piece] = Int8Array.from(steps);
    SLIDES[piece] = Int8Array.from(slides);
    for (const d of steps) STEP_ATTACK[piece * DIR_SPAN + dirIndex(d)] = 1;
    for (const d of slides) {
      STEP_ATTACK[piece * DIR_SPAN + dirIndex(d)] = 1;
      SLIDE_ATTACK[piece * DIR_SPAN + dirIndex(d)] = 1;
    }
  }
}
for (let piece = 0; piece < 32; piece++) {
  STEPS[piece] ??= new Int8Array(0);
  SLIDES[piece] ??= new Int8Array(0);
}

/** Knight jump offsets of a side (where a knight of that colour lands). */
export const KNIGHT_JUMPS: readonly (readonly number[])[] = [
  [2 * N + E, 2 * N + W],
  [2 * S + E, 2 * S + W],
];
