/**
 * Frozen. The opening explorer's index (docs/explorer.md): `explorer_runs`, per source
 * (`played`, `imported`) and bucket (the top 16 bits of a position's key) packed runs of
 * per-move counts; a write adds a run, a compaction merges a bucket's runs into one. A derived
 * table: `projections:rebuild` rebuilds it from the log. The finished games' global positions
 * are the index's game references, looked up for the top and recent games.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table explorer_runs (
    source text not null check (source in ('played', 'imported')),
    bucket integer not null,
    run bigint generated always as identity,
    data bytea not null,
    primary key (source, bucket, run)
  )`.execute(db);
  await sql`create index finished_games_global_position on finished_games (global_position)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index finished_games_global_position`.execute(db);
  await sql`drop table explorer_runs`.execute(db);
}
