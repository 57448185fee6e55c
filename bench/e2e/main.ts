/**
 * End-to-end bench: G concurrent games played by scripted clients through the public API
 * (moves over the player WebSocket or HTTP, verdicts over the WebSocket) against a running
 * server, for a fixed time. Prints accepted moves/s, submit→verdict latency percentiles,
 * and where the time goes.
 *
 *   npm start -- --no-demo            # or: --role gateway / --role worker in two processes
 *   npx tsx --conditions=@shogi/source bench/e2e/main.ts --games 200 --seconds 20
 *   npx tsx --conditions=@shogi/source bench/e2e/main.ts --games 100 --rate 1000 --seconds 20
 *
 * Options: --url (http://127.0.0.1:3000) --games G (100) --seconds S (20) --warmup S (3)
 *          --rate R moves/s for all games together (0: as fast as the server answers)
 *          --via ws|http|mixed (ws) --redis URL and --prefix P to sample BullMQ job timings
 *          --slow MS: print each measured move slower than MS (its wall-clock time, ply and
 *          breakdown; the first --slow-max, 200), to see whether the tail is some moves or some moments
 *          --stagger S: each game slot starts its first game after a random 0..S s (seeded), so
 *          games do not all start, and then end, at the same moments as they do by default;
 *          give --warmup of at least S + 5 to measure after the ramp (the steady state)
 * Bounded: it stops by itself after warmup + seconds, and only talks to --url (loopback).
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { ServerMessage } from '@shogi/protocol';
import { ApiClient, type PlayerSocket } from '../../apps/server/src/client.js';
import { cpuByGroup, cpuReport } from './cpu.js';
import { type Breakdown, printReport, type Sample } from './report.js';
import { scripts } from './scripts.js';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    games: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    rate: { type: 'string', default: '0' },
    via: { type: 'string', default: 'ws' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    prefix: { type: 'string', default: 'shogi' },
    slow: { type: 'string', default: '0' },
    'slow-max': { type: 'string', default: '200' },
    stagger: { type: 'string', default: '0' },
  },
});
const G = Number(args.games);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const RATE = Number(args.rate);
const VIA = args.via as 'ws' | 'http' | 'mixed';
const SLOW_MS = Number(args.slow);
const SLOW_MAX = Number(args['slow-max']);
const STAGGER = Number(args.stagger);
let slowPrinted = 0;
const url = new URL(args.url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error('the bench only targets loopback');

const api = new ApiClient(args.url);
const samples: Sample[] = [];
const breakdowns: Breakdown[] = [];
let accepted = 0;
let rejected = 0;
let errors = 0;
let gamesPlayed = 0;

interface Waiter {
  resolve(m: ServerMessage): void;
}

/** Resolves on this socket's next verdict or error frame. */
function verdictWaiter(socket: PlayerSocket): { next(): Promise<ServerMessage> } {
  let waiter: Waiter | null = null;
  socket.onMessage((m) => {
    if ((m.type === 'verdict' || m.type === 'error') && waiter) {
      const w = waiter;
      waiter = null;
      w.resolve(m);
    }
  });
  return {
    // a verdict that never comes (a stopped worker) ends this game's loop instead of the bench
    next: () =>
      new Promise((resolve) => {
        const timer = setTimeout(
          () => resolve({ type: 'error', error: { code: 'UNAVAILABLE', message: 'no verdict in 10 s' } }),
          10_000,
        );
        waiter = {
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
      }),
  };
}

/** An event's stamps, kept for the time breakdown (ms since the epoch). */
interface Stamps {
  /** The gateway's receivedAt of a MoveSubmitted (NaN for other events). */
  readonly receivedAt: number;
  readonly recordedAt: number;
  /** When this client got it. */
  readonly at: number;
}

/**
 * Keeps the stamps of the last few events seen on a socket, by seq. Only numbers, and only a
 * few: keeping the events themselves (600 sockets × 64 parsed events) made every young-
 * generation GC of the bench copy them, 12-17 ms each about once a second, and every move in
 * flight during one was measured that much slower.
 */
function eventMemory(socket: PlayerSocket): Map<number, Stamps> {
  const seen = new Map<number, Stamps>();
  socket.onMessage((m) => {
    if (m.type !== 'events') return;
    const at = Date.now();
    for (const e of m.events) {
      const receivedAt = e.type === 'MoveSubmitted' ? Date.parse(String(e.payload.receivedAt)) : Number.NaN;
      seen.set(e.seq, { receivedAt, recordedAt: Date.parse(e.recordedAt), at });
    }
    for (const k of seen.keys()) {
      if (seen.size <= 8) break;
      seen.delete(k);
    }
  });
  return seen;
}

async function playGames(index: number, script: string[], start: number, stopAt: number, measureFrom: number) {
  const sente = await api.createPlayer(`bench-${index}-s`);
  const gote = await api.createPlayer(`bench-${index}-g`);
  const begin = start + STAGGER * 1000 * seededFraction(index);
  if (begin > performance.now()) await new Promise((r) => setTimeout(r, begin - performance.now()));
  // each game paces itself to RATE / G moves per second, with its own phase
  const interval = RATE > 0 ? (1000 * G) / RATE : 0;
  let due = begin + (interval * index) / G;
  while (performance.now() < stopAt) {
    const game = await api.createGame({ sente: sente.id, gote: gote.id });
    gamesPlayed++;
    const players = [sente, gote];
    const sockets = await Promise.all(players.map((p) => api.playerSocket(game.id, p.token, undefined, { keep: 0 })));
    const waiters = sockets.map(verdictWaiter);
    const memories = sockets.map(eventMemory);
    for (let ply = 0; ply < script.length && performance.now() < stopAt; ply++) {
      if (interval > 0) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        due += interval;
      }
      const side = ply % 2;
      const usi = script[ply] as string;
      const socket = sockets[side] as PlayerSocket;
      const verdict = (waiters[side] as { next(): Promise<ServerMessage> }).next();
      const t0 = performance.now();
      const wall0 = Date.now();
      const http = VIA === 'http' || (VIA === 'mixed' && side === 0);
      let ackAt = 0;
      if (http) {
        const res = await api.submitMove(game.id, (players[side] as { token: string }).token, { usi, ply });
        ackAt = performance.now();
        if (!res.ok) {
          errors++;
          break;
        }
      } else {
        socket.send({ type: 'move', usi, ply });
      }
      const m = await verdict;
      const t1 = performance.now();
      if (m.type !== 'verdict') {
        errors++;
        break;
      }
      if (!m.accepted) {
        rejected++;
        break;
      }
      if (t0 >= measureFrom) {
        accepted++;
        samples.push({ at: t0, ms: t1 - t0 });
        const memory = memories[side] as Map<number, Stamps>;
        const submitted = memory.get(m.submittedSeq);
        const verdictEvent = memory.get(m.seq);
        if (submitted && verdictEvent) {
          const breakdown: Breakdown = {
            total: t1 - t0,
            ack: ackAt > 0 ? ackAt - t0 : null,
            intake: submitted.receivedAt - wall0,
            appendSubmitted: submitted.recordedAt - submitted.receivedAt,
            toVerdictAppend: verdictEvent.recordedAt - submitted.recordedAt,
            verdictToClient: verdictEvent.at - verdictEvent.recordedAt,
          };
          breakdowns.push(breakdown);
          if (SLOW_MS > 0 && breakdown.total > SLOW_MS && slowPrinted++ < SLOW_MAX)
            console.log(
              `slow move at ${new Date(wall0).toISOString()} ply ${ply}: ${JSON.stringify(breakdown, (_k, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`,
            );
        }
      }
    }
    await Promise.all(sockets.map((s) => s.close()));
  }
}

