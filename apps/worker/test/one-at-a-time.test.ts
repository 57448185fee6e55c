import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../src/index.js';

describe('OneAtATime', () => {
  it('runs the tasks of one game one after another, even after a failure', async () => {
    const games = new OneAtATime();
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
      games.run('g', task('g1', 20, true)),
      games.run('g', task('g2', 1)),
      games.run('h', task('h1', 5)),
    ]);
    expect(order).toEqual(['h1', 'g1', 'g2']);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  });
});
