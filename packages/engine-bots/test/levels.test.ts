import { describe, expect, it } from 'vitest';
import { analysisOptions, isLevel, LEVEL_NUMBERS, LEVELS, levelOptions } from '../src/index.js';

describe('LEVELS', () => {
  it("is lichess's AI level table (fishnet): Skill Level, depth and time per move", () => {
    const table = LEVEL_NUMBERS.map((n) => [n, LEVELS[n].skill, LEVELS[n].depth, LEVELS[n].movetimeMs]);
    expect(table).toEqual([
      [1, -9, 5, 50],
      [2, -5, 5, 100],
      [3, -1, 5, 150],
      [4, 3, 5, 200],
      [5, 7, 5, 300],
      [6, 11, 8, 400],
      [7, 16, 13, 500],
      [8, 20, 22, 1000],
    ]);
  });

  it('grows stronger with the level: skill within Fairy-Stockfish range, depth and time never less', () => {
    for (const n of LEVEL_NUMBERS) {
      const spec = LEVELS[n];
      expect(spec.skill).toBeGreaterThanOrEqual(-20);
      expect(spec.skill).toBeLessThanOrEqual(20);
      expect(spec.description).not.toBe('');
      if (n === 1) continue;
      const below = LEVELS[(n - 1) as typeof n];
      expect(spec.skill).toBeGreaterThan(below.skill);
      expect(spec.depth).toBeGreaterThanOrEqual(below.depth);
      expect(spec.movetimeMs).toBeGreaterThan(below.movetimeMs);
    }
  });

  it('knows its levels', () => {
    expect(LEVEL_NUMBERS.every(isLevel)).toBe(true);
    for (const n of [0, 9, 1.5, -1, Number.NaN, '1', null]) expect(isLevel(n)).toBe(false);
  });
});

describe('engine options', () => {
  it("levelOptions sets the level's Skill Level, one line, and the resources passed in", () => {
    expect(levelOptions(3, { hash: 16, threads: 1 })).toEqual({ 'Skill Level': -1, MultiPV: 1, Hash: 16, Threads: 1 });
    expect(levelOptions(8, { hash: 64, threads: 2 })).toEqual({ 'Skill Level': 20, MultiPV: 1, Hash: 64, Threads: 2 });
  });

  it('analysisOptions is full strength, one line', () => {
    expect(analysisOptions({ hash: 32, threads: 1 })).toEqual({ 'Skill Level': 20, MultiPV: 1, Hash: 32, Threads: 1 });
  });
});
