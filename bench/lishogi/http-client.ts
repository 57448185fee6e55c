/**
 * HTTP as a lishogi client speaks it, on node:http with one keep-alive agent: form-encoded
 * POSTs with a bearer token, and NDJSON streams read line by line as chunks arrive. node:http
 * rather than fetch: its 'data' events are the plainest reader, as `ws` is for the native
 * clients in the same process, so that the client's own cost weighs alike on both figures.
 */
import { Agent, request } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers and lines, read field by field
export type Json = any;

export interface Answer {
  readonly status: number;
  readonly body: Json;
}

export class LishogiHttp {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  readonly #host: string;
  readonly #port: number;

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.#host = url.hostname;
    this.#port = Number(url.port);
  }

  /** A POST; `body` a string is sent form-encoded, an object as JSON; the answer parsed when JSON. */
  post(path: string, token: string | null, body?: string | Record<string, unknown>): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload = '';
    if (typeof body === 'string') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    headers['content-length'] = String(Buffer.byteLength(payload));
    return new Promise((resolve, reject) => {
      const req = request(
        { host: this.#host, port: this.#port, path, method: 'POST', headers, agent: this.#agent },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: parsed(text) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * Opens an NDJSON stream: `onLine` for each JSON line (keep-alives skipped), `onEnd` once
   * when it ends, whoever ends it. A refusal (not 200) comes back as its answer.
   */
  stream(
    path: string,
    token: string,
    onLine: (line: Json) => void,
    onEnd: () => void,
  ): Promise<{ ok: true; close(): void } | { ok: false; answer: Answer }> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: this.#host, port: this.#port, path, headers: { authorization: `Bearer ${token}` }, agent: this.#agent },
        (res) => {
          res.setEncoding('utf8');
          if (res.statusCode !== 200) {
            let text = '';
            res.on('data', (chunk: string) => {
              text += chunk;
            });
            res.on('end', () => resolve({ ok: false, answer: { status: res.statusCode ?? 0, body: parsed(text) } }));
            return;
          }
          let buffer = '';
          let ended = false;
          const end = () => {
            if (ended) return;
            ended = true;
            onEnd();
          };
          res.on('data', (chunk: string) => {
            buffer += chunk;
            for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
              const raw = buffer.slice(0, at);
              buffer = buffer.slice(at + 1);
              if (raw !== '') onLine(JSON.parse(raw));
            }
          });
          res.on('end', end);
          res.on('close', end);
          res.on('error', end);
          resolve({ ok: true, close: () => req.destroy() });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

function parsed(text: string): Json {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
