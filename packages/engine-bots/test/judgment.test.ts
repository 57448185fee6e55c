import type { UsiScore } from '@shogi/usi';
import { describe, expect, it } from 'vitest';
import { JUDGMENT_MODEL, judge, normaliseScore, UNKNOWN_MATE_PLIES, winningChances } from '../src/index.js';

const cp = (value: number) => ({ cp: value });
const mate = (plies: number) => ({ mate: plies });

describe('normaliseScore: from the side to move to sente', () => {
  it("keeps sente's centipawns and negates gote's, never giving -0", () => {
    expect(normaliseScore({ kind: 'cp', value: 120 }, 'sente')).toEqual(cp(120));
    expect(normaliseScore({ kind: 'cp', value: 120 }, 'gote')).toEqual(cp(-120));
    expect(normaliseScore({ kind: 'cp', value: -75 }, 'gote')).toEqual(cp(75));
    const zero = normaliseScore({ kind: 'cp', value: 0 }, 'gote');
    expect('cp' in zero && Object.is(zero.cp, 0)).toBe(true);
  });

  it('signs mates by who mates: positive when sente does', () => {
    const mates = (plies: number | null, winning: boolean): UsiScore => ({ kind: 'mate', plies, winning });
    expect(normaliseScore(mates(3, true), 'sente')).toEqual(mate(3));
    expect(normaliseScore(mates(3, true), 'gote')).toEqual(mate(-3));
    expect(normaliseScore(mates(4, false), 'sente')).toEqual(mate(-4));
    expect(normaliseScore(mates(4, false), 'gote')).toEqual(mate(4));
    expect(normaliseScore(mates(0, false), 'gote')).toEqual(mate(0));
    expect(normaliseScore(mates(null, true), 'sente')).toEqual(mate(UNKNOWN_MATE_PLIES));
    expect(normaliseScore(mates(null, false), 'sente')).toEqual(mate(-UNKNOWN_MATE_PLIES));
  });

  it('drops the bound: the wire has none', () => {
    expect(normaliseScore({ kind: 'cp', value: 50, bound: 'lower' }, 'sente')).toEqual(cp(50));
    expect(normaliseScore({ kind: 'mate', plies: 5, winning: true, bound: 'upper' }, 'gote')).toEqual(mate(-5));
  });
});

describe('winningChances', () => {
  it("is lishogi's curve: tanh(cp / 2000), flat beyond 5500", () => {
    expect(JUDGMENT_MODEL.slope).toBe(0.001);
    expect(JUDGMENT_MODEL.cpCeiling).toBe(5500);
    expect(winningChances(0)).toBe(0);
    for (const x of [-4000, -600, -1, 210, 1000, 5500]) expect(winningChances(x)).toBeCloseTo(Math.tanh(x / 2000), 12);
    expect(winningChances(9000)).toBe(winningChances(5500));
    expect(winningChances(-9000)).toBe(winningChances(-5500));
  });
});

describe('judge: centipawn to centipawn, by the drop in winning chances (0.1, 0.2, 0.3)', () => {
  it.each([
    [0, -200, null], // 0.0997
    [0, -210, 'inaccuracy'], // 0.1046
    [0, -400, 'inaccuracy'], // 0.1974
    [0, -420, 'mistake'], // 0.2070
    [0, -600, 'mistake'], // 0.2913
    [0, -650, 'blunder'], // 0.3140
    [300, -1500, 'blunder'],
    [3000, 2000, 'inaccuracy'], // 0.9051 to 0.7616
    [5000, 3000, null], // 0.9866 to 0.9051: the game stays won
    [20_000, 4000, null], // the ceiling: 20000 counts as 5500
    [-200, 0, null], // an improvement
  ] as const)('sente %i → %i: %s', (before, after, judgment) => {
    expect(judge(cp(before), cp(after), 'sente')).toBe(judgment);
    // the same from gote's side of the board
    expect(judge(cp(-before), cp(-after), 'gote')).toBe(judgment);
  });

  it("judges the mover's drop, not sente's", () => {
    expect(judge(cp(0), cp(420), 'gote')).toBe('mistake');
    expect(judge(cp(0), cp(-420), 'gote')).toBeNull();
  });
});

describe('judge: mates, graded by how decided the game was', () => {
  it('a mate allowed: a blunder, a mistake below -1000, an inaccuracy below -4000', () => {
    expect(judge(cp(0), mate(-5), 'sente')).toBe('blunder');
    expect(judge(cp(-1000), mate(-5), 'sente')).toBe('blunder');
    expect(judge(cp(-1001), mate(-5), 'sente')).toBe('mistake');
    expect(judge(cp(-4000), mate(-5), 'sente')).toBe('mistake');
    expect(judge(cp(-4001), mate(-5), 'sente')).toBe('inaccuracy');
    expect(judge(cp(2000), mate(7), 'gote')).toBe('mistake');
  });

  it('a mate let go: a blunder, a mistake above 1000, an inaccuracy above 4000; into a mate against, a blunder', () => {
    expect(judge(mate(3), cp(500), 'sente')).toBe('blunder');
    expect(judge(mate(3), cp(1000), 'sente')).toBe('blunder');
    expect(judge(mate(3), cp(2000), 'sente')).toBe('mistake');
    expect(judge(mate(3), cp(4500), 'sente')).toBe('inaccuracy');
    expect(judge(mate(3), mate(-4), 'sente')).toBe('blunder');
    expect(judge(mate(-3), cp(-2000), 'gote')).toBe('mistake');
  });

  it('never judges a mate kept (even a slower one), a mate escaped, or a mate found', () => {
    expect(judge(mate(3), mate(7), 'sente')).toBeNull();
    expect(judge(mate(-3), cp(0), 'sente')).toBeNull();
    expect(judge(mate(-3), mate(5), 'sente')).toBeNull();
    expect(judge(cp(0), mate(9), 'sente')).toBeNull();
    expect(judge(cp(0), mate(-9), 'gote')).toBeNull();
  });

  it('mate 0 after the move is the opponent mated: the move mated', () => {
    expect(judge(mate(1), mate(0), 'sente')).toBeNull();
    expect(judge(mate(-1), mate(0), 'gote')).toBeNull();
    expect(judge(cp(-300), mate(0), 'sente')).toBeNull();
  });
});
