/**
 * An NDJSON stream read as a lishogi client reads one: a fetch whose body is taken line by
 * line as it arrives, empty lines counted as keep-alives apart from the JSON ones.
 */

export interface NdjsonLine {
  readonly type?: string;
  readonly [key: string]: unknown;
}

export class NdjsonReader {
  keepAlives = 0;
  /** the server ended the stream */
  ended = false;
  private buffer = '';
  private readonly lines: NdjsonLine[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private readonly abort: AbortController;
  /** a read still running when a wait timed out: the next wait takes its chunk */
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;

  private constructor(body: ReadableStream<Uint8Array>, abort: AbortController) {
    this.reader = body.getReader();
    this.abort = abort;
  }

  /** Opens the stream; a refusal (no body to follow) comes back as its status and JSON. */
  static async open(
    url: string,
    token: string,
    /** a JSON body to POST (a GET without one) */
    body?: unknown,
  ): Promise<{ status: number; reader: NdjsonReader; headers: Headers } | { status: number; body: unknown }> {
    const abort = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    const post = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, { headers, signal: abort.signal, ...post });
    if (res.status !== 200 || res.body === null) return { status: res.status, body: await res.json() };
    return { status: res.status, reader: new NdjsonReader(res.body, abort), headers: res.headers };
  }

  /** The next JSON line, or null once the stream has ended; throws after `timeoutMs` without one. */
  async next(timeoutMs = 10_000): Promise<NdjsonLine | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0 && !this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no line within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), left);
      });
      this.pending ??= this.reader.read();
      const chunk = await Promise.race([this.pending, timeout]);
      clearTimeout(timer);
      if (chunk === 'timeout') throw new Error(`no line within ${timeoutMs} ms`);
      this.pending = null;
      if (chunk.done) {
        this.ended = true;
        break;
      }
      this.take(this.decoder.decode(chunk.value, { stream: true }));
    }
    return this.lines.shift() ?? null;
  }

  /** The next line of `type`, passing over others (chat lines, states); null if the stream ends first. */
  async nextOf(type: string, timeoutMs = 10_000): Promise<NdjsonLine | null> {
    for (;;) {
      const line = await this.next(timeoutMs);
      if (line === null || line.type === type) return line;
    }
  }

  /** Waits until the server ends the stream; the lines left unread are returned. */
  async rest(timeoutMs = 10_000): Promise<NdjsonLine[]> {
    const out: NdjsonLine[] = [];
    for (let line = await this.next(timeoutMs); line !== null; line = await this.next(timeoutMs)) out.push(line);
    return out;
  }

  /** The client leaves. */
  close(): void {
    this.pending?.catch(() => undefined);
    this.abort.abort();
  }

  private take(text: string): void {
    this.buffer += text;
    for (let at = this.buffer.indexOf('\n'); at >= 0; at = this.buffer.indexOf('\n')) {
      const raw = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 1);
      if (raw.trim() === '') this.keepAlives++;
      else this.lines.push(JSON.parse(raw) as NdjsonLine);
    }
  }
}
