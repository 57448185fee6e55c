/**
 * An NDJSON stream as lishogi serves them: chunked (clients that read in blocks see nothing
 * of an unchunked body until 512 bytes arrive), one JSON object a line, an empty line as a
 * keep-alive at least every few seconds, open until the client leaves or the server ends it.
 * A client that does not keep up is cut off rather than buffered without bound, and every
 * stream is ended when the gateway closes.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/** lishogi sends a keep-alive about every 6 s; clients time out past that, so a little sooner. */
export const KEEP_ALIVE_MS = 5000;
/** Bytes a stream may have waiting for a slow reader before it is cut off. */
export const MAX_BUFFERED = 1 << 20;

export interface NdjsonStream {
  /** Writes one line; false once the stream is closed. */
  line(value: unknown): boolean;
  /** Ends the stream (idempotent). */
  end(): void;
  readonly closed: boolean;
  /** Called once when the stream ends, whoever ends it. */
  onClose(fn: () => void): void;
}

export interface NdjsonOptions {
  readonly keepAliveMs?: number;
  readonly maxBuffered?: number;
  /** the set of open streams the gateway ends on close */
  readonly registry?: Set<NdjsonStream>;
}

/** Takes the reply over (hijack) and starts the stream with a 200. */
export function openNdjson(reply: FastifyReply, options: NdjsonOptions = {}): NdjsonStream {
  reply.hijack();
  const res: ServerResponse = reply.raw;
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache' });
  // headers go now: a client waits for them before it reads any line
  res.flushHeaders();
  const closers: (() => void)[] = [];
  const maxBuffered = options.maxBuffered ?? MAX_BUFFERED;
  let closed = false;
  const stream: NdjsonStream = {
    get closed() {
      return closed;
    },
    line(value) {
      return send(`${JSON.stringify(value)}\n`);
    },
    end() {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      options.registry?.delete(stream);
      res.end();
      for (const fn of closers.splice(0)) fn();
    },
    onClose(fn) {
      if (closed) fn();
      else closers.push(fn);
    },
  };
  const send = (text: string): boolean => {
    if (closed) return false;
    if (res.writableLength > maxBuffered) {
      stream.end();
      return false;
    }
    res.write(text);
    return true;
  };
  const keepAlive = setInterval(() => send('\n'), options.keepAliveMs ?? KEEP_ALIVE_MS);
  keepAlive.unref();
  res.on('close', () => stream.end());
  options.registry?.add(stream);
  // a client gone while the route read what the stream needs (before anyone listened for the
  // 'close' it brought) ends it at once: its slot and subscriptions are not held for ever
  if (res.req.socket.destroyed) stream.end();
  return stream;
}
