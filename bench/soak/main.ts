/**
 * Soak bench (issue 8): the whole system — two gateways and two workers, each its own
 * process (`node apps/server/dist/main.js --role gateway|worker`), on loopback with a
 * database and queue prefix of its own — at a steady move rate with spectators watching,
 * for a fixed time. Every ~30 s it prints moves/s, submit → verdict p50/p99, errors and the
 * RSS and live heap (after a full GC) of every process; at the end, each process's memory growth after warm-up and the
 * error count. Targets: zero errors, < 10 % growth.
 *
 *   npm run build && npm run bench:soak                       # 10 minutes
 *   npm run bench:soak -- --minutes 1 --warmup 20 --report 10  # a short run
 *
 * Options: --minutes (10) --rate moves/s (500) --games (200) --spectators (2000)
 *          --warmup seconds (60) --report seconds (30) --concurrency per worker (32)
 * Bounded: it stops after --minutes, talks only to 127.0.0.x, and drops its database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ServerMessage } from '@shogi/protocol';
import pg from 'pg';
import WebSocket from 'ws';
import { ApiClient, type PlayerSocket } from '../../apps/server/src/client.js';
import { scripts } from '../e2e/scripts.js';
import { freePort, waitHealthy } from '../e2e/server-process.js';
import { Histogram } from '../fanout/clients.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '500' },
    games: { type: 'string', default: '200' },
    spectators: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '60' },
    report: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '32' },
    database: { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/postgres' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
});
const SECONDS = Number(args.minutes) * 60;
const RATE = Number(args.rate);
const G = Number(args.games);
const K = Number(args.spectators);
const WARMUP = Number(args.warmup);
const REPORT = Number(args.report);
const MAIN = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the system under test ----------------------------------------------------------

interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
}

const HEAP_DIR = mkdtempSync(join(tmpdir(), 'shogi-soak-heap-'));
const HEAP_PROBE = fileURLToPath(new URL('./heap-probe.mjs', import.meta.url));

function startProcess(name: string, role: 'gateway' | 'worker', env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [MAIN, '--role', role, '--no-demo'], {
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: 'warn',
      DEMO: '0',
      // this bench is not about the CSA listener, and several gateways would take one port
      CSA_PORT: '0',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc --import ${HEAP_PROBE}`.trim(),
      SOAK_HEAP_DIR: HEAP_DIR,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${code ?? signal}) during the soak`);
      errors.processes++;
    }
  });
  return { name, child };
}

/** The live heap (MiB) a server process last reported since `sinceMs`, after a full GC (see heap-probe.mjs). */
function liveHeapMiB(pid: number | undefined, sinceMs: number): number {
  if (pid === undefined) return Number.NaN;
  try {
    let last = Number.NaN;
    for (const line of readFileSync(join(HEAP_DIR, String(pid)), 'utf8').split('\n')) {
      const [at, used] = line.split(' ').map(Number);
      if (at !== undefined && used !== undefined && at >= sinceMs) last = used;
    }
    return last / 1048576;
  } catch {
    return Number.NaN;
  }
}

function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

// ---- the load -----------------------------------------------------------------------

let stopping = false;
const errors = { frames: 0, rejected: 0, timeouts: 0, http: 0, spectatorCloses: 0, processes: 0 };
const totalErrors = () => Object.values(errors).reduce((a, b) => a + b, 0);
const window = new Histogram();
let windowMoves = 0;
let totalMoves = 0;
const spectatorFrames = { count: 0 };

/** The next verdict or error frame on a player socket (10 s without one is an error). */
function verdicts(socket: PlayerSocket): () => Promise<ServerMessage | null> {
  let waiter: ((m: ServerMessage | null) => void) | null = null;
  socket.onMessage((m) => {
    if ((m.type === 'verdict' || m.type === 'error') && waiter) {
      const w = waiter;
      waiter = null;
      w(m);
    }
  });
  return () =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiter = null;
        resolve(null);
      }, 10_000);
      waiter = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
}

/** Spectators of one game slot: they follow the slot to each new game it starts. */
class Slot {
  private sockets: WebSocket[] = [];
  constructor(
    private readonly index: number,
    private readonly count: number,
    private readonly urls: readonly string[],
  ) {}

