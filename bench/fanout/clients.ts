/**
 * The spectators of bench/fanout: K `ws` clients spread over the games, each reading the
 * publish time `"t":` out of every event frame without parsing the JSON, into one latency
 * histogram (0.1 ms buckets up to 20 s). Source addresses rotate over 127.0.0.2-251 so
 * tens of thousands of connections never run out of ephemeral ports.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const BUCKET_MS = 0.1;
const BUCKETS = 200_000;
const T_KEY = Buffer.from('"t":');

export class Histogram {
  readonly counts = new Uint32Array(BUCKETS + 1);
  total = 0;

  add(ms: number): void {
    const i = Math.min(BUCKETS, Math.max(0, Math.floor(ms / BUCKET_MS)));
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.total++;
  }

  percentile(p: number): number {
    if (this.total === 0) return Number.NaN;
    const rank = Math.ceil(this.total * p);
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i] ?? 0;
      if (seen >= rank) return (i + 1) * BUCKET_MS;
    }
    return BUCKETS * BUCKET_MS;
  }

  reset(): void {
    this.counts.fill(0);
    this.total = 0;
  }
}

/** The publish time (performance.now() of this process) carried in a frame, or NaN. */
function publishedAt(data: Buffer): number {
  const at = data.indexOf(T_KEY);
  if (at < 0) return Number.NaN;
  let end = at + T_KEY.length;
  while (end < data.length) {
    const c = data[end] as number;
    if ((c < 48 || c > 57) && c !== 46) break;
    end++;
  }
  return Number(data.toString('latin1', at + T_KEY.length, end));
}

export interface Spectators {
  readonly histogram: Histogram;
  /** event frames received */
  received: number;
  /** sockets closed by the server (code -> count) */
  readonly closes: Map<number, number>;
  close(): Promise<void>;
}

export async function connectSpectators(
  urlOf: (gameIndex: number, spectatorIndex: number) => string,
  count: number,
  games: number,
  parallel = 200,
): Promise<Spectators> {
  const sockets: WebSocket[] = [];
  const state: Spectators = {
    histogram: new Histogram(),
    received: 0,
    closes: new Map(),
    async close() {
      closing = true;
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              ws.once('close', () => resolve());
              ws.terminate();
            }),
        ),
      );
    },
  };
  let closing = false;
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(urlOf(i % games, i), {
        localAddress: `127.0.0.${2 + (i % 250)}`,
        perMessageDeflate: false,
      });
      sockets.push(ws);
      ws.on('message', (data: Buffer) => {
        const t = publishedAt(data);
        if (Number.isNaN(t)) return;
        state.received++;
        state.histogram.add(performance.now() - t);
      });
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.on('close', (code) => {
        if (!closing) state.closes.set(code, (state.closes.get(code) ?? 0) + 1);
      });
    });
  for (let i = 0; i < count; i += parallel) {
    const batch: Promise<void>[] = [];
    for (let j = i; j < Math.min(count, i + parallel); j++) batch.push(open(j));
    await Promise.all(batch);
  }
  return state;
}
