/**
 * The CSA front end under load, beside the native WebSocket in the same run: for each K, K
 * concurrent games between scripted CSA clients (each move a line, timed to its echo on the
 * mover's connection), then K games of the same scripts over the player WebSocket (each move a
 * frame, timed to its verdict on the mover's socket). Prints moves/s and p50/p99 for each.
 *
 *   npm run build && npx tsx --conditions=@shogi/source bench/csa/main.ts --games 10,100,500 --seconds 20
 *
 * It starts the built server alone (apps/server/dist/main.js, `--no-demo`) on a scratch
 * database and Redis key prefix, on free ports, with the per-address limits off (every player
 * of the bench comes from this address), and drops what the run made at the end. Options:
 * --games K,K,... (10,100,500) --seconds S per load (20) --warmup S per load (5).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { csaOfUsiMove, PositionHistory, startPosition, toSfen } from '@shogi/rules';
import { createTestDatabase } from '@shogi/store/testing';
import { Redis } from 'ioredis';
import { ApiClient } from '../../apps/server/src/client.js';
import { scripts } from '../e2e/scripts.js';
import { freePort, waitHealthy } from '../e2e/server-process.js';
import { csaSlot, newTally, type Tally, type Window, wsSlot } from './load.js';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '10,100,500' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
  },
});
const SIZES = args.games.split(',').map(Number);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
if (SIZES.some((k) => !Number.isInteger(k) || k <= 0)) throw new Error('--games: whole numbers, comma-separated');

const SERVER = 'apps/server/dist/main.js';
if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The scripts' moves in CSA, each in the position it is played in. */
function csaScript(usis: readonly string[]): string[] {
  const history = new PositionHistory(startPosition());
  const out: string[] = [];
  for (const usi of usis) {
    const csa = csaOfUsiMove(toSfen(history.position), usi);
    if (csa === null || !history.playUsi(usi).ok) break;
    out.push(csa);
  }
  return out;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

function report(k: number, via: string, tally: Tally): string {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(7);
  return `| ${String(k).padStart(4)} | ${via.padEnd(9)} | ${String(tally.games).padStart(6)} | ${(tally.moves / SECONDS).toFixed(0).padStart(7)} | ${f(percentile(sorted, 50))} | ${f(percentile(sorted, 99))} | ${String(tally.errors).padStart(6)} |`;
}

async function run(load: (slot: number, window: Window) => Promise<void>, k: number): Promise<void> {
  const start = performance.now();
  const window = { from: start + WARMUP * 1000, until: start + (WARMUP + SECONDS) * 1000 };
  await Promise.all(Array.from({ length: k }, (_, slot) => load(slot, window)));
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined);

async function main(): Promise<void> {
  const database = await createTestDatabase({ max: 1, migrate: false });
  const prefix = `benchcsa${randomBytes(4).toString('hex')}`;
  const [port, csaPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  try {
    server = spawn(process.execPath, [SERVER, '--no-demo'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL,
        HOST: '127.0.0.1',
        PORT: String(port),
        CSA_PORT: String(csaPort),
        LOG_LEVEL: 'warn',
        QUEUE_PREFIX: prefix,
        CHANNEL_PREFIX: `${prefix}:`,
        // every player of the bench comes from this address: two guests, two connections a
        // game slot, a challenge and its acceptance a native game
        RATE_LIMIT_GUESTS_MAX: '0',
        SOCKET_MAX_PER_IP: '0',
        RATE_LIMIT_LOBBY_MAX: '0',
        RATE_LIMIT_MOVES_MAX: '0',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitHealthy(url, server);
    const usiScripts = scripts(16);
    const csaScripts = usiScripts.map(csaScript);
    const api = new ApiClient(url);
    console.log(`csa bench: K = ${SIZES.join(', ')}; each load ${SECONDS} s after ${WARMUP} s of warm-up`);
    console.log('|    K | via       |  games | moves/s | p50 ms  | p99 ms  | errors |');
    console.log('|------|-----------|--------|---------|---------|---------|--------|');
    for (const k of SIZES) {
      const csa = newTally();
      await run(
        (slot, window) => csaSlot(csaPort, slot, csaScripts[slot % csaScripts.length] as string[], window, csa),
        k,
      );
      console.log(report(k, 'CSA', csa));
      const ws = newTally();
      await run((slot, window) => wsSlot(api, slot, usiScripts[slot % usiScripts.length] as string[], window, ws), k);
      console.log(report(k, 'WebSocket', ws));
    }
  } finally {
    if (server !== null && server.exitCode === null) {
      server.kill('SIGTERM');
      await exited(server);
    }
    await database.drop();
    const redis = new Redis(REDIS_URL);
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>)
      if (keys.length > 0) await redis.unlink(...keys);
    redis.disconnect();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
