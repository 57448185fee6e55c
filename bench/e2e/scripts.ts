/** Whole games played by the demo brain, replayed move by move by the scripted players of bench/e2e and bench/soak. */
import { PositionHistory, startPosition } from '@shogi/rules';
import { chooseMove, seeded } from '../../apps/server/src/demo/brain.js';

export function scripts(count: number): string[][] {
  const out: string[][] = [];
  for (let seed = 1; out.length < count; seed++) {
    const random = seeded(seed);
    const game = new PositionHistory(startPosition());
    const moves: string[] = [];
    while (moves.length < 400) {
      const usi = chooseMove(game, random);
      if (usi === null) break;
      moves.push(usi);
    }
    if (moves.length >= 40) out.push(moves);
  }
  return out;
}