/** A fraction in [0, 1) fixed by `i` (so two runs stagger the same way). */
function seededFraction(i: number): number {
  let x = (i + 1) * 0x9e3779b1;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
}

async function main() {
  const pool = scripts(16);
  console.log(
    `e2e bench: ${G} games, ${SECONDS}s after ${WARMUP}s warmup, rate ${RATE > 0 ? `${RATE} moves/s` : 'unbounded'}, moves via ${VIA}, against ${args.url}`,
  );
  // a game start costs the server about ten moves of CPU: while the staggered first games are
  // still starting, the window measures the ramp (most of its slow moves fell there)
  if (STAGGER > 0 && WARMUP < STAGGER + 5)
    console.log(
      `note: games start over the first ${STAGGER} s; with --warmup ${WARMUP} the measured window includes that ramp (use --warmup ${STAGGER + 5} for steady state)`,
    );
  const start = performance.now();
  const measureFrom = start + WARMUP * 1000;
  const stopAt = measureFrom + SECONDS * 1000;
  let cpuBefore = new Map<string, number>();
  let cpuAfter = new Map<string, number>();
  setTimeout(() => (cpuBefore = cpuByGroup()), WARMUP * 1000).unref();
  setTimeout(() => (cpuAfter = cpuByGroup()), (WARMUP + SECONDS) * 1000).unref();
  await Promise.all(
    Array.from({ length: G }, (_, i) => playGames(i, pool[i % pool.length] as string[], start, stopAt, measureFrom)),
  );
  const elapsed = (Math.min(performance.now(), stopAt) - measureFrom) / 1000;
  if (cpuAfter.size === 0) cpuAfter = cpuByGroup();
  const jobs = await sampleJobs(args.redis, args.prefix).catch((err: unknown) => {
    console.log(`(BullMQ job timings unavailable: ${String(err)})`);
    return null;
  });
  printReport({ samples, breakdowns, accepted, rejected, errors, games: gamesPlayed, seconds: elapsed, jobs });
  if (cpuBefore.size > 0) {
    console.log('CPU over the measured window (from /proc):');
    for (const l of cpuReport(cpuBefore, cpuAfter, accepted, elapsed, availableParallelism())) console.log(l);
  }
  process.exit(0);
}

/** Queue wait and processing time of recently completed validate jobs (BullMQ's own stamps). */
async function sampleJobs(redisUrl: string, prefix: string) {
  const { Queue } = await import('bullmq');
  const queue = new Queue('validate', { connection: { url: redisUrl }, prefix });
  try {
    const jobs = await queue.getCompleted(0, 4999);
    return jobs
      .filter((j) => j.processedOn !== undefined && j.finishedOn !== undefined)
      .map((j) => ({
        wait: (j.processedOn as number) - j.timestamp,
        run: (j.finishedOn as number) - (j.processedOn as number),
      }));
  } finally {
    await queue.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
