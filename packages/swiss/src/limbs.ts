// Fixed-width integers for the matching's weights and duals: a number is `limbs` consecutive
// float64 slots, most significant first; every slot but the first holds a digit in [0, 2^48),
// the first one the signed rest. Sums of a few such digits stay exact in a float64, so a slack
// or a dual update costs a short loop and no allocation, where bigint allocated at each step.

export const LIMB_BITS = 48;
export const LIMB_BASE = 2 ** LIMB_BITS;
const LIMB_MASK = (1n << BigInt(LIMB_BITS)) - 1n;
const INVERSE_BASE = 2 ** -LIMB_BITS;

/** Limbs enough for values of `bits` bits with headroom for sums of a few of them. */
export const limbsFor = (bits: number): number => Math.max(1, Math.ceil((bits + 8 - 44) / LIMB_BITS) + 1);

/** The largest value (exclusive) that `limbs` limbs hold with that headroom. */
export const capacityBits = (limbs: number): number => LIMB_BITS * (limbs - 1) + 44;

const HEX_DIGITS = LIMB_BITS / 4;

export function writeBigint(out: Float64Array, offset: number, limbs: number, value: bigint): void {
  if (value >= 0n) {
    // One string and a parse per limb: cheaper than a bigint shift and mask per limb.
    const hex = value.toString(16);
    let end = hex.length;
    for (let i = limbs - 1; i > 0; i--) {
      const start = Math.max(0, end - HEX_DIGITS);
      out[offset + i] = start < end ? Number.parseInt(hex.slice(start, end), 16) : 0;
      end = start;
    }
    out[offset] = end > 0 ? Number.parseInt(hex.slice(0, end), 16) : 0;
    return;
  }
  let x = value;
  for (let i = limbs - 1; i > 0; i--) {
    out[offset + i] = Number(x & LIMB_MASK);
    x >>= BigInt(LIMB_BITS);
  }
  out[offset] = Number(x);
}

export function readBigint(a: Float64Array, offset: number, limbs: number): bigint {
  let x = BigInt(a[offset]!);
  for (let i = 1; i < limbs; i++) x = (x << BigInt(LIMB_BITS)) + BigInt(a[offset + i]!);
  return x;
}

/** out = a + sign * b (sign 1 or -1), normalised; out may be a or b. */
export function addInto(
  out: Float64Array,
  oo: number,
  a: Float64Array,
  ao: number,
  b: Float64Array,
  bo: number,
  sign: number,
  limbs: number,
): void {
  let carry = 0;
  for (let i = limbs - 1; i > 0; i--) {
    const x = a[ao + i]! + sign * b[bo + i]! + carry;
    const c = Math.floor(x * INVERSE_BASE);
    out[oo + i] = x - c * LIMB_BASE;
    carry = c;
  }
  out[oo] = a[ao]! + sign * b[bo]! + carry;
}

/** -1, 0 or 1 as a < b, a = b, a > b. */
export function compare(a: Float64Array, ao: number, b: Float64Array, bo: number, limbs: number): number {
  for (let i = 0; i < limbs; i++) {
    const x = a[ao + i]!;
    const y = b[bo + i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function sign(a: Float64Array, ao: number, limbs: number): number {
  const top = a[ao]!;
  if (top !== 0) return top < 0 ? -1 : 1;
  for (let i = 1; i < limbs; i++) if (a[ao + i] !== 0) return 1;
  return 0;
}

/** out = a / 2 for a non-negative even a. */
export function halveInto(out: Float64Array, oo: number, a: Float64Array, ao: number, limbs: number): void {
  let rest = 0;
  for (let i = 0; i < limbs; i++) {
    const x = a[ao + i]! + rest * LIMB_BASE;
    const q = Math.floor(x / 2);
    out[oo + i] = q;
    rest = x - 2 * q;
  }
}

export function copyInto(out: Float64Array, oo: number, a: Float64Array, ao: number, limbs: number): void {
  for (let i = 0; i < limbs; i++) out[oo + i] = a[ao + i]!;
}

export function zeroAt(out: Float64Array, oo: number, limbs: number): void {
  for (let i = 0; i < limbs; i++) out[oo + i] = 0;
}
