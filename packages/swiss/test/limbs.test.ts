// The fixed-width limbs the matching computes in, against bigint on random values of several
// hundred bits, signed, with carries across every limb boundary.
import { describe, expect, it } from 'vitest';
import { addInto, capacityBits, compare, halveInto, limbsFor, readBigint, sign, writeBigint } from '../src/limbs.js';

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value below 2^bits, often with long runs of zero or one bits. */
function randomBigint(next: () => number, bits: number): bigint {
  let x = 0n;
  for (let i = 0; i < bits; i += 16) {
    const r = next();
    const chunk = r < 0.2 ? 0 : r < 0.4 ? 0xffff : Math.floor(next() * 0x10000);
    x = (x << 16n) | BigInt(chunk);
  }
  return x & ((1n << BigInt(bits)) - 1n);
}

const cmp = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

describe('limbs', () => {
  const bits = 700;
  const L = limbsFor(bits);

  it('holds values of the bits it was sized for, with headroom', () => {
    expect(capacityBits(L)).toBeGreaterThanOrEqual(bits + 8);
    expect(limbsFor(36)).toBe(1);
    expect(limbsFor(37)).toBe(2);
  });

  it('round-trips, adds, subtracts, compares and halves as bigint does', () => {
    const next = random(7);
    const a = new Float64Array(L);
    const b = new Float64Array(L);
    const out = new Float64Array(L);
    for (let round = 0; round < 2000; round++) {
      const x = randomBigint(next, bits) * (next() < 0.2 ? -1n : 1n);
      const y = next() < 0.1 ? x : randomBigint(next, bits);
      writeBigint(a, 0, L, x);
      writeBigint(b, 0, L, y);
      expect(readBigint(a, 0, L)).toBe(x);
      expect(compare(a, 0, b, 0, L)).toBe(cmp(x, y));
      expect(sign(a, 0, L)).toBe(cmp(x, 0n));
      addInto(out, 0, a, 0, b, 0, 1, L);
      expect(readBigint(out, 0, L)).toBe(x + y);
      addInto(out, 0, a, 0, b, 0, -1, L);
      expect(readBigint(out, 0, L)).toBe(x - y);
      if (y >= 0n) {
        writeBigint(a, 0, L, 2n * y);
        halveInto(out, 0, a, 0, L);
        expect(readBigint(out, 0, L)).toBe(y);
      }
    }
  });
});
