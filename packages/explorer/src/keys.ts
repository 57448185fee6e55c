/**
 * Position keys: the rules' incremental Zobrist key (two 32-bit halves over board, hands and
 * side to move, never the move number), so two move orders that reach one position meet.
 * The index splits the 64 bits into a bucket (the top 16, a row of the table) and the rest (48
 * bits, a safe JavaScript integer stored inside the row).
 */
import type { Position } from '@shogi/rules';

export const BUCKET_BITS = 16;
export const BUCKETS = 1 << BUCKET_BITS;

export interface PositionKey {
  /** 0 .. BUCKETS - 1 */
  readonly bucket: number;
  /** the low 48 bits */
  readonly rest: number;
}

export function keyOf(pos: Position): PositionKey {
  const hi = pos.key1 >>> 0;
  return { bucket: hi >>> (32 - BUCKET_BITS), rest: (hi & 0xffff) * 0x1_0000_0000 + (pos.key2 >>> 0) };
}

/** The key as 16 hex digits (the openings table's and the tests' spelling). */
export const keyText = (k: PositionKey): string =>
  k.bucket.toString(16).padStart(4, '0') + k.rest.toString(16).padStart(12, '0');
