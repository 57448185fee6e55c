/**
 * Migration 0015 on a database holding played and imported games. Down merges each
 * imported count into the played rows, as the statistics were counted before it (one set of
 * rows for every game); up then moves the imported games' counts apart again, and must
 * give exactly the rows the projector writes (the live path) and a rebuild from the log
 * writes. The log, finished_games and the imported records are untouched throughout.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  catchUp,
  createMigrator,
  createPgEventStore,
  type Db,
  DERIVED_STATS_TABLES,
  importRecord,
  migrateToLatest,
  rebuildStats,
  resultsSummary,
} from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { playLoggedGame } from './logged-games.js';

const BEFORE = '0014_game_events_partitioned';
const ROOT = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games/wcsc28');
const FILES = readdirSync(ROOT).sort().slice(0, 10);
/** the counters 0015 gives a source column */
const COUNTERS = ['results_counters', 'results_rollups', 'length_counters', 'player_results', 'opening_counters'];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
  await migrateToLatest(t.db);
});
afterAll(async () => t?.drop());

async function migrateTo(name: string): Promise<void> {
  const r = await createMigrator(t.db).migrateTo(name);
  if (r.error !== undefined) throw r.error;
}

async function rows(db: Db, tables: readonly string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const r = await sql.raw(`select * from ${table}`).execute(db);
    out[table] = r.rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** What no migration of the statistics may change: the log, the finished games, the imported records. */
const SOURCE_DATA = ['game_events', 'finished_games', 'imported_games'];

async function columns(table: string): Promise<string[]> {
  const r = await sql<{ column_name: string }>`
    select column_name from information_schema.columns where table_name = ${table} order by column_name`.execute(t.db);
  return r.rows.map((c) => c.column_name);
}

test('0015 moves the imported games counts apart as the projector counts them; down merges them back', async () => {
  // played games (some resigned, some left ongoing) and imported records, projected live
  const store = createPgEventStore(t.db);
  await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      playLoggedGame(store, `played-${i}`, { seed: i + 1, plies: 4 + (i % 4) * 6, resign: i % 4 !== 3 }),
    ),
  );
  for (const f of FILES) {
    const r = await importRecord(t.db, readFileSync(join(ROOT, f)), f);
    expect(r.ok && !('duplicate' in r)).toBe(true);
  }
  await catchUp(t.db);
  const live = await rows(t.db, DERIVED_STATS_TABLES);
  const data = await rows(t.db, SOURCE_DATA);
  const imported = await resultsSummary(t.db, { source: 'imported' });
  expect(imported.games + imported.noResult).toBe(FILES.length);
  const played = await resultsSummary(t.db);
  expect(played.games + played.noResult).toBeGreaterThan(0);

  // down: one set of counters for every game, as before 0015
  await migrateTo(BEFORE);
  for (const table of COUNTERS) expect(await columns(table)).not.toContain('source');
  const merged = await sql<{ n: string }>`
    select sum(sente_wins + gote_wins + draws + no_result) as n from results_rollups where grain = 'all'`.execute(t.db);
  expect(Number(merged.rows[0]?.n)).toBe(played.games + played.noResult + FILES.length);
  expect(await rows(t.db, SOURCE_DATA)).toEqual(data);

  // up: the imported counts moved apart, row for row what the projector wrote
  await migrateToLatest(t.db);
  for (const table of COUNTERS) expect(await columns(table)).toContain('source');
  expect(await rows(t.db, DERIVED_STATS_TABLES)).toEqual(live);
  expect(await resultsSummary(t.db)).toEqual(played);
  expect(await resultsSummary(t.db, { source: 'imported' })).toEqual(imported);
  expect(await rows(t.db, SOURCE_DATA)).toEqual(data);

  // and a rebuild from the log writes the same rows again
  await rebuildStats(t.db);
  expect(await rows(t.db, DERIVED_STATS_TABLES)).toEqual(live);
  expect(await rows(t.db, SOURCE_DATA)).toEqual(data);
});

test('0015 on counters written before it: the played rows keep only the played games', async () => {
  // the counters as they were: every game in one set of rows
  await migrateTo(BEFORE);
  const before = await sql<{ n: string }>`
    select count(*) as n from results_rollups where grain = 'all'`.execute(t.db);
  expect(Number(before.rows[0]?.n)).toBeGreaterThan(0);
  await migrateToLatest(t.db);
  // every imported game is counted under imported only, every played one under played only
  const bySource = await sql<{ source: string; n: string }>`
    select source, sum(sente_wins + gote_wins + draws + no_result) as n from results_rollups
    where grain = 'all' group by source order by source`.execute(t.db);
  const finished = await sql<{ imported: boolean; n: string }>`
    select imported, count(*) as n from finished_games group by imported order by imported`.execute(t.db);
  expect(bySource.rows.map((r) => [r.source, Number(r.n)])).toEqual(
    finished.rows.map((r) => [r.imported ? 'imported' : 'played', Number(r.n)]).reverse(),
  );
  // no played row is left at zero by the move
  for (const table of ['results_rollups', 'results_counters']) {
    const zero = await sql
      .raw(`select count(*) as n from ${table}
      where sente_wins + gote_wins + draws + no_result = 0`)
      .execute(t.db);
    expect(Number((zero.rows[0] as { n: string }).n)).toBe(0);
  }
});
