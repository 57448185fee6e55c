/** Games the integration tests replay through the public API. */

/**
 * A whole game from the start position to checkmate (sente mates with S*5b at ply 23).
 * Source: the demo bots' brain (apps/server/src/demo/brain.ts) with seed 197, the
 * shortest checkmate among seeds 1-400, checked by packages/rules.
 */
export const MATE_GAME = [
  '1g1f',
  '4a3b',
  '5i6h',
  '8c8d',
  '6h5h',
  '5c5d',
  '2h4h',
  '6a7b',
  '4i3h',
  '5a6a',
  '6i5i',
  '3c3d',
  '9g9f',
  '2b7g',
  '8i7g',
  '6a5a',
  'B*6b',
  '5a5b',
  '6b7a',
  '9a9b',
  '7a5c+',
  '5b6a',
  'S*5b',
] as const;

/**
 * Sennichite: both rooks step aside and back three times; the start position occurs a
 * fourth time after ply 12 with no checks, so the game is drawn (RULES.md, sennichite).
 */
export const SENNICHITE = [
  '2h3h',
  '8b7b',
  '3h2h',
  '7b8b',
  '2h3h',
  '8b7b',
  '3h2h',
  '7b8b',
  '2h3h',
  '8b7b',
  '3h2h',
  '7b8b',
] as const;

/**
 * Perpetual check: gote's king in the corner, sente's rook checks from 1c and 2c in turn.
 * Gote is to move (in check) at the start; the start position recurs after plies 4, 8
 * and 12, and ply 12 is sente's check: under `jsa` sente loses by perpetual check; under
 * `default` that move is illegal (rejected with reason perpetual_check) and the game goes on.
 */
export const PERPETUAL_SFEN = '8k/9/8R/9/9/9/9/9/4K4 w - 1';
export const PERPETUAL_CYCLE = ['1a2a', '1c2c', '2a1a', '2c1c'] as const;
