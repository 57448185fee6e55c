import { fold, initialState } from '@shogi/game';
import { gameCreated, moveSubmitted } from '@shogi/game/testing';
import { describe, expect, it } from 'vitest';
import { GameCache } from '../src/index.js';

const stateAt = (n: number) =>
  fold([gameCreated('g'), ...Array.from({ length: n }, () => moveSubmitted('7g7f', 0))], initialState());

describe('GameCache', () => {
  it('keeps the most advanced state and drops ended games', () => {
    const cache = new GameCache(10);
    cache.set('g', stateAt(3));
    cache.set('g', stateAt(1));
    expect(cache.get('g')?.seq).toBe(4);
    const ended = fold(
      [{ type: 'GameEnded', data: { winner: null, reason: 'abort', at: '2026-01-01T00:00:00.000Z' } }],
      stateAt(3),
    );
    cache.set('g', ended);
    expect(cache.get('g')).toBeUndefined();
  });
  it('evicts the least recently used game beyond its capacity', () => {
    const cache = new GameCache(2);
    cache.set('a', stateAt(0));
    cache.set('b', stateAt(0));
    cache.get('a');
    cache.set('c', stateAt(0));
    expect([cache.get('a') !== undefined, cache.get('b') !== undefined, cache.get('c') !== undefined]).toEqual([
      true,
      false,
      true,
    ]);
  });
  it('runs the tasks of one game one after another, even after a failure', async () => {
    const cache = new GameCache();
    const order: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      () =>
        new Promise<string>((resolve, reject) =>
          setTimeout(() => {
            order.push(name);
            if (fail) reject(new Error(name));
            else resolve(name);
          }, ms),
        );
    const results = await Promise.allSettled([
      cache.serialize('g', task('g1', 20, true)),
      cache.serialize('g', task('g2', 1)),
      cache.serialize('h', task('h1', 5)),
    ]);
    expect(order).toEqual(['h1', 'g1', 'g2']);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  });
});
