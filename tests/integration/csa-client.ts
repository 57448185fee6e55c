/**
 * A small CSA protocol client for the tests, written from the CSA server protocol document
 * (version 1.2.1: LF-ended lines, LOGIN, the Game_Summary block, AGREE/START, moves echoed
 * with `,T<seconds>`, the `#` result lines) and nothing of this server's code.
 */
import { connect, type Socket } from 'node:net';

export interface Summary {
  readonly lines: readonly string[];
  readonly gameId: string;
  /** '+' or '-' */
  readonly yourTurn: string;
  readonly field: (name: string) => string | undefined;
}

export class CsaClient {
  private readonly socket: Socket;
  private buffer = '';
  private readonly lines: string[] = [];
  private waiter: (() => void) | null = null;
  private ended = false;
  /** every line received, in order */
  readonly received: string[] = [];
  readonly closed: Promise<void>;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let at = this.buffer.indexOf('\n'); at >= 0; at = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        this.lines.push(line);
        this.received.push(line);
      }
      this.waiter?.();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.ended = true;
        this.waiter?.();
        resolve();
      });
    });
    socket.on('error', () => undefined);
  }

  static async open(port: number, host = '127.0.0.1'): Promise<CsaClient> {
    const socket = connect(port, host);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new CsaClient(socket);
  }

  get isClosed(): boolean {
    return this.ended;
  }

  send(line: string): void {
    this.socket.write(`${line}\n`);
  }

  /** Sends raw bytes (no LF added). */
  sendRaw(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** The next line; throws when none comes in time or the connection closes first. */
  async next(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (this.ended) throw new Error('connection closed');
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no line within ${timeoutMs} ms (received: ${this.received.slice(-5).join(' | ')})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
    return this.lines.shift() as string;
  }

  /** Lines up to and including the first that `until` accepts. */
  async readUntil(until: string | ((line: string) => boolean), timeoutMs = 10_000): Promise<string[]> {
    const match = typeof until === 'string' ? (l: string) => l === until : until;
    const out: string[] = [];
    for (;;) {
      const line = await this.next(timeoutMs);
      out.push(line);
      if (match(line)) return out;
    }
  }

  /** The lines that arrived and were not read yet. */
  drain(): string[] {
    return this.lines.splice(0);
  }

  async login(name: string, password: string, x1 = false): Promise<string> {
    this.send(`LOGIN ${name} ${password}${x1 ? ' x1' : ''}`);
    return this.next();
  }

  async summary(timeoutMs = 10_000): Promise<Summary> {
    const lines = await this.readUntil('END Game_Summary', timeoutMs);
    const begin = lines.indexOf('BEGIN Game_Summary');
    if (begin < 0) throw new Error(`no Game_Summary in ${lines.join(' | ')}`);
    const body = lines.slice(begin);
    const field = (name: string) => body.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1);
    return { lines: body, gameId: field('Game_ID') ?? '', yourTurn: field('Your_Turn') ?? '', field };
  }

  /** AGREE, then the START line. */
  async agree(gameId: string): Promise<void> {
    this.send(`AGREE ${gameId}`);
    const start = await this.next();
    if (start !== `START:${gameId}`) throw new Error(`expected START:${gameId}, got ${start}`);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Two clients logged in with one game name and agreed: sente first. */
export async function pairedGame(
  port: number,
  names: readonly [string, string],
  gameName: string,
  passwords: readonly [string, string] = [gameName, gameName],
): Promise<{ sente: CsaClient; gote: CsaClient; gameId: string; summaries: readonly [Summary, Summary] }> {
  const a = await CsaClient.open(port);
  const b = await CsaClient.open(port);
  for (const [client, name, password] of [
    [a, names[0], passwords[0]],
    [b, names[1], passwords[1]],
  ] as const) {
    const answer = await client.login(name, password);
    if (answer !== `LOGIN:${name} OK`) throw new Error(`login ${name}: ${answer}`);
  }
  const [sa, sb] = await Promise.all([a.summary(), b.summary()]);
  if (sa.gameId !== sb.gameId) throw new Error('two game ids');
  await Promise.all([a.agree(sa.gameId), b.agree(sb.gameId)]);
  const aSente = sa.yourTurn === '+';
  return {
    sente: aSente ? a : b,
    gote: aSente ? b : a,
    gameId: sa.gameId,
    summaries: aSente ? [sa, sb] : [sb, sa],
  };
}

/** `move` sent by `mover`; both players' next line is its echo. Returns the echo. */
export async function play(mover: CsaClient, other: CsaClient, move: string): Promise<string> {
  mover.send(move);
  const [a, b] = await Promise.all([mover.next(), other.next()]);
  if (a !== b) throw new Error(`the players saw ${a} and ${b}`);
  const head = move.split(',')[0];
  if (!a.startsWith(`${head},T`)) throw new Error(`expected the echo of ${head}, got ${a}`);
  return a;
}
