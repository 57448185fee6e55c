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
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { csaOfUsiMove, PositionHistory, startPosition, toSfen } from '@shogi/rules';
import { ApiClient } from '../../apps/server/src/client.js';
import { startFreshServer } from '../e2e/fresh-server.js';
import { scripts } from '../e2e/scripts.js';
import { freePort } from '../e2e/server-process.js';
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

async function main(): Promise<void> {
  const csaPort = await freePort();
  const server = await startFreshServer({
    serverDir: '.',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    // the CSA listener on a port of its own; the moves of a CSA game slot come from one address
    env: { CSA_PORT: String(csaPort), RATE_LIMIT_MOVES_MAX: '0' },
  });
  try {
    const usiScripts = scripts(16);
    const csaScripts = usiScripts.map(csaScript);
    const api = new ApiClient(server.url);
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
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
