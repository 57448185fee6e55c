/**
 * lishogi Bot API latency beside the native player WebSocket's, on a fresh server of its own
 * (bench/e2e/fresh-server.ts). For each N, N games on each path, both sides moving at once
 * when it is their turn (demo-brain games, bench/e2e/scripts.ts, the same on both paths):
 *
 * - lishogi: a bot account (Bot API) against a person (Board API); each move a move POST,
 *   timed to the opponent's game stream showing the gameState line with it (lishogi-load.ts);
 * - native, the reference: two guests on their player WebSockets; each move a `move` frame,
 *   timed to the opponent's socket showing its MoveAccepted (native-load.ts).
 *
 * For each N the two paths run in rounds, the order turned every round (ABBA with the default
 * two), pooled per path. It prints p50/p99/max and moves/s per N and path, the ratio of the
 * two, and per move the server's CPU and the PostgreSQL transactions of the scratch database.
 *
 *   npm run build && npm run bench:lishogi
 *   npm run bench:lishogi -- --concurrency 1,10 --seconds 5
 *
 * Options: --concurrency (1,10,50) --seconds S (10, each phase's window) --warmup S (5)
 * --rounds R (2) --paths (lishogi,native) --stall-ms (10000) --server-dir DIR (.) --port N
 * --node-flags="FLAGS" (for the server's node, e.g. --cpu-prof) --env NAME=VALUE (repeatable,
 * for the server). Needs `npm run build` first; DATABASE_URL and REDIS_URL as for the tests.
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ApiClient } from '../../apps/server/src/client.js';
import { envPairs, startFreshServer } from '../e2e/fresh-server.js';
import { scripts } from '../e2e/scripts.js';
import { LishogiHttp } from './http-client.js';
import { closeLishogiPairs, type LishogiPair, lishogiPairs, lishogiSlot } from './lishogi-load.js';
import { type NativePair, nativePairs, nativeSlot } from './native-load.js';
import { cpuOf } from './own-cpu.js';
import { PgTransactions } from './pg-transactions.js';
import { Phase, Tally } from './phase.js';
import { figuresOf, type PhaseFigures, printPhase, printSummary } from './report.js';

const PATHS = ['lishogi', 'native'] as const;
type Path = (typeof PATHS)[number];

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,10,50' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    paths: { type: 'string', default: PATHS.join(',') },
    'stall-ms': { type: 'string', default: '10000' },
    'server-dir': { type: 'string', default: '.' },
    port: { type: 'string' },
    'node-flags': { type: 'string', default: '' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
const concurrencies = values.concurrency.split(',').map(Number);
if (!concurrencies.every((n) => Number.isInteger(n) && n > 0)) throw new Error('--concurrency: whole numbers above 0');
const paths = values.paths.split(',') as Path[];
for (const p of paths) if (!PATHS.includes(p)) throw new Error(`--paths: one or more of ${PATHS.join(',')}, not ${p}`);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds: a whole number above 0');
const STALL_MS = Number(values['stall-ms']);
const most = Math.max(...concurrencies);
const serverEnv = {
  // every account of the bench registers and logs in from this address
  RATE_LIMIT_AUTH_MAX: '0',
  // the limits are not what is measured: both paths run without them
  RATE_LIMIT_MOVES_MAX: '0',
  RATE_LIMIT_CHAT_MAX: '0',
  ...envPairs(values.env),
};

const pool = scripts(16);
const script = (index: number, g: number) => pool[(index + g) % pool.length] as string[];

interface Clients {
  readonly http: LishogiHttp;
  readonly api: ApiClient;
  readonly lishogi: readonly LishogiPair[];
  readonly native: readonly NativePair[];
  /** the processes whose CPU each phase reports */
  readonly pids: ReadonlyMap<string, number>;
  readonly transactions: PgTransactions;
}

/** N games on one path for warm-up + window, every game over when it returns; what it measured goes to `tally`. */
async function runPhase(clients: Clients, path: Path, n: number, tally: Tally): Promise<void> {
  const phase = new Phase(WARMUP, SECONDS);
  const usageAt = (s: number) =>
    new Promise<{ cpu: Map<string, number>; transactions: number }>((resolve, reject) =>
      setTimeout(() => {
        const cpu = cpuOf(clients.pids);
        clients.transactions.count().then((transactions) => resolve({ cpu, transactions }), reject);
      }, s * 1000),
    );
  const [from, to] = [usageAt(WARMUP), usageAt(WARMUP + SECONDS)];
  const common = { phase, stallMs: STALL_MS, script };
  const slots = Array.from({ length: n }, (_, i) =>
    path === 'lishogi'
      ? lishogiSlot({ ...common, client: clients.http }, clients.lishogi[i] as LishogiPair, i)
      : nativeSlot({ ...common, client: clients.api }, clients.native[i] as NativePair, i),
  );
  await Promise.all(slots);
  const [before, after] = [await from, await to];
  tally.add(phase, SECONDS, {
    cpu: new Map([...after.cpu].map(([name, s]) => [name, s - (before.cpu.get(name) ?? 0)])),
    transactions: after.transactions - before.transactions,
  });
}

/** The paths' phases at one N, `ROUNDS` each, the order turned every round (ABBA for two) so drift weighs alike. */
async function atConcurrency(clients: Clients, n: number): Promise<PhaseFigures[]> {
  const tallies = new Map(paths.map((p) => [p, new Tally()]));
  for (let round = 0; round < ROUNDS; round++)
    for (const path of round % 2 === 0 ? paths : [...paths].reverse())
      await runPhase(clients, path, n, tallies.get(path) as Tally);
  return paths.map((p) => figuresOf(p, n, tallies.get(p) as Tally));
}

async function main(): Promise<number> {
  console.log(
    `lishogi latency bench: N = ${concurrencies.join(', ')} games, paths ${paths.join(', ')}, ${ROUNDS} rounds of ${SECONDS} s after ${WARMUP} s warm-up each; ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `server settings beside the shipped ones: ${Object.entries(serverEnv)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} (and the bench clients' limits off, as bench:e2e:fresh)`,
  );
  const server = await startFreshServer({
    serverDir: values['server-dir'],
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
    nodeFlags: values['node-flags'].split(' ').filter((f) => f !== ''),
    env: serverEnv,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  // Ctrl-C reaches the server too (one process group): what it made is still dropped
  process.once('SIGINT', () => {
    const exit = () => process.exit(130);
    server.stop().then(exit, exit);
  });
  const http = new LishogiHttp(server.url);
  const transactions = await PgTransactions.open(server.databaseUrl);
  let lishogi: LishogiPair[] = [];
  try {
    const setupFrom = performance.now();
    const api = new ApiClient(server.url);
    lishogi = paths.includes('lishogi') ? await lishogiPairs(http, most) : [];
    const native = paths.includes('native') ? await nativePairs(api, most) : [];
    console.log(
      `${most} pairs of players on each path made in ${((performance.now() - setupFrom) / 1000).toFixed(1)} s`,
    );
    const pids = new Map([
      ['server', server.child.pid ?? Number.NaN],
      ['bench', process.pid],
    ]);
    const clients: Clients = { http, api, lishogi, native, pids, transactions };
    const all: PhaseFigures[] = [];
    for (const n of concurrencies) {
      const figures = await atConcurrency(clients, n);
      printPhase(n, figures);
      all.push(...figures);
    }
    printSummary(all);
    return all.some((f) => f.problems > 0) ? 1 : 0;
  } finally {
    closeLishogiPairs(lishogi);
    http.close();
    // the scratch database is dropped at stop, which its open connections would refuse
    await transactions.close();
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
