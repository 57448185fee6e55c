/**
 * One e2e bench run the way bench/e2e/README.md's figures were taken: a scratch database and its own
 * Redis key prefixes, the built server started alone on them (`--no-demo`, default settings
 * but the per-IP guest limit, off: the bench's players all come from this address),
 * the bench against it, then the server stopped with SIGTERM, the database dropped and the
 * run's Redis keys deleted. Everything after `--` goes to the bench (bench/e2e/main.ts):
 *
 *   npm run bench:e2e:fresh -- -- --games 300 --rate 1000 --seconds 20 --warmup 15 --stagger 10
 *   npm run bench:e2e:fresh -- --server-dir ../other-checkout --node-flags=--trace-gc -- --rate 0
 *
 * Options before `--`: `--port` (default: a free one), `--server-dir` (this checkout; another
 * built checkout to compare builds), `--node-flags` (for the server's node, e.g.
 * `--import ./x.mjs`), and `--env NAME=VALUE` (repeatable, for the server, e.g.
 * RATE_LIMIT_MOVES_MAX=0). Needs
 * `npm run build` (or `npm install`) first; DATABASE_URL and REDIS_URL as for the tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '@shogi/store/testing';
import { Redis } from 'ioredis';
import { freePort, waitHealthy } from './server-process.js';

const USAGE =
  'usage: npm run bench:e2e:fresh -- [--port N] [--server-dir DIR] [--node-flags="FLAGS"] [--env NAME=VALUE ...] -- <bench args>';
const fail = (message: string): never => {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
};

const dashDash = process.argv.indexOf('--', 2);
const own = dashDash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashDash);
const benchArgs = dashDash === -1 ? [] : process.argv.slice(dashDash + 1);
const parse = () => {
  try {
    return parseArgs({
      args: own,
      options: {
        port: { type: 'string' },
        'server-dir': { type: 'string', default: '.' },
        'node-flags': { type: 'string', default: '' },
        env: { type: 'string', multiple: true, default: [] },
      },
    }).values;
  } catch (err) {
    return fail((err as Error).message);
  }
};
const values = parse();
// a free port unless told: another server already on a fixed one would answer the health check
const port = values.port === undefined ? await freePort() : Number(values.port);
if (!Number.isInteger(port) || port <= 0 || port > 65_535) fail(`--port: not a port: ${values.port}`);
const serverMain = resolve(values['server-dir'], 'apps/server/dist/main.js');
if (!existsSync(serverMain))
  fail(`${serverMain} is missing: run \`npm run build\` in ${resolve(values['server-dir'])} first`);
const extraEnv = Object.fromEntries(
  values.env.map((kv) => {
    const i = kv.indexOf('=');
    return i > 0 ? [kv.slice(0, i), kv.slice(i + 1)] : fail(`--env wants NAME=VALUE, got "${kv}"`);
  }),
);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const url = `http://127.0.0.1:${port}`;
// the run's own queues and channels: nothing left by another run (or a running server) is read
const prefix = `bench${randomBytes(4).toString('hex')}`;

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined);

async function deleteKeys(pattern: string): Promise<number> {
  const redis = new Redis(REDIS_URL);
  let deleted = 0;
  try {
    for await (const keys of redis.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}

// Ctrl-C reaches the server and the bench too (one process group): this process outlives them to clean up
process.on('SIGINT', () => {});
const database = await createTestDatabase({ max: 1, migrate: false });
let server: ChildProcess | null = null;
let code = 1;
try {
  const flags = values['node-flags'].split(' ').filter((f) => f !== '');
  server = spawn(process.execPath, [...flags, serverMain, '--no-demo'], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: prefix,
      // this bench is not about the CSA listener, and several gateways would take one port
      CSA_PORT: '0',
      CHANNEL_PREFIX: `${prefix}:`,
      // the bench's players all come from this address: two guests and their two player
      // sockets per game slot, and a challenge and its acceptance per game
      RATE_LIMIT_GUESTS_MAX: '0',
      SOCKET_MAX_PER_IP: '0',
      RATE_LIMIT_LOBBY_MAX: '0',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitHealthy(url, server);
  const bench = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=@shogi/source',
      'bench/e2e/main.ts',
      ...['--url', url, '--redis', REDIS_URL, '--prefix', prefix],
      ...benchArgs,
    ],
    { stdio: 'inherit' },
  );
  await exited(bench);
  code = bench.exitCode ?? 1;
} catch (err) {
  console.error((err as Error).message);
} finally {
  if (server !== null && server.exitCode === null) {
    server.kill('SIGTERM');
    await exited(server);
  }
  await database.drop();
  await deleteKeys(`${prefix}*`);
}
process.exit(code);
