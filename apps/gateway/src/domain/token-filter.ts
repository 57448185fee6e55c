/**
 * A Bloom filter of token hashes: whether a SHA-256 may be one of a valid token's, with no
 * false negatives and about FALSE_POSITIVE_RATE false positives at its design size. The
 * gateways brake lookups from an address past its failures with it (plugins/auth.ts): a
 * token the filter may hold is looked up, any other is refused without a lookup.
 *
 * The hash is a token's SHA-256, already uniformly random, so the filter's k bit positions
 * come from two of its own 32-bit words, h1 + i·h2 (Kirsch and Mitzenmacher's double hashing,
 * as good as k independent hashes for a Bloom filter), instead of hashing it again.
 */

/** the rate of false positives a filter is sized for */
export const FALSE_POSITIVE_RATE = 0.01;
/** the least design size, so that a young server's filter does not re-size at every token */
export const MIN_CAPACITY = 4096;

/** at most this many bit positions a hash (7 is the best for 1 %) */
const MAX_POSITIONS = 16;

/**
 * The hash's first two 32-bit words (its first 16 hex digits), into `into`; false when it is
 * no SHA-256 in lowercase hex (no token's). Read by hand: this runs for every token of a
 * seeding, and the rest of the hash adds nothing to two uniformly random words.
 */
function wordsOf(tokenHash: string, into: Float64Array): boolean {
  if (tokenHash.length !== 64) return false;
  for (let w = 0; w < 2; w++) {
    let word = 0;
    for (let c = w * 8; c < w * 8 + 8; c++) {
      const code = tokenHash.charCodeAt(c);
      const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
      if (digit < 0) return false;
      word = word * 16 + digit;
    }
    into[w] = word;
  }
  return true;
}

export class TokenFilter {
  /** how many distinct hashes the filter is sized for; past it the false-positive rate grows */
  readonly capacity: number;
  /** bits */
  readonly size: number;
  /** bit positions per hash */
  readonly positions: number;
  private readonly bits: Uint32Array;
  private readonly words = new Float64Array(2);
  private added = 0;

  /** a filter sized for `capacity` hashes at `rate` false positives */
  constructor(capacity: number, rate = FALSE_POSITIVE_RATE) {
    this.capacity = Math.max(1, Math.ceil(capacity));
    this.size = Math.ceil((-this.capacity * Math.log(rate)) / Math.LN2 ** 2);
    this.positions = Math.min(MAX_POSITIONS, Math.max(1, Math.round((this.size / this.capacity) * Math.LN2)));
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
    if (!wordsOf(tokenHash, this.words)) return;
    let fresh = false;
    for (let i = 0; i < this.positions; i++) {
      const bit = this.position(i);
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
    if (!wordsOf(tokenHash, this.words)) return false;
    for (let i = 0; i < this.positions; i++) {
      const bit = this.position(i);
      if (((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** the i-th bit position of the hash whose words were just read (exact: below 2^53) */
  private position(i: number): number {
    return ((this.words[0] as number) + i * (this.words[1] as number)) % this.size;
  }
}
