/**
 * Bench of the validation pipeline without the HTTP gateway: this process plays the
 * gateway (appends MoveSubmitted with the store, enqueues the job, waits for the verdict
 * on Redis), worker processes validate. Prints validated moves/s and submit→verdict
 * latency (p50/p99/max, from before the submission's append to the verdict's arrival).
 *
 *   npx tsx --conditions=@shogi/source bench/worker/validate.ts --games 64 --seconds 10
 *   ... --rate 1000        open loop: submissions at 1,000 moves/s spread over the games
 *   ... --workers 2 --concurrency 16
 * Uses DATABASE_URL / REDIS_URL (a fresh database is created and dropped).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { GameEvent } from '@shogi/game';
import { GOTE, gameCreated, randomPlayout, SENTE } from '@shogi/game/testing';
import { type EventEnvelope, enqueueValidate, VALIDATE_QUEUE, type ValidateJob } from '@shogi/pipeline';
import { redisClient } from '@shogi/redis';
import { appendEvents, createPgEventStore, poolOf } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';
import { Queue } from 'bullmq';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '64' },
    seconds: { type: 'string', default: '10' },
    rate: { type: 'string', default: '0' },
    workers: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '32' },
    'driver-in-flight': { type: 'string', default: '1' },
  },
});
const GAMES = Number(args.games);
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const WORKERS = Number(args.workers);
const CONCURRENCY = Number(args.concurrency);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// one Redis: this bench reads the game channels by pattern, which a cluster's sharded channels have not
const ONE_REDIS = { redisUrl: REDIS_URL };

const t = await createTestDatabase({ max: 16 });
// the driver appends like the gateway does: through the batching event store
const store = createPgEventStore(t.db, { maxInFlight: Number(args['driver-in-flight']) });
const prefix = `bench${Date.now().toString(36)}`;
const channelPrefix = `${prefix}:`;
const connection = redisClient(ONE_REDIS, 'bench', { maxRetriesPerRequest: null });
const subscriber = redisClient(ONE_REDIS, 'bench');
const queue = new Queue<ValidateJob>(VALIDATE_QUEUE, { connection, prefix });

const MAIN = fileURLToPath(new URL('../../apps/worker/src/main.ts', import.meta.url));
const children: ChildProcess[] = [];
await Promise.all(
  Array.from({ length: WORKERS }, () => {
    const child = fork(MAIN, [], {
      execArgv: [
        '--import',
        'tsx',
        '--conditions=@shogi/source',
        ...(process.env.BENCH_WORKER_NODE_ARGS?.split(' ') ?? []),
      ],
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        REDIS_URL,
        QUEUE_PREFIX: prefix,
        CHANNEL_PREFIX: channelPrefix,
        WORKER_CONCURRENCY: String(CONCURRENCY),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    return new Promise((resolve) => child.once('message', resolve));
  }),
);

// games replay pre-computed random playouts; a finished game is replaced by a new one
const playouts = Array.from({ length: 32 }, (_, i) => randomPlayout(1000 + i, 300).moves);
interface Table {
  id: string;
  moves: string[];
  ply: number;
  seq: number;
  inFlight: { seq: number; at: number } | null;
  generation: number;
}
let created = 0;
const tables: Table[] = [];
async function newGame(slot: number): Promise<Table> {
  const id = `b${slot}x${created++}`;
  await appendEvents(t.db, id, 0, [gameCreated(id)]);
  return {
    id,
    moves: playouts[created % playouts.length] as string[],
    ply: 0,
    seq: 1,
    inFlight: null,
    generation: created,
  };
}
for (let i = 0; i < GAMES; i++) tables.push(await newGame(i));
const byId = new Map(tables.map((g, i) => [g.id, i]));

const latencies: number[] = [];
let verdicts = 0;
let measuring = false;
const idle: number[] = [];

async function submit(slot: number): Promise<void> {
  let g = tables[slot] as Table;
  if (g.ply >= g.moves.length) {
    byId.delete(g.id);
    g = await newGame(slot);
    tables[slot] = g;
    byId.set(g.id, slot);
  }
  const usi = g.moves[g.ply] as string;
  const player = g.ply % 2 === 0 ? SENTE : GOTE;
  const event: GameEvent = {
    type: 'MoveSubmitted',
    data: {
      playerId: player.id,
      color: g.ply % 2 === 0 ? 'sente' : 'gote',
      usi,
      ply: g.ply,
      receivedAt: new Date().toISOString(),
    },
  };
  const at = performance.now();
  const r = await store.append(g.id, g.seq, [event]);
  g.seq = r.lastSeq;
  g.inFlight = { seq: r.lastSeq, at };
  await enqueueValidate(queue, [{ gameId: g.id, seq: r.lastSeq }]);
}

await subscriber.psubscribe(`${channelPrefix}game:*`);
subscriber.on('pmessage', (_p, _c, message) => {
  const events = JSON.parse(message) as EventEnvelope[];
  const first = events[0];
  if (first === undefined) return;
  const slot = byId.get(first.gameId);
  if (slot === undefined) return;
  const g = tables[slot] as Table;
  if (g.inFlight === null) return;
  const now = performance.now();
  if (measuring) {
    latencies.push(now - g.inFlight.at);
    verdicts++;
  }
  g.inFlight = null;
  g.seq = events.at(-1)?.seq ?? g.seq;
  if (first.type === 'MoveAccepted') g.ply++;
  else g.ply = g.moves.length; // a rejection or end: start a new game
  if (events.some((e) => e.type === 'GameEnded')) g.ply = g.moves.length;
  if (RATE === 0) void submit(slot).catch(fail);
  else idle.push(slot);
});

function fail(e: unknown): void {
  console.error(e);
  process.exitCode = 1;
}

/** CPU seconds (user+system) of a process, from /proc (Linux); 0 when unreadable. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
function pidsNamed(name: string): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === name;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}
async function cpuByRole(): Promise<Record<string, number>> {
  const pool = poolOf(t.db);
  const { rows } = pool
    ? await pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [t.name])
    : { rows: [] };
  const stats = pool
    ? await pool.query<{ xact_commit: string }>('select xact_commit from pg_stat_database where datname = $1', [t.name])
    : { rows: [] };
  const sum = (pids: number[]) => pids.reduce((a, p) => a + cpuSeconds(p), 0);
  return {
    'driver (gateway role)': cpuSeconds(process.pid),
    worker: sum(children.map((c) => c.pid ?? 0)),
    'postgres (this db)': sum(rows.map((r) => r.pid)),
    'redis (all)': sum(pidsNamed('redis-server')),
    transactions: Number(stats.rows[0]?.xact_commit ?? 0),
  };
}

const warmup = 2000;
let cpuStart: Record<string, number> = {};
setTimeout(() => {
  measuring = true;
  void cpuByRole().then((c) => {
    cpuStart = c;
  });
}, warmup);
const started = performance.now();
if (RATE === 0) {
  for (let i = 0; i < GAMES; i++) void submit(i).catch(fail);
} else {
  for (let i = 0; i < GAMES; i++) idle.push(i);
  const tick = 5;
  let due = 0;
  const timer = setInterval(() => {
    due += (RATE * tick) / 1000;
    while (due >= 1 && idle.length > 0) {
      due--;
      void submit(idle.shift() as number).catch(fail);
    }
    if (due > 10) due = 10; // all games busy: the offered load is above what the pipeline keeps up with
  }, tick);
  setTimeout(() => clearInterval(timer), warmup + SECONDS * 1000);
}
await new Promise((r) => setTimeout(r, warmup + SECONDS * 1000));
measuring = false;
const elapsed = (performance.now() - started - warmup) / 1000;
const cpuEnd = await cpuByRole();

latencies.sort((a, b) => a - b);
const q = (p: number) => (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(1);
console.log(
  `games=${GAMES} rate=${RATE || 'closed-loop'} workers=${WORKERS}x${CONCURRENCY}: ` +
    `${(verdicts / elapsed).toFixed(0)} validated moves/s over ${elapsed.toFixed(1)} s; ` +
    `submit→verdict p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`,
);
const transactions = (cpuEnd.transactions ?? 0) - (cpuStart.transactions ?? 0);
delete cpuEnd.transactions;
console.log(
  `PostgreSQL transactions per validated move: ${(transactions / Math.max(1, verdicts)).toFixed(2)} (the driver's append is 1)`,
);
const perMove = Object.entries(cpuEnd).map(
  ([role, end]) => `${role} ${(((end - (cpuStart[role] ?? 0)) / Math.max(1, verdicts)) * 1e6).toFixed(0)} µs`,
);
const busy = Object.entries(cpuEnd).reduce((a, [role, end]) => a + end - (cpuStart[role] ?? 0), 0) / elapsed;
console.log(`CPU per validated move: ${perMove.join(', ')}; these use ${(busy * 100).toFixed(0)}% of one core`);

await new Promise((r) => setTimeout(r, 500));
for (const c of children) c.kill('SIGTERM');
await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
await queue.obliterate({ force: true }).catch(() => undefined);
await queue.close();
await Promise.allSettled([subscriber.quit(), connection.quit()]);
await t.drop();
