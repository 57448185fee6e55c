/**
 * The CSA protocol's TCP listener: LF-ended lines in, LF-ended lines out, one session a
 * connection. A line longer than MAX_LINE_BYTES, a line that is not UTF-8, a connection that
 * does not log in in time or that stops reading what it is sent: that connection is closed,
 * and nothing else is disturbed.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { metrics } from '@shogi/metrics';
import { MAX_LINE_BYTES, parseClientLine } from './lines.js';

export interface LineConnection {
  readonly ip: string;
  write(lines: readonly string[]): void;
  end(): void;
}

export interface LineHandler {
  /** A connection opened: what will take its lines, or null to refuse it (closed at once). */
  open(connection: LineConnection): {
    line(line: ReturnType<typeof parseClientLine>): void;
    closed(): void;
  } | null;
}

export interface ListenerOptions {
  /** a connection that has sent no line by then is closed, ms */
  readonly firstLineMs: number;
  /** unsent bytes after which a client counts as not reading, and is closed */
  readonly maxBuffered: number;
}

const LF = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class CsaListener {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly unsample: () => void;

  constructor(handler: LineHandler, options: ListenerOptions) {
    this.server = createServer((socket) => this.accept(socket, handler, options));
    this.unsample = metrics.csaConnections.read(() => [[{}, this.sockets.size]]);
  }

  /** Listens; resolves with the port (the one the OS gave for port 0). */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : port);
      });
    });
  }

  /** Stops accepting and closes every connection. */
  async close(): Promise<void> {
    this.unsample();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private accept(socket: Socket, handler: LineHandler, options: ListenerOptions): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let ended = false;
    const connection: LineConnection = {
      ip: socket.remoteAddress ?? '',
      write(lines) {
        if (ended || socket.destroyed) return;
        if (socket.writableLength > options.maxBuffered) {
          socket.destroy();
          return;
        }
        socket.write(`${lines.join('\n')}\n`);
      },
      end() {
        if (ended) return;
        ended = true;
        socket.end();
      },
    };
    const session = handler.open(connection);
    if (session === null) {
      socket.destroy();
      this.sockets.delete(socket);
      return;
    }
    let sawLine = false;
    const firstLine = setTimeout(() => {
      if (!sawLine) socket.destroy();
    }, options.firstLineMs);
    firstLine.unref();
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    socket.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let at = chunk.indexOf(LF); at >= 0; at = chunk.indexOf(LF, start)) {
        const piece = chunk.subarray(start, at);
        const bytes = pendingBytes + piece.length;
        start = at + 1;
        if (bytes > MAX_LINE_BYTES + 1) return refuse('line too long');
        const raw = pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]);
        pending = [];
        pendingBytes = 0;
        let text: string;
        try {
          text = utf8.decode(raw);
        } catch {
          return refuse('not UTF-8');
        }
        sawLine = true;
        session.line(parseClientLine(text));
        if (socket.destroyed) return;
      }
      const rest = chunk.subarray(start);
      if (rest.length === 0) return;
      pending.push(rest);
      pendingBytes += rest.length;
      if (pendingBytes > MAX_LINE_BYTES + 1) refuse('line too long');
    });
    const refuse = (reason: string) => {
      session.line({ kind: 'garbage', reason });
      socket.destroy();
    };
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(firstLine);
      this.sockets.delete(socket);
      session.closed();
    });
  }
}
