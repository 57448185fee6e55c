/**
 * What the lishogi account, challenge and event tests share: an account of a given username
 * with its session and a personal token of the scopes a lishogi client asks for (as its author
 * makes one: `POST /api/tokens` from a session), and the lines of an event stream over real
 * HTTP, as a bot client reads lishogi's.
 */
import type { FastifyInstance } from 'fastify';
import { Conditions } from './conditions.js';
import { bearer, call } from './harness.js';

export interface TestAccount {
  readonly id: string;
  readonly username: string;
  /** a session token: `play` and `read`, this server's own routes */
  readonly session: string;
  /** a personal token with the scopes asked for */
  readonly token: string;
}

export async function accountWithToken(
  app: FastifyInstance,
  username: string,
  scopes: readonly string[],
): Promise<TestAccount> {
  const password = 'correct horse battery';
  const registered = await call(app, 'POST', '/api/accounts', { username, password });
  if (registered.status !== 201) throw new Error(`account ${username}: ${JSON.stringify(registered.body)}`);
  const session = (await call(app, 'POST', '/api/session', { username, password })).body.token as string;
  const made = await call(app, 'POST', '/api/tokens', { name: 'lishogi client', scopes }, bearer(session));
  if (made.status !== 201) throw new Error(`token of ${username}: ${JSON.stringify(made.body)}`);
  return { id: registered.body.id, username, session, token: made.body.token };
}

// biome-ignore lint/suspicious/noExplicitAny: JSON lines, read field by field
export type StreamLine = { readonly type: string } & Record<string, any>;

/**
 * An NDJSON stream's lines kept as they arrive, for tests that wait for a matching line among
 * many and look back over all of them (ndjson-client.ts reads a stream one line at a time),
 * and how many keep-alive (empty) lines came.
 */
export class LineLog {
  readonly lines: StreamLine[] = [];
  keepAlives = 0;
  ended = false;
  private readonly conditions = new Conditions();
  private readonly controller: AbortController;

  private constructor(controller: AbortController) {
    this.controller = controller;
  }

  /** Opens the stream; `status` and `contentType` are the answer's, the lines follow. */
  static async open(
    url: string,
    token: string,
  ): Promise<{ status: number; contentType: string | null; body: unknown; reader: LineLog }> {
    const controller = new AbortController();
    const res = await fetch(url, { headers: bearer(token), signal: controller.signal });
    const reader = new LineLog(controller);
    const contentType = res.headers.get('content-type');
    if (res.status !== 200) return { status: res.status, contentType, body: await res.json(), reader };
    void reader.pump(res.body as ReadableStream<Uint8Array>);
    return { status: res.status, contentType, body: null, reader };
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
          const line = buffer.slice(0, at);
          buffer = buffer.slice(at + 1);
          if (line === '') this.keepAlives++;
          else this.lines.push(JSON.parse(line) as StreamLine);
          this.conditions.notify();
        }
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    this.conditions.notify();
  }

  /** The first line that matches, once it has come. */
  async waitFor(match: (line: StreamLine) => boolean, timeoutMs = 10_000): Promise<StreamLine> {
    await this.conditions.until(
      () => this.lines.some(match),
      timeoutMs,
      () => `no matching line in ${JSON.stringify(this.lines)}`,
    );
    return this.lines.find(match) as StreamLine;
  }

  async until(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    await this.conditions.until(test, timeoutMs, () => `${what}; lines: ${JSON.stringify(this.lines)}`);
  }

  close(): void {
    this.controller.abort();
  }
}