  async watch(gameId: string): Promise<void> {
    const old = this.sockets;
    this.sockets = [];
    for (const ws of old) ws.close(1000);
    await Promise.all(
      Array.from({ length: this.count }, (_, j) => {
        const n = this.index * this.count + j;
        const base = (this.urls[n % this.urls.length] as string).replace(/^http/, 'ws');
        // source addresses rotate over 127.0.0.2-251: the per-IP watch limit and ephemeral ports
        const ws = new WebSocket(`${base}/api/games/${gameId}/watch`, {
          localAddress: `127.0.0.${2 + (n % 250)}`,
          perMessageDeflate: false,
        });
        this.sockets.push(ws);
        ws.on('message', () => {
          spectatorFrames.count++;
        });
        ws.on('close', (code) => {
          if (!stopping && code !== 1000 && code !== 1005) errors.spectatorCloses++;
        });
        return new Promise<void>((resolve) => {
          ws.once('open', () => resolve());
          ws.once('error', () => {
            errors.spectatorCloses++;
            resolve();
          });
        });
      }),
    );
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
  }
}

async function playSlot(i: number, urls: readonly string[], pool: string[][], slot: Slot, stopAt: number) {
  // players alternate gateways: sente on one, gote on the other
  const apis = [new ApiClient(urls[i % 2] as string), new ApiClient(urls[(i + 1) % 2] as string)];
  const sente = await (apis[0] as ApiClient).createPlayer(`soak-${i}-s`);
  const gote = await (apis[1] as ApiClient).createPlayer(`soak-${i}-g`);
  const interval = (1000 * G) / RATE;
  let due = performance.now() + (interval * i) / G;
  for (let round = 0; !stopping && performance.now() < stopAt; round++) {
    const script = pool[(i + round) % pool.length] as string[];
    const game = await (apis[0] as ApiClient).startGame(sente, gote);
    const sockets = await Promise.all([
      (apis[0] as ApiClient).playerSocket(game.id, sente.token),
      (apis[1] as ApiClient).playerSocket(game.id, gote.token),
    ]);
    const next = sockets.map(verdicts);
    await slot.watch(game.id);
    for (let ply = 0; ply < script.length && !stopping && performance.now() < stopAt; ply++) {
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      due = Math.max(due + interval, performance.now() - interval * 4);
      const side = ply % 2;
      const verdict = (next[side] as () => Promise<ServerMessage | null>)();
      const t0 = performance.now();
      (sockets[side] as PlayerSocket).send({ type: 'move', usi: script[ply] as string, ply });
      const m = await verdict;
      if (m === null) errors.timeouts++;
      else if (m.type === 'error') errors.frames++;
      else if (m.type === 'verdict' && !m.accepted) errors.rejected++;
      if (m?.type !== 'verdict' || !m.accepted) break;
      window.add(performance.now() - t0);
      windowMoves++;
      totalMoves++;
    }
    await Promise.all(sockets.map((s) => s.close()));
  }
}

// ---- the run ------------------------------------------------------------------------

