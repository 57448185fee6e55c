/**
 * The packed form of a bucket's entries, as the index stores them (one bytea per run of a
 * bucket): a version byte, the entry count, then per entry, sorted by group:
 *
 *   key delta from the previous entry (varint; 0: the same position), move code (varint),
 *   dims byte (speed << 4 | band, bit 7 set for a single game's entry), month (varint), then
 *   a single game: result (0 sente, 1 gote, 2 draw), mover's rating, ref, average rating;
 *   a group: sente, gote, draws, rating sum, top ref, top's rating, top ref - recent ref (zigzag).
 *
 * A single game's entry is about 20 bytes; the index keeps a game's plies in as many.
 */
import type { Entry } from './entries.js';

const VERSION = 1;
const SINGLE = 0x80;

class Writer {
  buf = new Uint8Array(256);
  len = 0;
  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }
  /** an unsigned varint up to 2^53 (arithmetic, not bitwise, past 31 bits) */
  varint(n: number): void {
    this.room(8);
    let v = n;
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.len++] = v;
  }
}

class Reader {
  at = 0;
  readonly buf: Uint8Array;
  constructor(buf: Uint8Array) {
    this.buf = buf;
  }
  byte(): number {
    if (this.at >= this.buf.length) throw new Error('explorer index: truncated entry');
    return this.buf[this.at++] as number;
  }
  varint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  }
}

const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** Packs entries already sorted by group (mergeEntries' output). */
export function packEntries(entries: readonly Entry[]): Uint8Array {
  const w = new Writer();
  w.byte(VERSION);
  w.varint(entries.length);
  let prev = 0;
  for (const e of entries) {
    w.varint(e.rest - prev);
    prev = e.rest;
    w.varint(e.move);
    const single = e.sente + e.gote + e.draws === 1 && e.top === e.recent;
    w.byte((single ? SINGLE : 0) | (e.speed << 4) | e.band);
    w.varint(e.month);
    if (single) {
      w.byte(e.sente === 1 ? 0 : e.gote === 1 ? 1 : 2);
      w.varint(e.ratingSum);
      w.varint(e.top);
      w.varint(e.topRating);
    } else {
      w.varint(e.sente);
      w.varint(e.gote);
      w.varint(e.draws);
      w.varint(e.ratingSum);
      w.varint(e.top);
      w.varint(e.topRating);
      w.varint(zigzag(e.top - e.recent));
    }
  }
  return w.buf.slice(0, w.len);
}

/**
 * Calls `each` for every entry of a packed run, in order; `only`, when given, skips the
 * entries of other positions without building them (a query reads one position of a bucket).
 */
export function forEachEntry(packed: Uint8Array, each: (e: Entry) => void, only?: number): void {
  const r = new Reader(packed);
  const version = r.byte();
  if (version !== VERSION) throw new Error(`explorer index: unknown version ${version}`);
  const n = r.varint();
  let rest = 0;
  for (let i = 0; i < n; i++) {
    rest += r.varint();
    const move = r.varint();
    const dims = r.byte();
    const month = r.varint();
    const single = (dims & SINGLE) !== 0;
    let sente: number;
    let gote: number;
    let draws: number;
    let ratingSum: number;
    let top: number;
    let topRating: number;
    let recent: number;
    if (single) {
      const result = r.byte();
      sente = result === 0 ? 1 : 0;
      gote = result === 1 ? 1 : 0;
      draws = result === 2 ? 1 : 0;
      ratingSum = r.varint();
      top = r.varint();
      topRating = r.varint();
      recent = top;
    } else {
      sente = r.varint();
      gote = r.varint();
      draws = r.varint();
      ratingSum = r.varint();
      top = r.varint();
      topRating = r.varint();
      recent = top - unzigzag(r.varint());
    }
    if (only !== undefined && rest !== only) continue;
    each({
      rest,
      move,
      speed: (dims >> 4) & 7,
      band: dims & 15,
      month,
      sente,
      gote,
      draws,
      ratingSum,
      top,
      topRating,
      recent,
    });
  }
}

export function unpackEntries(packed: Uint8Array): Entry[] {
  const out: Entry[] = [];
  forEachEntry(packed, (e) => out.push(e));
  return out;
}
