/**
 * Frozen. Rollups so a statistics query sums a few rows whatever its date range: the
 * counters of 0004 get a `grain` ('day' | 'month' | 'year' | 'all'; `day` is then the
 * period's first day, 1970-01-01 for 'all'), and `results_rollups` holds the results
 * without the ending reason (so the results query reads far fewer rows per period).
 * A range is summed as its edge days, edge months and whole years. Rows counted before
 * this migration are rolled up here, so no rebuild is needed.
 */
import { type Kysely, sql } from 'kysely';

const DIMS = 'ruleset, handicap, rated, time_category';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, extra, sums] of [
    ['results_counters', 'end_reason', 'sente_wins, gote_wins, draws, no_result'],
    ['length_counters', 'bucket', 'games'],
  ] as const) {
    await sql.raw(`alter table ${table} add column grain text not null default 'day'`).execute(db);
    await sql.raw(`alter table ${table} drop constraint ${table}_pk`).execute(db);
    await sql
      .raw(`alter table ${table} add constraint ${table}_pk primary key (grain, day, ${DIMS}, ${extra})`)
      .execute(db);
    const sumList = sums
      .split(', ')
      .map((c) => `sum(${c})`)
      .join(', ');
    for (const [grain, period] of [
      ['month', "date_trunc('month', day)::date"],
      ['year', "date_trunc('year', day)::date"],
      ['all', "'1970-01-01'::date"],
    ] as const)
      await sql
        .raw(
          `insert into ${table} (grain, day, ${DIMS}, ${extra}, ${sums})
           select '${grain}', ${period}, ${DIMS}, ${extra}, ${sumList} from ${table} where grain = 'day'
           group by ${period}, ${DIMS}, ${extra}`,
        )
        .execute(db);
  }
  await db.schema
    .createTable('results_rollups')
    .addColumn('grain', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('ruleset', 'text', (c) => c.notNull())
    .addColumn('handicap', 'text', (c) => c.notNull())
    .addColumn('rated', 'boolean', (c) => c.notNull())
    .addColumn('time_category', 'text', (c) => c.notNull())
    .addColumn('sente_wins', 'bigint', (c) => c.notNull())
    .addColumn('gote_wins', 'bigint', (c) => c.notNull())
    .addColumn('draws', 'bigint', (c) => c.notNull())
    .addColumn('no_result', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('results_rollups_pk', ['grain', 'day', 'ruleset', 'handicap', 'rated', 'time_category'])
    .execute();
  await sql
    .raw(
      `insert into results_rollups (grain, day, ${DIMS}, sente_wins, gote_wins, draws, no_result)
       select grain, day, ${DIMS}, sum(sente_wins), sum(gote_wins), sum(draws), sum(no_result)
       from results_counters group by grain, day, ${DIMS}`,
    )
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('results_rollups').execute();
  for (const [table, extra] of [
    ['results_counters', 'end_reason'],
    ['length_counters', 'bucket'],
  ] as const) {
    await sql.raw(`delete from ${table} where grain <> 'day'`).execute(db);
    await sql.raw(`alter table ${table} drop constraint ${table}_pk`).execute(db);
    await sql.raw(`alter table ${table} drop column grain`).execute(db);
    await sql.raw(`alter table ${table} add constraint ${table}_pk primary key (day, ${DIMS}, ${extra})`).execute(db);
  }
}
