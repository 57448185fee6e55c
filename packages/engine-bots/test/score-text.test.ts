import type { UsiScore } from '@shogi/usi';
import { describe, expect, it } from 'vitest';
import { scoreOfText, scoreText } from '../src/index.js';

describe('scores kept as USI text', () => {
  it.each<[string, UsiScore]>([
    ['cp 120', { kind: 'cp', value: 120 }],
    ['cp -45', { kind: 'cp', value: -45 }],
    ['mate 3', { kind: 'mate', plies: 3, winning: true }],
    ['mate -2', { kind: 'mate', plies: 2, winning: false }],
    ['mate 0', { kind: 'mate', plies: 0, winning: false }],
    ['mate +', { kind: 'mate', plies: null, winning: true }],
    ['cp 80 lowerbound', { kind: 'cp', value: 80, bound: 'lower' }],
  ])('%s both ways', (text, score) => {
    expect(scoreText(score)).toBe(text);
    expect(scoreOfText(text)).toEqual(score);
  });

  it.each(['', 'cp', 'cp ten', 'mate x', 'depth 3'])('%j is no score', (text) => {
    expect(scoreOfText(text)).toBeNull();
  });
});
