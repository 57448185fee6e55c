/** A small LF-line reader over a TCP socket, for the scripted CSA clients of the bench. */
import { connect, type Socket } from 'node:net';

export class LineSocket {
  private readonly socket: Socket;
  private buffer = '';
  private readonly lines: string[] = [];
  private waiter: (() => void) | null = null;
  private ended = false;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let at = this.buffer.indexOf('\n');
      while (at >= 0) {
        this.lines.push(this.buffer.slice(0, at));
        this.buffer = this.buffer.slice(at + 1);
        at = this.buffer.indexOf('\n');
      }
      this.wakeUp();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wakeUp();
    });
    socket.on('error', () => undefined);
  }

  static async open(port: number): Promise<LineSocket> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new LineSocket(socket);
  }

  private wakeUp(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  send(line: string): void {
    this.socket.write(`${line}\n`);
  }

  /** The next line, or null when the connection closed (or nothing came for `timeoutMs`). */
  async next(timeoutMs = 30_000): Promise<string | null> {
    while (this.lines.length === 0) {
      if (this.ended) return null;
      const timedOut = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), timeoutMs);
        this.waiter = () => {
          clearTimeout(timer);
          resolve(false);
        };
      });
      if (timedOut) return null;
    }
    return this.lines.shift() ?? null;
  }

  /** Lines up to and including the first `until` accepts; null when the connection ends first. */
  async readUntil(until: (line: string) => boolean): Promise<string[] | null> {
    const out: string[] = [];
    for (;;) {
      const line = await this.next();
      if (line === null) return null;
      out.push(line);
      if (until(line)) return out;
    }
  }

  close(): void {
    this.socket.destroy();
  }
}