async function main(): Promise<void> {
  const dbName = `shogi_soak_${randomBytes(4).toString('hex')}`;
  const admin = new URL(args.database);
  const dbUrl = new URL(args.database);
  dbUrl.pathname = `/${dbName}`;
  const adminClient = new pg.Client({ connectionString: admin.toString() });
  await adminClient.connect();
  await adminClient.query(`create database ${dbName}`);
  await adminClient.end();
  const prefix = `soak${randomBytes(3).toString('hex')}`;
  const env = {
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: args.redis,
    QUEUE_PREFIX: prefix,
    CHANNEL_PREFIX: `${prefix}:`,
    WORKER_CONCURRENCY: args.concurrency,
    HOST: '127.0.0.1',
    // two guests and their player sockets per game, all from this address, and a challenge
    // and its acceptance per game
    RATE_LIMIT_GUESTS_MAX: '0',
    SOCKET_MAX_PER_IP: '0',
    RATE_LIMIT_LOBBY_MAX: '0',
    RATE_LIMIT_LOBBY_IP_MAX: '0',
  };
  console.log(
    `soak: 2 gateways + 2 workers, ${RATE} moves/s over ${G} games, ${K} spectators, ${SECONDS / 60} min (warm-up ${WARMUP} s), database ${dbName}`,
  );
  const procs: Proc[] = [];
  const urls: string[] = [];
  // the first process migrates alone, so the others never race on the migrations
  for (const name of ['gateway-1', 'gateway-2']) {
    const port = await freePort();
    procs.push(startProcess(name, 'gateway', { ...env, PORT: String(port) }));
    urls.push(`http://127.0.0.1:${port}`);
    await waitHealthy(urls.at(-1) as string);
  }
  procs.push(startProcess('worker-1', 'worker', env), startProcess('worker-2', 'worker', env));

  const start = performance.now();
  const stopAt = start + SECONDS * 1000;
  const pool = scripts(32);
  const perSlot = Math.ceil(K / G);
  const slots = Array.from({ length: G }, (_, i) => new Slot(i, Math.min(perSlot, Math.max(0, K - i * perSlot)), urls));
  const players = slots.map((slot, i) => playSlot(i, urls, pool, slot, stopAt));

  const named = [...procs.map((p) => ({ name: p.name, pid: p.child.pid })), { name: 'bench', pid: process.pid }];
  const series = new Map<string, { at: number; rss: number; heap: number }[]>(named.map((n) => [n.name, []]));
  let last = performance.now();
  let lastWall = Date.now();
  const report = () => {
    const now = performance.now();
    const t = (now - start) / 1000;
    const rate = windowMoves / ((now - last) / 1000);
    const rss = named.map((n) => {
      const v = rssMiB(n.pid);
      const heap = n.name === 'bench' ? Number.NaN : liveHeapMiB(n.pid, lastWall);
      series.get(n.name)?.push({ at: t, rss: v, heap });
      return `${n.name} ${v.toFixed(0)}${Number.isNaN(heap) ? '' : ` (heap ${heap.toFixed(0)})`}`;
    });
    lastWall = Date.now();
    console.log(
      `[${t.toFixed(0).padStart(4)} s] ${rate.toFixed(0)} moves/s, p50 ${window.percentile(0.5).toFixed(1)} ms, p99 ${window.percentile(0.99).toFixed(1)} ms, errors ${totalErrors()}, spectator frames ${spectatorFrames.count}; RSS MiB (live heap): ${rss.join(', ')}`,
    );
    window.reset();
    windowMoves = 0;
    last = now;
  };
  const timer = setInterval(report, REPORT * 1000);
  await Promise.all(players);
  clearInterval(timer);
  report();

  // ---- summary: growth from the first samples after warm-up to the last ones ----
  // samples without a figure (a window too short for a heap sample) do not count
  const median = (xs: number[]) => {
    const known = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    return known[Math.floor(known.length / 2)] ?? Number.NaN;
  };
  console.log(`\nmoves validated: ${totalMoves} (${(totalMoves / SECONDS).toFixed(0)}/s over the run)`);
  console.log(`errors: ${totalErrors()} ${JSON.stringify(errors)}`);
  console.log('memory after warm-up (median of the first three samples → median of the last three):');
  const growthOf = (a: number, b: number) => (100 * (b - a)) / a;
  const signed = (g: number) => `${g >= 0 ? '+' : ''}${g.toFixed(1)} %`;
  let worstRss = 0;
  let worstHeap = 0;
  for (const [name, samples] of series) {
    const after = samples.filter((s) => s.at >= WARMUP);
    if (after.length < 2) continue;
    const [rss0, rss1] = [median(after.slice(0, 3).map((s) => s.rss)), median(after.slice(-3).map((s) => s.rss))];
    const [heap0, heap1] = [median(after.slice(0, 3).map((s) => s.heap)), median(after.slice(-3).map((s) => s.heap))];
    const heapText = Number.isNaN(heap0)
      ? ''
      : `; live heap ${heap0.toFixed(0)} → ${heap1.toFixed(0)} MiB (${signed(growthOf(heap0, heap1))})`;
    if (name !== 'bench') {
      worstRss = Math.max(worstRss, growthOf(rss0, rss1));
      worstHeap = Math.max(worstHeap, growthOf(heap0, heap1));
    }
    console.log(
      `  ${name.padEnd(10)} RSS ${rss0.toFixed(0)} → ${rss1.toFixed(0)} MiB (${signed(growthOf(rss0, rss1))})${heapText}`,
    );
  }
  // the target is judged on the live heap: RSS also holds heap V8 grew for the allocation
  // rate and keeps, and memory the allocator has not returned, which is not retained
  console.log(
    `targets: zero errors — ${totalErrors() === 0 ? 'met' : 'NOT met'}; server memory growth < 10 % — ${worstHeap < 10 ? 'met' : 'NOT met'} (worst live-heap growth ${worstHeap.toFixed(1)} %; worst RSS growth ${worstRss.toFixed(1)} %)`,
  );

  stopping = true;
  for (const slot of slots) slot.close();
  await Promise.all(
    procs.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.child.exitCode !== null) return resolve();
          p.child.once('exit', () => resolve());
          p.child.kill('SIGTERM');
        }),
    ),
  );
  const drop = new pg.Client({ connectionString: admin.toString() });
  await drop.connect();
  await drop.query(`drop database if exists ${dbName} with (force)`);
  await drop.end();
  process.exit(totalErrors() === 0 ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
