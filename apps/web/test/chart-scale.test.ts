import { describe, expect, test } from 'vitest';
import { countTicks, labelEvery, niceStep } from '../src/views/chart-scale.js';

describe('chart axes', () => {
  test.each([
    [0.3, 0.5],
    [1, 1],
    [1.2, 2],
    [3, 5],
    [7, 10],
    [23, 50],
    [140, 200],
  ])('a round step of at least %s is %s', (raw, step) => {
    expect(niceStep(raw)).toBe(step);
  });

  test('a count axis starts at 0, steps evenly and reaches the largest count', () => {
    expect(countTicks(17)).toEqual([0, 5, 10, 15, 20]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(0)).toEqual([0, 1]);
    const ticks = countTicks(1234);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(1234);
    const steps = new Set(ticks.slice(1).map((t, i) => t - (ticks[i] as number)));
    expect(steps.size).toBe(1);
  });

  test('histogram labels: all when they fit, else every k-th with k round', () => {
    expect(labelEvery(8, 10)).toBe(1);
    expect(labelEvery(30, 8)).toBe(5);
    expect(labelEvery(40, 6)).toBe(10);
  });
});
