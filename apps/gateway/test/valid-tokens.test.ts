import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIN_CAPACITY } from '../src/domain/token-filter.js';
import { type ValidTokenSource, ValidTokens } from '../src/domain/valid-tokens.js';

const randomHash = () => createHash('sha256').update(randomBytes(32)).digest('hex');

/** a table of valid hashes, read in batches; `gate` holds a scan after its first batch until released */
function table(hashes: string[]) {
  let release: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  let scans = 0;
  const source: ValidTokenSource & { fail: boolean } = {
    fail: false,
    async scan(counted, batch) {
      if (source.fail) throw new Error('database down');
      scans++;
      const rows = [...hashes];
      counted(rows.length);
      for (let i = 0; i < rows.length; i += 100) {
        batch(rows.slice(i, i + 100));
        if (gate !== null) await gate;
      }
    },
  };
  return {
    source,
    hashes,
    scans: () => scans,
    hold() {
      gate = new Promise((r) => {
        release = r;
      });
    },
    release() {
      gate = null;
      release?.();
    },
  };
}

describe('ValidTokens', () => {
  it('holds every token of its source once seeded, and refuses what it never saw', async () => {
    const rows = table(Array.from({ length: 1_000 }, randomHash));
    const valid = new ValidTokens(rows.source);
    await valid.reseed();
    expect(rows.hashes.every((h) => valid.mayHold(h))).toBe(true);
    const guesses = Array.from({ length: 1_000 }, randomHash).filter((h) => valid.mayHold(h));
    expect(guesses.length).toBeLessThan(30);
  });

  it('a token added while a seeding reads is in the filter that seeding swaps in', async () => {
    const rows = table(Array.from({ length: 500 }, randomHash));
    const valid = new ValidTokens(rows.source);
    await valid.reseed();
    rows.hold();
    const seeding = valid.reseed();
    // issued after the scan read its rows: in no row it reads
    const issued = randomHash();
    valid.add(issued);
    rows.release();
    await seeding;
    expect(valid.mayHold(issued)).toBe(true);
  });

  it('re-seeds, larger, once it fills past its design size', async () => {
    const rows = table([]);
    const valid = new ValidTokens(rows.source);
    await valid.reseed();
    expect(valid.current?.capacity).toBe(MIN_CAPACITY);
    for (let i = 0; i <= MIN_CAPACITY; i++) {
      const hash = randomHash();
      rows.hashes.push(hash);
      valid.add(hash);
    }
    await valid.reseed();
    expect(rows.scans()).toBeGreaterThanOrEqual(2);
    expect(valid.current?.capacity).toBe(2 * rows.hashes.length);
    expect(rows.hashes.every((h) => valid.mayHold(h))).toBe(true);
  });

  it('keeps the filter in use when a seeding fails', async () => {
    const rows = table(Array.from({ length: 10 }, randomHash));
    const errors: unknown[] = [];
    const valid = new ValidTokens(rows.source, (err) => errors.push(err));
    await valid.reseed();
    rows.source.fail = true;
    await expect(valid.reseed()).rejects.toThrow('database down');
    expect(errors).toHaveLength(1);
    expect(rows.hashes.every((h) => valid.mayHold(h))).toBe(true);
  });
});
