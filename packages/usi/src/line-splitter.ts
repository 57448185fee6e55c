/**
 * Splits a stream of text into lines with a bound on line length. An engine that writes
 * without ever ending a line must not make the reader hold all of it: past the bound the
 * rest of that line is dropped (only counted) and the caller is told once it ends.
 */

export type SplitLine =
  | { readonly kind: 'line'; readonly text: string }
  /** A line longer than the bound, dropped; `length` is how many characters it had, for logs. */
  | { readonly kind: 'overflow'; readonly length: number };

export class LineSplitter {
  readonly maxLength: number;
  private buffer = '';
  /** Characters seen of the current line while it is over the bound; -1 when it is not. */
  private overflowed = -1;

  constructor(maxLength: number) {
    if (!Number.isSafeInteger(maxLength) || maxLength < 1) throw new RangeError('maxLength must be a positive integer');
    this.maxLength = maxLength;
  }

  /** True while a line over the bound is being dropped (the caller may act before it ends). */
  get overflowing(): boolean {
    return this.overflowed >= 0;
  }

  /** Characters held: never more than the bound. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Feeds a chunk; returns the lines it completes. CR LF and LF both end a line. */
  push(chunk: string): SplitLine[] {
    const out: SplitLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      const end = nl < 0 ? chunk.length : nl;
      this.take(chunk, start, end);
      if (nl < 0) break;
      out.push(this.finish());
      start = nl + 1;
    }
    return out;
  }

  /** Ends the stream: a last line without a newline still counts. */
  end(): SplitLine[] {
    if (this.buffer === '' && this.overflowed < 0) return [];
    return [this.finish()];
  }

  private take(chunk: string, start: number, end: number): void {
    const length = end - start;
    if (this.overflowed >= 0) {
      this.overflowed += length;
      return;
    }
    // one character over the bound is kept back: it may be the CR of a CR LF
    if (this.buffer.length + length > this.maxLength + 1) {
      this.overflowed = this.buffer.length + length;
      this.buffer = '';
      return;
    }
    this.buffer += chunk.slice(start, end);
  }

  private finish(): SplitLine {
    if (this.overflowed >= 0) {
      const length = this.overflowed;
      this.overflowed = -1;
      return { kind: 'overflow', length };
    }
    let text = this.buffer;
    this.buffer = '';
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length > this.maxLength) return { kind: 'overflow', length: text.length };
    return { kind: 'line', text };
  }
}
