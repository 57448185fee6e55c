import { describe, expect, it } from 'vitest';
import { createBatcher } from '../src/index.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('natural batching', () => {
  it('runs a lone request at once, and queues the rest into the next batch while busy', async () => {
    const batches: number[][] = [];
    const run = async (batch: number[]) => {
      batches.push(batch);
      await tick();
      return batch.map((n) => n * 10);
    };
    const call = createBatcher(run, { maxInFlight: 1 });
    const results = await Promise.all([1, 2, 3, 4].map(call));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });
  it('never puts two requests with the same key in one batch, nor more than maxBatch', async () => {
    const batches: string[][] = [];
    const call = createBatcher(
      async (batch: string[]) => {
        batches.push(batch);
        await tick();
        return batch;
      },
      { maxInFlight: 1, maxBatch: 2, key: (s) => s.charAt(0) },
    );
    await Promise.all(['a1', 'a2', 'b1', 'c1', 'a3'].map(call));
    expect(batches).toEqual([['a1'], ['a2', 'b1'], ['c1', 'a3']]);
  });
  it('rejects every request of a failed batch and keeps going', async () => {
    let fail = true;
    const call = createBatcher(async (batch: number[]) => {
      await tick();
      if (fail) throw new Error('boom');
      return batch;
    });
    await expect(call(1)).rejects.toThrow('boom');
    fail = false;
    await expect(call(2)).resolves.toBe(2);
  });
});
