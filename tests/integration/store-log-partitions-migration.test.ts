/**
 * Migration 0014 on a database with games in it: the log as the server wrote it before, moved
 * into hash partitions with every event there once, at the same global position, and read the
 * same; appends made while it runs wait and land in the new table; down gives the plain table
 * back, and running it again changes nothing.
 */
import type { RecordedEvent } from '@shogi/game';
import {
  compareGamesWithLog,
  createMigrator,
  createPgEventStore,
  type Db,
  migrateToLatest,
  readAll,
} from '@shogi/store';
import { createTestDatabase, logPartitions, type TestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { playLoggedGame } from './logged-games.js';

const BEFORE = '0013_bot_accounts';
const PARTITIONED = '0014_game_events_partitioned';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
});
afterAll(async () => t?.drop());

async function migrateTo(name: string): Promise<void> {
  const r = await createMigrator(t.db).migrateTo(name);
  if (r.error !== undefined) throw r.error;
}

async function tableKind(db: Db): Promise<string> {
  const { rows } = await sql<{ relkind: string }>`
    select relkind from pg_class where oid = 'game_events'::regclass`.execute(db);
  return rows[0]?.relkind ?? '';
}

/** Every row of the log, in global order, as text: equal means every event is there once, unchanged. */
async function logRows(db: Db): Promise<string[]> {
  const { rows } = await sql<Record<string, unknown>>`
    select game_id, seq, type, payload, recorded_at, global_position from game_events
    order by global_position`.execute(db);
  return rows.map((r) => JSON.stringify(r));
}

async function uniqueKeys(db: Db): Promise<string[]> {
  const { rows } = await sql<{ def: string }>`
    select pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = 'game_events'::regclass and contype in ('p', 'u') order by 1`.execute(db);
  return rows.map((r) => r.def);
}

const GAMES = Array.from({ length: 24 }, (_, i) => `pre-${i}`);

test('0014 moves a log with games into hash partitions, reads the same, and goes back down', async () => {
  await migrateTo(BEFORE);
  expect(await tableKind(t.db)).toBe('r');
  // 1. games written as the server writes them, concurrently (so the store batches them and
  // their positions interleave)
  const store = createPgEventStore(t.db);
  await Promise.all(
    GAMES.map((id, i) => playLoggedGame(store, id, { seed: i + 1, plies: 6 + (i % 5) * 4, resign: i % 3 !== 2 })),
  );
  const rowsBefore = await logRows(t.db);
  const streamsBefore = await Promise.all(GAMES.map((id) => store.readStream(id)));
  const allBefore = await readAll(t.db, 0, 100_000);
  expect(allBefore.length).toBe(rowsBefore.length);

  // 2. up, while more games are being appended through the same store and its sessions
  const during = Array.from({ length: 6 }, (_, i) => `during-${i}`);
  await Promise.all([
    migrateTo(PARTITIONED),
    ...during.map((id, i) => playLoggedGame(store, id, { seed: 100 + i, plies: 10, resign: true })),
  ]);
  expect(await tableKind(t.db)).toBe('p');
  const partitions = await logPartitions(t.db);
  expect(partitions).toEqual(Array.from({ length: 8 }, (_, r) => `game_events_p${r}`));
  expect(await uniqueKeys(t.db)).toEqual(['PRIMARY KEY (game_id, seq)']);

  // every event once, at its position: the old rows unchanged, the concurrent games whole
  const rowsAfter = await logRows(t.db);
  const keys = rowsAfter.map((r) => {
    const { game_id, seq } = JSON.parse(r) as { game_id: string; seq: number };
    return `${game_id}:${seq}`;
  });
  expect(new Set(keys).size).toBe(keys.length);
  expect(rowsAfter.filter((r) => JSON.parse(r).game_id.startsWith('pre-'))).toEqual(rowsBefore);
  for (const id of during) {
    const stream = await store.readStream(id);
    expect(stream.map((e) => e.seq)).toEqual(stream.map((_, i) => i + 1));
    expect(stream.at(-1)?.type).toBe('GameEnded');
  }
  // rows spread over the partitions, each game in one of them
  const { rows: spread } = await sql<{ partition: string; games: number }>`
    select tableoid::regclass::text as partition, count(distinct game_id)::int as games from game_events
    group by 1`.execute(t.db);
  expect(spread.length).toBeGreaterThan(4);
  expect(spread.reduce((n, p) => n + p.games, 0)).toBe(GAMES.length + during.length);

  // 3. reads are the same: per game, the whole log in global order, the games table
  expect(await Promise.all(GAMES.map((id) => store.readStream(id)))).toEqual(streamsBefore);
  const allAfter = await readAll(t.db, 0, 100_000);
  const pre = (events: RecordedEvent[]) => events.filter((e) => e.gameId.startsWith('pre-'));
  expect(pre(allAfter)).toEqual(allBefore);
  expect(allAfter.map((e) => e.globalPosition)).toEqual(
    [...allAfter.map((e) => e.globalPosition)].sort((a, b) => a - b),
  );
  expect((await compareGamesWithLog(t.db)).differences).toEqual([]);

  // 4. the sequence carried on: a new append's position is past every moved one
  const last = allAfter.at(-1)?.globalPosition ?? 0;
  await playLoggedGame(store, 'post-0', { seed: 7, plies: 2, resign: true });
  const fresh = await readAll(t.db, last, 100);
  expect(fresh.map((e) => e.gameId)).toEqual(fresh.map(() => 'post-0'));
  expect(fresh.length).toBeGreaterThan(0);

  // 5. running up again (its record lost) finds the table partitioned and leaves it alone
  const rowsUp = await logRows(t.db);
  await sql`delete from kysely_migration where name = ${PARTITIONED}`.execute(t.db);
  await migrateToLatest(t.db);
  expect(await logRows(t.db)).toEqual(rowsUp);

  // 6. down: the plain table with its unique position back, every row kept; then up again
  await migrateTo(BEFORE);
  expect(await tableKind(t.db)).toBe('r');
  expect(await logPartitions(t.db)).toEqual(['game_events']);
  expect(await uniqueKeys(t.db)).toEqual(['PRIMARY KEY (game_id, seq)', 'UNIQUE (global_position)']);
  expect(await logRows(t.db)).toEqual(rowsUp);
  expect(await Promise.all(GAMES.map((id) => store.readStream(id)))).toEqual(streamsBefore);
  await migrateToLatest(t.db);
  expect(await tableKind(t.db)).toBe('p');
  expect(await logRows(t.db)).toEqual(rowsUp);
  await playLoggedGame(store, 'post-1', { seed: 8, plies: 2, resign: true });
  const post1 = await store.readStream('post-1');
  expect(post1.at(-1)?.type).toBe('GameEnded');
  expect((await readAll(t.db, 0, 100_000)).length).toBe(rowsUp.length + post1.length);
});
