/** perft: counts the leaves of the legal move tree by playing every move (make/unmake). */
import { generateLegal, MAX_MOVES } from './movegen.js';
import type { Position } from './position.js';

export function perft(pos: Position, depth: number): number {
  const buffer = new Int32Array(MAX_MOVES * (depth + 1));
  return perftFrom(pos, depth, buffer, 0);
}

function perftFrom(pos: Position, depth: number, buffer: Int32Array, start: number): number {
  if (depth === 0) return 1;
  const end = generateLegal(pos, buffer, start);
  let nodes = 0;
  for (let i = start; i < end; i++) {
    const m = buffer[i] as number;
    pos.makeMove(m);
    nodes += depth === 1 ? 1 : perftFrom(pos, depth - 1, buffer, end);
    pos.unmakeMove(m);
  }
  return nodes;
}

/** perft that counts the last ply's moves without playing them (a separate, faster figure). */
export function perftBulk(pos: Position, depth: number): number {
  const buffer = new Int32Array(MAX_MOVES * (depth + 1));
  const go = (d: number, start: number): number => {
    const end = generateLegal(pos, buffer, start);
    if (d === 1) return end - start;
    let nodes = 0;
    for (let i = start; i < end; i++) {
      const m = buffer[i] as number;
      pos.makeMove(m);
      nodes += go(d - 1, end);
      pos.unmakeMove(m);
    }
    return nodes;
  };
  return depth === 0 ? 1 : go(depth, 0);
}
