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
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { envPairs, exited, type FreshServer, serverMainOf, startFreshServer } from './fresh-server.js';

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
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && !(Number.isInteger(port) && port > 0 && port <= 65_535))
  fail(`--port: not a port: ${values.port}`);
const check = <T>(f: () => T): T => {
  try {
    return f();
  } catch (err) {
    return fail((err as Error).message);
  }
};
check(() => serverMainOf(values['server-dir']));
const env = check(() => envPairs(values.env));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// Ctrl-C reaches the server and the bench too (one process group): this process outlives them to clean up
process.on('SIGINT', () => {});
let server: FreshServer | null = null;
let code = 1;
try {
  server = await startFreshServer({
    serverDir: values['server-dir'],
    ...(port === undefined ? {} : { port }),
    nodeFlags: values['node-flags'].split(' ').filter((f) => f !== ''),
    env,
    redisUrl: REDIS_URL,
  });
  const bench = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=@shogi/source',
      'bench/e2e/main.ts',
      ...['--url', server.url, '--redis', REDIS_URL, '--prefix', server.prefix],
      ...benchArgs,
    ],
    { stdio: 'inherit' },
  );
  await exited(bench);
  code = bench.exitCode ?? 1;
} catch (err) {
  console.error((err as Error).message);
} finally {
  await server?.stop();
}
process.exit(code);
