/**
 * PostgreSQL transactions per game start (create, two player sockets caught up, their close)
 * against a running server, counted from pg_stat_database over N sequential starts. Start the
 * server without the worker's background work so only the starts count:
 *
 *   WORKER_PROJECTOR_INTERVAL_MS=0 WORKER_SWEEP_INTERVAL_MS=0 npm start -- --no-demo
 *   npx tsx --conditions=@shogi/source bench/e2e/game-start.ts --database shogi --games 100
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ApiClient } from '../../apps/server/src/client.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    admin: { type: 'string', default: 'postgres://postgres@localhost:5432/postgres' },
    database: { type: 'string', default: 'shogi' },
    games: { type: 'string', default: '100' },
  },
});
const api = new ApiClient(values.url);
const admin = new pg.Client({ connectionString: values.admin });
await admin.connect();
// an idle backend publishes its counters up to 10 s late (PGSTAT_IDLE_INTERVAL): wait before each reading
const settle = () => new Promise((r) => setTimeout(r, 11_000));
const commits = async () => {
  await admin.query('select pg_stat_clear_snapshot()');
  const r = await admin.query('select xact_commit from pg_stat_database where datname = $1', [values.database]);
  return Number(r.rows[0]?.xact_commit);
};
const N = Number(values.games);
// a pair per game: players start games by challenge and acceptance, which are rate-limited per token
const pairs = [];
for (let i = 0; i < N; i++)
  pairs.push([await api.createPlayer(`start-${i}-a`), await api.createPlayer(`start-${i}-b`)] as const);
await settle();
const before = await commits();
for (const [a, b] of pairs) {
  const game = await api.startGame(a, b);
  const sockets = await Promise.all([api.playerSocket(game.id, a.token), api.playerSocket(game.id, b.token)]);
  await Promise.all(sockets.map((s) => s.waitFor((m) => m.type === 'events')));
  await Promise.all(sockets.map((s) => s.close()));
}
await settle();
const after = await commits();
await settle();
const background = (await commits()) - after;
console.log(
  `${((after - before - 2 * background) / N).toFixed(2)} PostgreSQL transactions per game start ` +
    `(create, two player sockets, close; ${N} starts; ${background} in the background per 11 s)`,
);
await admin.end();
process.exit(0);
