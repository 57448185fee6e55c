/**
 * The settings of the store's sessions: the event store's prepared statements keep their
 * index plans on a young database, and the server's pools neither JIT-compile nor
 * parallelize their queries (see createDb).
 *
 * Their sessions plan once per statement (force_generic_plan), from the tables as they are
 * then. On a new database, the append's update of `games` was planned as a sequential scan
 * and kept that plan while the table grew: every append read every game. Counted here from
 * PostgreSQL's own table statistics, which a backend flushes when it exits.
 */
import { gameCreated, moveSubmitted } from '@shogi/game/testing';
import { appendEvents, appendMany, createDb, type Db, migrateToLatest, poolOf, readStream } from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
});
afterAll(async () => {
  await t?.drop();
});

/**
 * Runs `body` on a pool of its own, then waits until its sessions have exited (and so
 * flushed their statistics). db.destroy() must close every session, even those of a db
 * that only ever ran the prepared statements.
 */
async function inOwnSessions(body: (db: Db) => Promise<void>): Promise<void> {
  const db = createDb(t.url, { max: 1, applicationName: 'plans-test' });
  try {
    await body(db);
  } finally {
    await db.destroy();
  }
  const open = `select state, query from pg_stat_activity where datname = $1 and application_name = 'plans-test'`;
  for (let i = 0; i < 100; i++) {
    if ((await query(open, [t.name])).rowCount === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`sessions left open after db.destroy(): ${JSON.stringify((await query(open, [t.name])).rows)}`);
}

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
  const client = new pg.Client({ connectionString: t.url });
  await client.connect();
  try {
    return await client.query<R>(text, values);
  } finally {
    await client.end();
  }
}

/** Summed over the table's partitions (a partitioned table's own counters stay at zero). */
async function sequentialScans(table: string): Promise<number> {
  const { rows } = await query<{ n: string | number | null }>(
    `select sum(seq_scan) as n from pg_stat_user_tables
     where relid = $1::regclass or relid in (select relid from pg_partition_tree($1::regclass) where isleaf)`,
    [table],
  );
  return Number(rows[0]?.n ?? Number.NaN);
}

it('appends and reads by key on a young database, without scanning games or the log', async () => {
  await inOwnSessions(async (db) => {
    await migrateToLatest(db);
  });
  const games = ['young1', 'young2', 'young3'];
  await inOwnSessions(async (db) => {
    for (const id of games) await appendEvents(db, id, 0, [gameCreated(id)]);
  });
  const before = { games: await sequentialScans('games'), events: await sequentialScans('game_events') };

  await inOwnSessions(async (db) => {
    // one game at a time, then all three in one statement: the store's two shapes of append
    for (const id of games) await appendEvents(db, id, 1, [moveSubmitted('7g7f', 0)]);
    const results = await appendMany(
      db,
      games.map((gameId) => ({ gameId, expectedSeq: 2, events: [moveSubmitted('3c3d', 1)] })),
    );
    expect(results.every((r) => !(r instanceof Error))).toBe(true);
    for (const id of games) expect((await readStream(db, id)).map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  expect(await sequentialScans('games')).toBe(before.games);
  expect(await sequentialScans('game_events')).toBe(before.events);
});

it('runs the server pools without JIT or parallel workers, analytic pools with the server defaults', async () => {
  const settings = `select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`;
  const defaults = (await query<{ jit: string; workers: string }>(settings)).rows[0];
  const read = async (analytic: boolean) => {
    const db = createDb(t.url, { max: 1, analytic });
    try {
      const kyselyPool = (await sql<{ jit: string; workers: string }>`${sql.raw(settings)}`.execute(db)).rows[0];
      const statementsPool = (await poolOf(db)?.query<{ jit: string; workers: string }>(settings))?.rows[0];
      return [kyselyPool, statementsPool];
    } finally {
      await db.destroy();
    }
  };
  expect(await read(false)).toEqual([
    { jit: 'off', workers: '0' },
    { jit: 'off', workers: '0' },
  ]);
  expect(await read(true)).toEqual([defaults, defaults]);
});
