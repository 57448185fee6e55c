/** The tournament pages' pure parts: the clock as players write it, the countdown, the berserk marks on a sheet. */
import { describe, expect, test } from 'vitest';
import { berserksBySheet } from '../src/views/tournament/sheet-marks.js';
import { clockLabel, countdownText, type TournamentGame } from '../src/views/tournament/types.js';

describe('clockLabel', () => {
  test.each([
    [{ limit: 180, increment: 2, byoyomi: 0, periods: 0 }, '3+2'],
    [{ limit: 600, increment: 0, byoyomi: 30, periods: 1 }, '10|30'],
    [{ limit: 600, increment: 0, byoyomi: 30, periods: 3 }, '10|30 ×3'],
    [{ limit: 15, increment: 0, byoyomi: 0, periods: 0 }, '.25+0'],
    [{ limit: 90, increment: 1, byoyomi: 0, periods: 0 }, '1.5+1'],
  ])('%o reads %s', (clock, text) => expect(clockLabel(clock)).toBe(text));
});

describe('countdownText', () => {
  test.each([
    [0, '0:00'],
    [-5, '0:00'],
    [7.9, '0:07'],
    [247, '4:07'],
    [3909, '1:05:09'],
  ])('%d s reads %s', (seconds, text) => expect(countdownText(seconds)).toBe(text));
});

describe('berserksBySheet', () => {
  const game = (id: string, sente: string, gote: string, berserk: [boolean, boolean], status = 'finished') =>
    ({
      id,
      players: {
        sente: { id: sente, name: sente, berserk: berserk[0] },
        gote: { id: gote, name: gote, berserk: berserk[1] },
      },
      status,
      pairedAt: '2026-01-01T00:00:00Z',
    }) as TournamentGame;

  test("a player's finished games, the most recent first as the sheet; games still played are left out", () => {
    const games = [
      game('g1', 'ann', 'ben', [true, false]),
      game('g2', 'cat', 'ann', [false, false]),
      game('g3', 'ann', 'dan', [false, true]),
      game('g4', 'ben', 'ann', [false, true]),
      game('g5', 'ann', 'cat', [true, false], 'playing'),
    ];
    expect(berserksBySheet('ann', games)).toEqual([true, false, false, true]);
    expect(berserksBySheet('ben', games)).toEqual([false, false]);
    expect(berserksBySheet('eve', games)).toEqual([]);
  });
});
