/**
 * End-to-end bench: G concurrent games played by scripted clients through the public API
 * (moves over the player WebSocket or HTTP, verdicts over the WebSocket) against a running
 * server, for a fixed time. Prints accepted moves/s, submit→verdict latency percentiles,
 * and where the time goes.
 *
 *   RATE_LIMIT_GUESTS_MAX=0 SOCKET_MAX_PER_IP=0 RATE_LIMIT_LOBBY_MAX=0 RATE_LIMIT_LOBBY_IP_MAX=0 npm start -- --no-demo
 *   (or --role gateway / --role worker in two processes, with the same settings)
 *   npx tsx --conditions=@shogi/source bench/e2e/main.ts --games 200 --seconds 20
 *   npx tsx --conditions=@shogi/source bench/e2e/main.ts --games 100 --rate 1000 --seconds 20
 *
 * Options: --url (http://127.0.0.1:3000; several, comma-separated: gateways, each game's
 *          sente on one and its gote on the next) --games G (100) --seconds S (20) --warmup S (3)
 *          --rate R moves/s for all games together (0: as fast as the server answers)
 *          --via ws|http|mixed (ws) --redis URL (or --redis-cluster host:port,...) and --prefix P
 *          to sample BullMQ job timings
 *          --slow MS: print each measured move slower than MS (its wall-clock time, ply and
 *          breakdown; the first --slow-max, 200), to see whether the tail is some moves or some moments
 *          --stagger S: each game slot starts its first game after a random 0..S s (seeded), so
 *          games do not all start, and then end, at the same moments as they do by default;
 *          give --warmup of at least S + 5 to measure after the ramp (the steady state)
 *          --summary: a last line `e2e-summary {json}` with the headline figures, for a bench
 *          that runs this one (bench/engine/latency.ts)
 * The server must not limit guest players or sockets per IP, nor lobby writes per token
 * (the settings above): the bench makes two guests per game slot, all from this one address,
 * opens their player sockets, and starts every game as players do, by a challenge accepted.
 * Bounded: it stops by itself after warmup + seconds, and only talks to --url (loopback).
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { validateQueueCount, validateQueuePlaces } from '@shogi/pipeline';
import type { ServerMessage } from '@shogi/protocol';
import { closeClient, clusterNodesOf, onCluster, queuePrefix, redisClient } from '@shogi/redis';
import { ApiClient, type PlayerSocket } from '../../apps/server/src/client.js';
import { cpuReport, type UsageSample, usageOver, usageSample } from './cpu.js';
import { BREAKDOWN, type Breakdown, Columns, printReport, summaryLine } from './report.js';
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
    'redis-cluster': { type: 'string', default: '' },
    prefix: { type: 'string', default: 'shogi' },
    slow: { type: 'string', default: '0' },
    'slow-max': { type: 'string', default: '200' },
    stagger: { type: 'string', default: '0' },
    summary: { type: 'boolean', default: false },
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
// several gateways (a comma-separated list): each game's sente on one, its gote on the next
const urls = args.url.split(',');
for (const u of urls)
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(u).hostname))
    throw new Error('the bench only targets loopback');
const apis = urls.map((u) => new ApiClient(u));
const apiOf = (i: number) => apis[i % apis.length] as ApiClient;
const latencies = new Columns(['ms'] as const);
const breakdowns = new Columns(BREAKDOWN);
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

/**
 * The stamps of the last few events seen on a socket, by seq (ms since the epoch), in a ring
 * of typed arrays: keeping the events themselves (600 sockets × 64 parsed events) made every
 * young-generation GC of the bench copy them, a pause added to every move in flight, and a
 * stamps object per event was still promoted (the bench's mark-compacts then paused every
 * move in flight); these arrays live as long as the game and hold no objects.
 */
class EventStamps {
  static readonly SLOTS = 8;
  readonly #seq = new Float64Array(EventStamps.SLOTS).fill(-1);
  /** The gateway's receivedAt of a MoveSubmitted (NaN for other events). */
  readonly #receivedAt = new Float64Array(EventStamps.SLOTS);
  readonly #recordedAt = new Float64Array(EventStamps.SLOTS);
  /** When this client got it. */
  readonly #at = new Float64Array(EventStamps.SLOTS);

  constructor(socket: PlayerSocket) {
    socket.onMessage((m) => {
      if (m.type !== 'events') return;
      const at = Date.now();
      for (const e of m.events) {
        const slot = e.seq % EventStamps.SLOTS;
        this.#seq[slot] = e.seq;
        this.#receivedAt[slot] = e.type === 'MoveSubmitted' ? Date.parse(String(e.payload.receivedAt)) : Number.NaN;
        this.#recordedAt[slot] = Date.parse(e.recordedAt);
        this.#at[slot] = at;
      }
    });
  }

  /** The slot holding `seq`'s stamps, or -1 when it is not among the last few. */
  slotOf(seq: number): number {
    const slot = seq % EventStamps.SLOTS;
    return this.#seq[slot] === seq ? slot : -1;
  }

