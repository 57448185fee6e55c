import { describe, expect, test } from 'vitest';
import { gatherTurns, tickBatcher } from '../src/domain/tick-batch.js';

describe('tickBatcher', () => {
  test('calls of one turn run as one batch; a later turn starts another', async () => {
    const batches: number[][] = [];
    const add = tickBatcher<number>(async (items) => {
      batches.push(items);
    }, 10);
    await Promise.all([add(1), add(2), Promise.resolve().then(() => add(3))]);
    await add(4);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  test('a turn with more than maxBatch calls runs in chunks', async () => {
    const batches: number[][] = [];
    const add = tickBatcher<number>(async (items) => {
      batches.push(items);
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map(add));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  test("a failed batch rejects each of its callers, not the other chunks'", async () => {
    const add = tickBatcher<number>(async (items) => {
      if (items.includes(3)) throw new Error('redis down');
    }, 2);
    const results = await Promise.allSettled([1, 2, 3, 4].map(add));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('redis down'));
  });

  test('over `turns` turns: calls of the next turns join the batch, the turn after starts another', async () => {
    const batches: number[][] = [];
    const add = tickBatcher<number>(
      async (items) => {
        batches.push(items);
      },
      10,
      3,
    );
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const calls = [add(1)];
    await turn();
    calls.push(add(2));
    await turn();
    calls.push(add(3));
    await Promise.all(calls);
    await add(4);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  test('turns must be a positive integer', () => {
    expect(() => tickBatcher<number>(async () => {}, 10, 0)).toThrow(/turns must be a positive integer/);
  });
});

describe('gatherTurns', () => {
  test('one turn on one queue, two per queue when the moves are split', () => {
    expect(gatherTurns(1)).toBe(1);
    expect(gatherTurns(2)).toBe(4);
    expect(gatherTurns(3)).toBe(6);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => gatherTurns(bad)).toThrow(/at least 1/);
  });
});
