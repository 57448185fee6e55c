/** Players for match tests that need no engine: a seeded random mover and a scripted one. */
import { formatUsi, legalMoves, parseSfen } from '@shogi/rules';
import type { MatchSearch, MatchSearchAnswer } from '../src/index.js';

/** mulberry32: a small seeded generator, so a failing game can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A move drawn uniformly from the rules' legal moves in the position. */
export function randomMove(sfen: string, random: () => number): string {
  const pos = parseSfen(sfen);
  if (!pos.ok) throw new Error(`bad position from the runner: ${sfen}`);
  const moves = legalMoves(pos.value);
  const move = moves[Math.floor(random() * moves.length)];
  if (move === undefined) throw new Error('asked to move in a position without legal moves');
  return formatUsi(move);
}

export function randomMover(seed: number): MatchSearch {
  const random = seeded(seed);
  return async ({ sfen }) => ({ bestmove: { kind: 'move', move: randomMove(sfen, random) } });
}

/** Answers in turn, whoever is to move; past the end of the script, an error. */
export function scripted(answers: readonly MatchSearchAnswer[]): MatchSearch {
  let next = 0;
  return async () => {
    const answer = answers[next++];
    if (answer === undefined) throw new Error('the script ran out');
    return answer;
  };
}

export const move = (usi: string): MatchSearchAnswer => ({ bestmove: { kind: 'move', move: usi } });
