import type { UsiScore } from '@shogi/usi';
import { describe, expect, it } from 'vitest';
import { isHopeless, LEVEL_NUMBERS, RESIGNATION, shouldResign } from '../src/index.js';

const cp = (value: number, bound?: 'lower' | 'upper'): UsiScore =>
  bound === undefined ? { kind: 'cp', value } : { kind: 'cp', value, bound };
const mated = (plies: number | null): UsiScore => ({ kind: 'mate', plies, winning: false });
const mating: UsiScore = { kind: 'mate', plies: 5, winning: true };

describe('isHopeless', () => {
  it('is a mate against the side to move, or a loss of 2500 centipawns or more', () => {
    expect(RESIGNATION).toEqual({ fromLevel: 5, hopelessCp: 2500, searches: 4 });
    expect(isHopeless(cp(-2500))).toBe(true);
    expect(isHopeless(cp(-9000))).toBe(true);
    expect(isHopeless(cp(-2499))).toBe(false);
    expect(isHopeless(cp(3000))).toBe(false);
    expect(isHopeless(mated(7))).toBe(true);
    expect(isHopeless(mated(0))).toBe(true);
    expect(isHopeless(mated(null))).toBe(true);
    expect(isHopeless(mating)).toBe(false);
  });

  it('trusts an upper bound downwards, never a lower bound', () => {
    expect(isHopeless(cp(-3000, 'upper'))).toBe(true);
    expect(isHopeless(cp(-3000, 'lower'))).toBe(false);
    expect(isHopeless({ kind: 'mate', plies: 4, winning: false, bound: 'lower' })).toBe(false);
  });
});

describe('shouldResign', () => {
  const lost = [cp(-2600), mated(9), cp(-4000), mated(5)];

  it('resigns at levels 5 to 8 after four hopeless searches in a row', () => {
    for (const level of LEVEL_NUMBERS) expect(shouldResign(level, lost)).toBe(level >= 5);
  });

  it('never resigns at levels 1 to 4, even when mated', () => {
    const hopeless = Array.from({ length: 20 }, () => mated(1));
    for (const level of [1, 2, 3, 4] as const) expect(shouldResign(level, hopeless)).toBe(false);
  });

  it('waits for four: three hopeless searches are not enough', () => {
    expect(shouldResign(8, lost.slice(1))).toBe(false);
    expect(shouldResign(8, [])).toBe(false);
  });

  it('reads only the last four: a better search among them keeps it playing, older ones do not matter', () => {
    expect(shouldResign(8, [cp(300), cp(100), ...lost])).toBe(true);
    expect(shouldResign(8, [...lost.slice(0, 3), cp(-2400)])).toBe(false);
    expect(shouldResign(8, [cp(-2600), mating, cp(-4000), mated(5), mated(3)])).toBe(false);
  });

  it('a search without a score, or with a lower bound, breaks the run', () => {
    expect(shouldResign(8, [cp(-2600), undefined, cp(-4000), mated(5)])).toBe(false);
    expect(shouldResign(8, [cp(-2600), cp(-3000, 'lower'), cp(-4000), mated(5)])).toBe(false);
  });
});