  receivedAt = (slot: number) => this.#receivedAt[slot] as number;
  recordedAt = (slot: number) => this.#recordedAt[slot] as number;
  at = (slot: number) => this.#at[slot] as number;
}

async function playGames(index: number, script: string[], start: number, stopAt: number, measureFrom: number) {
  const api = apiOf(index);
  const sente = await api.createPlayer(`bench-${index}-s`);
  const gote = await api.createPlayer(`bench-${index}-g`);
  const begin = start + STAGGER * 1000 * seededFraction(index);
  if (begin > performance.now()) await new Promise((r) => setTimeout(r, begin - performance.now()));
  // each game paces itself to RATE / G moves per second, with its own phase
  const interval = RATE > 0 ? (1000 * G) / RATE : 0;
  let due = begin + (interval * index) / G;
  while (performance.now() < stopAt) {
    const game = await api.startGame(sente, gote);
    gamesPlayed++;
    const players = [sente, gote];
    const sockets = await Promise.all(
      players.map((p, side) => apiOf(index + side).playerSocket(game.id, p.token, undefined, { keep: 0 })),
    );
    const waiters = sockets.map(verdictWaiter);
    const memories = sockets.map((s) => new EventStamps(s));
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
        const res = await apiOf(index + side).submitMove(game.id, (players[side] as { token: string }).token, {
          usi,
          ply,
        });
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
        latencies.push({ ms: t1 - t0 });
        const memory = memories[side] as EventStamps;
        const submitted = memory.slotOf(m.submittedSeq);
        const verdictEvent = memory.slotOf(m.seq);
        if (submitted >= 0 && verdictEvent >= 0) {
          const breakdown: Breakdown = {
            total: t1 - t0,
            ack: ackAt > 0 ? ackAt - t0 : Number.NaN,
            intake: memory.receivedAt(submitted) - wall0,
            appendSubmitted: memory.recordedAt(submitted) - memory.receivedAt(submitted),
            toVerdictAppend: memory.recordedAt(verdictEvent) - memory.recordedAt(submitted),
            verdictToClient: memory.at(verdictEvent) - memory.recordedAt(verdictEvent),
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
  // a game start costs the server far more CPU than a move: while the staggered first games are
  // still starting, the window measures the ramp (most of its slow moves fell there)
  if (STAGGER > 0 && WARMUP < STAGGER + 5)
    console.log(
      `note: games start over the first ${STAGGER} s; with --warmup ${WARMUP} the measured window includes that ramp (use --warmup ${STAGGER + 5} for steady state)`,
    );
  const start = performance.now();
  const measureFrom = start + WARMUP * 1000;
  const stopAt = measureFrom + SECONDS * 1000;
  let cpuBefore: UsageSample | null = null;
  let cpuAfter: UsageSample | null = null;
  setTimeout(() => (cpuBefore = usageSample()), WARMUP * 1000).unref();
  setTimeout(() => (cpuAfter = usageSample()), (WARMUP + SECONDS) * 1000).unref();
  await Promise.all(
    Array.from({ length: G }, (_, i) => playGames(i, pool[i % pool.length] as string[], start, stopAt, measureFrom)),
  );
  const elapsed = (Math.min(performance.now(), stopAt) - measureFrom) / 1000;
  cpuAfter ??= usageSample();
  const jobs = await sampleJobs(args.prefix).catch((err: unknown) => {
    console.log(`(BullMQ job timings unavailable: ${String(err)})`);
    return null;
  });
  const report = {
    latencies: latencies.column('ms'),
    breakdowns,
    accepted,
    rejected,
    errors,
    games: gamesPlayed,
    seconds: elapsed,
    jobs,
  };
  printReport(report);
  const usage = cpuBefore === null ? null : usageOver(cpuBefore, cpuAfter, accepted, elapsed);
  if (usage !== null) {
    console.log('CPU and read/write calls over the measured window (from /proc):');
    for (const l of cpuReport(usage, availableParallelism())) console.log(l);
  }
  if (args.summary) console.log(summaryLine(report, usage));
  process.exit(0);
}

/** Queue wait and processing time of recently completed validate jobs (BullMQ's own stamps), of every validate queue. */
async function sampleJobs(prefix: string) {
  const { Queue } = await import('bullmq');
  const target = { redisUrl: args.redis, redisClusterNodes: clusterNodesOf(args['redis-cluster'], '--redis-cluster') };
  const cluster = onCluster(target);
  const connection = redisClient(target, 'bench-jobs', { maxRetriesPerRequest: null });
  const queues = validateQueuePlaces(validateQueueCount(cluster)).map(
    ({ name, share }) => new Queue(name, { connection, prefix: queuePrefix(cluster, prefix, name, share) }),
  );
  try {
    const jobs = (await Promise.all(queues.map((q) => q.getCompleted(0, Math.floor(4999 / queues.length))))).flat();
    return jobs
      .filter((j) => j.processedOn !== undefined && j.finishedOn !== undefined)
      .map((j) => ({
        wait: (j.processedOn as number) - j.timestamp,
        run: (j.finishedOn as number) - (j.processedOn as number),
      }));
  } finally {
    await Promise.all(queues.map((q) => q.close()));
    await closeClient(connection);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
