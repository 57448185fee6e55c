/**
 * A Bloom filter of token hashes: whether a SHA-256 may be one of a valid token's, with no
 * false negatives and about FALSE_POSITIVE_RATE false positives at its design size. The
 * gateways brake lookups from an address past its failures with it (plugins/auth.ts): a
 * token the filter may hold is looked up, any other is refused without a lookup.
 *
 * The hash is a token's SHA-256, already uniformly random, so the filter's k bit positions
 * are taken from its own 32-bit words instead of hashing it again.
 */

/** the rate of false positives a filter is sized for */
export const FALSE_POSITIVE_RATE = 0.01;
/** the least design size, so that a young server's filter does not re-size at every token */
export const MIN_CAPACITY = 4096;

const WORDS = 8; // a SHA-256 is eight 32-bit words: at most 8 positions per hash
const HEX = /^[0-9a-f]{64}$/;

export class TokenFilter {
  /** how many distinct hashes the filter is sized for; past it the false-positive rate grows */
  readonly capacity: number;
  /** bits */
  readonly size: number;
  /** bit positions per hash */
  readonly positions: number;
  private readonly bits: Uint32Array;
  private added = 0;

  /** a filter sized for `capacity` hashes at `rate` false positives */
  constructor(capacity: number, rate = FALSE_POSITIVE_RATE) {
    this.capacity = Math.max(1, Math.ceil(capacity));
    this.size = Math.ceil((-this.capacity * Math.log(rate)) / Math.LN2 ** 2);
    this.positions = Math.min(WORDS, Math.max(1, Math.round((this.size / this.capacity) * Math.LN2)));
    this.bits = new Uint32Array(Math.ceil(this.size / 32));
  }

  /** a filter for `count` hashes now, with room to grow as many again before it re-sizes */
  static forCount(count: number): TokenFilter {
    return new TokenFilter(Math.max(MIN_CAPACITY, 2 * count));
  }

  /** hashes added that set some new bit: about the distinct hashes held */
  get count(): number {
    return this.added;
  }

  /** past its design size: its false-positive rate is above the designed one */
  get full(): boolean {
    return this.added > this.capacity;
  }

  /**
   * Adds a token hash (64 lowercase hex digits; anything else is no token's, and ignored); a
   * hash already held is not counted again.
   */
  add(tokenHash: string): void {
    if (!HEX.test(tokenHash)) return;
    let fresh = false;
    for (let i = 0; i < this.positions; i++) {
      const bit = this.position(tokenHash, i);
      const mask = 1 << (bit & 31);
      const word = bit >>> 5;
      const held = this.bits[word] as number;
      if ((held & mask) === 0) {
        fresh = true;
        this.bits[word] = held | mask;
      }
    }
    if (fresh) this.added++;
  }

  /** false: the hash was never added; true: it may have been (or is a false positive) */
  mayHold(tokenHash: string): boolean {
    if (!HEX.test(tokenHash)) return false;
    for (let i = 0; i < this.positions; i++) {
      const bit = this.position(tokenHash, i);
      if (((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  private position(tokenHash: string, i: number): number {
    return Number.parseInt(tokenHash.slice(i * 8, i * 8 + 8), 16) % this.size;
  }
}
