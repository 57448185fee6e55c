// Whole events paired by the engine round after round, with random results, forfeits and
// requested byes: the absolute criteria hold in every round (C.04.1 b: no rematch; C.04.1 c and
// C.04.3 C.2: one pairing-allocated bye at most per player, never to one who scored an unplayed
// win; C.04.3 A.7/C.3: never three games in a row with one colour, never a colour difference
// beyond two, save for topscorers in the last round).
import { describe, expect, it } from 'vitest';
import { pairDutch, tournamentForNextRound } from '../src/index.js';
import { event } from './event.js';

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('absolute criteria over whole events', () => {
  it.each([
    [1, 11, 7],
    [2, 16, 9],
    [3, 23, 9],
    [4, 30, 7],
  ])('seed %i: %i players, %i rounds', (seed, players, rounds) => {
    const rnd = random(seed);
    const cells: string[][] = Array.from({ length: players }, () => []);
    for (let round = 0; round < rounds; round++) {
      // A few requested byes for the round ahead.
      for (const row of cells) if (rnd() < 0.05) row.push(rnd() < 0.5 ? '0000 - H' : '0000 - Z');
      const t = tournamentForNextRound(
        event(
          cells.map((row) => row.join(', ')),
          { rounds, first: 'white1' },
        ),
      );
      const pairs = pairDutch(t);
      const byes = pairs.filter((p) => p.black === null);
      expect(byes.length).toBeLessThanOrEqual(1);
      for (const bye of byes) {
        const history = cells[bye.white]!;
        expect(history.some((c) => c.endsWith('U') || c.endsWith('+') || c.endsWith('F'))).toBe(false);
        history.push('0000 - U');
      }
      for (const { white, black } of pairs) {
        if (black === null) continue;
        const met = (a: number, b: number): boolean =>
          cells[a]!.some((c) => c.trim().split(' ')[0] === String(b + 1) && !c.endsWith('+') && !c.endsWith('-'));
        expect(met(white, black)).toBe(false);
        const r = rnd();
        const forfeit = r < 0.05;
        const [ws, bs] = forfeit ? ['+', '-'] : r < 0.5 ? ['1', '0'] : r < 0.6 ? ['=', '='] : ['0', '1'];
        cells[white]!.push(`${black + 1} w ${ws}`);
        cells[black]!.push(`${white + 1} b ${bs}`);
      }
      const lastRound = round === rounds - 1;
      for (const row of cells) {
        const colours = row.filter((c) => /^\s*\d+ [wb] [10=]$/.test(c)).map((c) => c.trim().split(' ')[1]);
        const difference = Math.abs(colours.filter((c) => c === 'w').length - colours.filter((c) => c === 'b').length);
        const three = colours.slice(-3);
        const streak = three.length === 3 && three.every((c) => c === three[0]);
        if (!lastRound) {
          expect(difference).toBeLessThanOrEqual(2);
          expect(streak).toBe(false);
        }
      }
      // Players who asked for a bye this round have it already; the others got a cell now.
      const length = round + 1;
      for (const row of cells) while (row.length < length) row.push('0000 - Z');
    }
  });
});
