/**
 * `npm run projections:rebuild -w @shogi/store`: rebuilds the projections from the event
 * log: the games table (one transaction) and the statistics tables (truncate, then replay
 * from position 0 in checkpointed batches; the ratings are rebuilt with them) and the tournaments'
 * (each stream folded anew). `--stats`, `--games` or `--tournaments` for one of them.
 */
import { createDb } from '../db.js';
import { rebuildGamesTable } from '../games.js';
import { migrateToLatest } from '../migrate.js';
import { rebuildStats } from '../stats/projector.js';
import { rebuildTournaments } from '../tournaments/rebuild.js';

const args = new Set(process.argv.slice(2));
const all = !args.has('--stats') && !args.has('--games') && !args.has('--tournaments');
const url = process.env.DATABASE_URL ?? 'postgres://localhost:5432/shogi';
const db = createDb(url, { max: 2, analytic: true });
const started = performance.now();
try {
  await migrateToLatest(db);
  if (all || args.has('--games')) {
    const t = performance.now();
    const n = await rebuildGamesTable(db);
    console.log(`games: ${n} rows rebuilt in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  if (all || args.has('--stats')) {
    const t = performance.now();
    const n = await rebuildStats(db);
    console.log(`stats and ratings: ${n} finished games rebuilt in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  if (all || args.has('--tournaments')) {
    const t = performance.now();
    const n = await rebuildTournaments(db);
    console.log(`tournaments: ${n} rebuilt in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  if (all) console.log(`all projections rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(`rebuild failed on ${url.replace(/\/\/[^@]*@/, '//***@')}: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
