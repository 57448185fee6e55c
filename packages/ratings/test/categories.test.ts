import { describe, expect, it } from 'vitest';
import { categoryOf, estimatedSeconds, isRatingCategory, type TimeControlShape } from '../src/index.js';

const byoyomi = (mainSeconds: number, byoyomiSeconds: number, periods = 1): TimeControlShape => ({
  kind: 'byoyomi',
  mainSeconds,
  byoyomiSeconds,
  periods,
});
const fischer = (mainSeconds: number, incrementSeconds: number): TimeControlShape => ({
  kind: 'fischer',
  mainSeconds,
  incrementSeconds,
});

describe('categoryOf', () => {
  it.each([
    ['10-second shogi', byoyomi(0, 10), 400, 'bullet'],
    ['3 minutes sudden death', fischer(180, 0), 180, 'bullet'],
    ['1 min + 10 s × 3', byoyomi(60, 10, 3), 480, 'blitz'],
    ['10 minutes sudden death', fischer(600, 0), 600, 'blitz'],
    ['5 min + 3 s Fischer', fischer(300, 3), 420, 'bullet'],
    ['30-second shogi', byoyomi(0, 30), 1200, 'blitz'],
    ['10 min + 30 s (NHK Cup)', byoyomi(600, 30), 1800, 'rapid'],
    ['15 min + 60 s', byoyomi(900, 60), 3300, 'rapid'],
    ['10 min + 60 s × 5', byoyomi(600, 60, 5), 3240, 'rapid'],
    ['30 min + 60 s', byoyomi(1800, 60), 4200, 'classical'],
    ['1 hour sudden death', fischer(3600, 0), 3600, 'classical'],
  ] as const)('puts %s in its category', (_name, tc, seconds, category) => {
    expect(estimatedSeconds(tc)).toBe(seconds);
    expect(categoryOf(tc)).toBe(category);
  });
  it('keeps correspondence apart, whatever its days', () => {
    expect(categoryOf({ kind: 'correspondence', daysPerMove: 1 })).toBe('correspondence');
    expect(categoryOf({ kind: 'correspondence', daysPerMove: 14 })).toBe('correspondence');
  });
  it('gives unlimited games no category: they are never rated', () => {
    expect(categoryOf({ kind: 'unlimited' })).toBeNull();
    expect(estimatedSeconds({ kind: 'unlimited' })).toBeNull();
  });
  it('recognises its vocabulary', () => {
    expect(isRatingCategory('blitz')).toBe(true);
    expect(isRatingCategory('ultrabullet')).toBe(false);
  });
});
