/**
 * What one round trip to Redis and to PostgreSQL costs this process in CPU (user and
 * kernel), one request at a time on one connection: the price of each hop a move makes.
 *
 *   npx tsx --conditions=@shogi/source bench/e2e/round-trips.ts [--count 20000]
 *
 * Options: --redis URL (redis://127.0.0.1:6379) --database URL (postgres://postgres@localhost:5432/postgres)
 */
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    database: { type: 'string', default: 'postgres://postgres@localhost:5432/postgres' },
  },
});
const N = Number(args.count);

function report(what: string, run: () => Promise<void>) {
  return async () => {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await run();
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - t0;
    console.log(
      `${what.padEnd(34)} CPU ${((used.user + used.system) / N).toFixed(1).padStart(6)} µs (kernel ${(used.system / N).toFixed(1)})  wall ${((wall * 1000) / N).toFixed(1).padStart(6)} µs  per round trip`,
    );
  };
}

const redisUrl = new URL(args.redis);
const socket = connect(Number(redisUrl.port || 6379), redisUrl.hostname);
await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
let pending: (() => void) | null = null;
socket.on('data', () => {
  const p = pending;
  pending = null;
  p?.();
});
await report('Redis PING (raw socket)', async () => {
  for (let i = 0; i < N; i++)
    await new Promise<void>((resolve) => {
      pending = resolve;
      socket.write('PING\r\n');
    });
})();
socket.destroy();

const client = new pg.Client({ connectionString: args.database });
await client.connect();
const query = { name: 'round_trip', text: 'select $1::int as a', values: [1] };
for (let i = 0; i < 100; i++) await client.query(query);
await report('PostgreSQL prepared SELECT (pg)', async () => {
  for (let i = 0; i < N; i++) await client.query(query);
})();
await client.end();
