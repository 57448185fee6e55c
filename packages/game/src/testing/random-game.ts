/**
 * Seeded random playouts with the rules engine, for tests and benches that need long
 * legal games: random legal moves, preferring captures (so games end sooner).
 */
import {
  formatUsi,
  isDrop,
  legalMoves,
  type Move,
  moveTo,
  type PositionHistory,
  type Ruleset,
  START_SFEN,
} from '@shogi/rules';
import { replay } from '../move-line.js';

/** A small deterministic PRNG (LCG, glibc constants); returns values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

/** A random legal move, a capture with probability 0.7 when there is one; null when none. */
export function randomMove(game: PositionHistory, random: () => number): Move | null {
  const moves = legalMoves(game.position);
  if (moves.length === 0) return null;
  const board = game.position.board;
  const captures = moves.filter((m) => !isDrop(m) && board[moveTo(m)] !== 0);
  const from = captures.length > 0 && random() < 0.7 ? captures : moves;
  return from[Math.floor(random() * from.length)] ?? null;
}

export interface Playout {
  readonly seed: number;
  readonly moves: string[];
  readonly outcome: PositionHistory['outcome'];
}

/** Plays a seeded random game until it ends or reaches maxPlies. */
export function randomPlayout(
  seed: number,
  maxPlies = 400,
  ruleset: Ruleset = 'default',
  initialSfen = START_SFEN,
): Playout {
  const random = seededRandom(seed);
  const game = replay(initialSfen, ruleset, []);
  const moves: string[] = [];
  while (game.outcome.status === 'ongoing' && moves.length < maxPlies) {
    const m = randomMove(game, random);
    if (m === null) break;
    // a perpetual-check move is legal in the position but refused by the game: pick again
    if (game.play(m).ok) moves.push(formatUsi(m));
  }
  return { seed, moves, outcome: game.outcome };
}

/** The first seeded playout from `fromSeed` that ends in `status` within maxPlies. */
export function findPlayout(status: PositionHistory['outcome']['status'], maxPlies = 300, fromSeed = 1): Playout {
  for (let seed = fromSeed; seed < fromSeed + 500; seed++) {
    const p = randomPlayout(seed, maxPlies);
    if (p.outcome.status === status) return p;
  }
  throw new Error(`no ${status} playout within ${maxPlies} plies`);
}
