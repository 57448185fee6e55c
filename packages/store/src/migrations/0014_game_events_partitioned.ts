/**
 * Frozen. `game_events` becomes a table partitioned by hash of `game_id`, in 8 partitions
 * (`game_events_p0` .. `game_events_p7`), its rows moved over.
 *
 * Why 8: a game's reads and appends touch one partition whatever the count, while every
 * whole-log reader (the read-all horizon, readAll, the projectors) merges one index scan per
 * partition, and the horizon's probes are made under the exclusive read-all lock that pauses
 * appends. PostgreSQL 15 also locks every partition at each run of a generic plan (the
 * store's prepared statements) before pruning, and a backend takes only 16 locks on its fast
 * path: with 8 partitions a game's read stays within them. A power of two so a partition can
 * later be split in place (modulus 8 remainder r becomes modulus 16 remainders r and r + 8).
 *
 * What a partitioned table changes: every unique key must hold the partition key. The
 * primary key (game_id, seq) does; `global_position` loses its unique constraint and keeps a
 * plain index (readAll's range scans and the horizon's max). Positions stay unique because
 * only the one sequence `game_events_global_position_seq` assigns them, whatever partition a
 * row lands in, and it keeps its value across the move. The read-all horizon lock is an
 * advisory lock of the database, not of a table, so it still covers every partition.
 *
 * The move runs in the migration's transaction under an exclusive lock on the old table:
 * appends wait for it and then go to the new table (their prepared statements are planned
 * again, by name). Up and down each do nothing when the table is already in the shape they
 * make, so running either twice is safe.
 */
import { type Kysely, sql } from 'kysely';

const PARTITIONS = 8;
const SEQUENCE = 'game_events_global_position_seq';
const COLUMNS = 'game_id, seq, type, payload, recorded_at, global_position';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
async function isPartitioned(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ relkind: string }>`
    select relkind from pg_class where oid = 'game_events'::regclass`.execute(db);
  return rows[0]?.relkind === 'p';
}

/** The log's columns as 0001 made them, with the position drawn from the existing sequence. */
const columns = `game_id text not null,
  seq integer not null constraint game_events_seq_check check (seq > 0),
  type text not null,
  payload jsonb not null,
  recorded_at timestamptz not null default now(),
  global_position bigint not null default nextval('${SEQUENCE}')`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
async function moveTo(db: Kysely<any>, shape: 'partitioned' | 'plain'): Promise<void> {
  const old = shape === 'partitioned' ? 'game_events_unpartitioned' : 'game_events_partitioned';
  // appends wait here, so none lands in the old table after its rows were copied
  await sql`lock table game_events in access exclusive mode`.execute(db);
  // the sequence outlives the table it was made for
  await sql.raw(`alter sequence ${SEQUENCE} owned by none`).execute(db);
  await sql.raw(`alter table game_events rename to ${old}`).execute(db);
  for (const c of ['game_events_pkey', 'game_events_seq_check'])
    await sql.raw(`alter table ${old} rename constraint ${c} to ${c.replace('game_events', old)}`).execute(db);
  if (shape === 'partitioned') {
    await sql.raw(`create table game_events (${columns}) partition by hash (game_id)`).execute(db);
    for (let r = 0; r < PARTITIONS; r++)
      await sql
        .raw(
          `create table game_events_p${r} partition of game_events for values with (modulus ${PARTITIONS}, remainder ${r})`,
        )
        .execute(db);
  } else await sql.raw(`create table game_events (${columns})`).execute(db);
  // indexes after the rows: one sorted build per index instead of an insert per row
  await sql.raw(`insert into game_events (${COLUMNS}) select ${COLUMNS} from ${old}`).execute(db);
  await sql`alter table game_events add constraint game_events_pkey primary key (game_id, seq)`.execute(db);
  if (shape === 'partitioned')
    await sql`create index game_events_global_position_idx on game_events (global_position)`.execute(db);
  else
    await sql`alter table game_events add constraint game_events_global_position_key unique (global_position)`.execute(
      db,
    );
  await sql.raw(`drop table ${old}`).execute(db);
  await sql.raw(`alter sequence ${SEQUENCE} owned by game_events.global_position`).execute(db);
  // the planner's statistics of the new partitions, before the first generic plans are made
  await sql`analyze game_events`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  if (!(await isPartitioned(db))) await moveTo(db, 'partitioned');
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  if (await isPartitioned(db)) await moveTo(db, 'plain');
}
