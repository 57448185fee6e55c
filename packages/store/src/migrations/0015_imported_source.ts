/**
 * Frozen. Imported games apart from played ones in the statistics, and the records a day's
 * HTTP imports have used:
 * - the counters (`results_counters`, `results_rollups`, `length_counters`,
 *   `player_results`, `opening_counters`) get a `source` column, 'played' or 'imported', in
 *   their primary keys, so a statistics query of one source reads only its rows. The counts
 *   of the imported games already there (finished_games.imported) move from the 'played'
 *   rows to 'imported' ones, computed from finished_games as the projector computes them;
 *   a 'played' row left at zero is removed. Nothing else changes: the records, the log and
 *   finished_games stay as they are. The rating tables hold rated games only, which no
 *   import is, and get no column.
 * - `import_quota_uses(owner, at, records)`: one row per HTTP import and owner ('p:' and the
 *   player id, 'a:' and the client address key) with the records it added, read over the
 *   last day and deleted after it, so no address is kept longer than a day.
 */
import { type Kysely, sql } from 'kysely';

/** The even start's board, side and hands (the explorer's tree of games without a handicap). */
const EVEN_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -';

interface Counter {
  readonly table: string;
  /** the primary key before, and where source goes in it */
  readonly before: readonly string[];
  readonly after: readonly string[];
  readonly sums: readonly string[];
  /** columns outside the key and the sums, kept as they are */
  readonly other?: readonly string[];
}

const DIMS = ['grain', 'day', 'ruleset', 'handicap', 'rated', 'time_category'];
const RESULTS = ['sente_wins', 'gote_wins', 'draws', 'no_result'];
const COUNTERS: readonly Counter[] = [
  {
    table: 'results_counters',
    before: [...DIMS, 'end_reason'],
    after: ['grain', 'day', 'source', ...DIMS.slice(2), 'end_reason'],
    sums: RESULTS,
  },
  { table: 'results_rollups', before: DIMS, after: ['grain', 'day', 'source', ...DIMS.slice(2)], sums: RESULTS },
  {
    table: 'length_counters',
    before: [...DIMS, 'bucket'],
    after: ['grain', 'day', 'source', ...DIMS.slice(2), 'bucket'],
    sums: ['games'],
  },
  {
    table: 'player_results',
    before: ['player_id', 'color', 'end_reason'],
    after: ['player_id', 'source', 'color', 'end_reason'],
    sums: ['wins', 'losses', 'draws', 'no_result'],
  },
  {
    table: 'opening_counters',
    before: ['handicap', 'prefix', 'next'],
    after: ['handicap', 'prefix', 'next', 'source'],
    sums: ['games', 'sente_wins', 'gote_wins', 'draws'],
    other: ['position'],
  },
];

/** The results of a group of finished games `f`, as the counters sum them. */
const RESULT_SUMS = `count(*) filter (where f.result = 'sente') as sente_wins,
  count(*) filter (where f.result = 'gote') as gote_wins,
  count(*) filter (where f.result = 'draw') as draws,
  count(*) filter (where f.result = 'none') as no_result`;

/** Each imported game in each of its periods (day, month, year, all: rows.ts periodsOf). */
const IMPORTED_PERIODS = `finished_games f cross join lateral (values
    ('day'::text, (f.ended_at at time zone 'UTC')::date),
    ('month', date_trunc('month', (f.ended_at at time zone 'UTC')::date)::date),
    ('year', date_trunc('year', (f.ended_at at time zone 'UTC')::date)::date),
    ('all', '1970-01-01'::date)) as p(grain, day)
  where f.imported`;
const PERIOD_DIMS = `p.grain, p.day, f.ruleset, coalesce(f.handicap, '') as handicap, f.rated,
  coalesce(f.time_category, '') as time_category`;

/** Per counters table: the increments the imported games made, as rows of its key and sums (counters.ts). */
const IMPORTED_COUNTS: Readonly<Record<string, string>> = {
  results_counters: `select ${PERIOD_DIMS}, f.end_reason, ${RESULT_SUMS} from ${IMPORTED_PERIODS}
    group by 1, 2, 3, 4, 5, 6, 7`,
  results_rollups: `select ${PERIOD_DIMS}, ${RESULT_SUMS} from ${IMPORTED_PERIODS} group by 1, 2, 3, 4, 5, 6`,
  length_counters: `select ${PERIOD_DIMS}, (f.plies / 10) * 10 as bucket, count(*) as games from ${IMPORTED_PERIODS}
    group by 1, 2, 3, 4, 5, 6, 7`,
  player_results: `select pl.player_id, pl.color, f.end_reason,
      count(*) filter (where f.result = pl.color) as wins,
      count(*) filter (where f.result = pl.opponent) as losses,
      count(*) filter (where f.result = 'draw') as draws,
      count(*) filter (where f.result = 'none') as no_result
    from finished_games f cross join lateral (values
      (f.sente_id, 'sente'::text, 'gote'::text), (f.gote_id, 'gote', 'sente')) as pl(player_id, color, opponent)
    where f.imported group by 1, 2, 3`,
  // the explorer: games from the even start or a handicap's, with a result, each of their
  // first moves after the moves before it
  opening_counters: `select f.root as handicap, array_to_string(f.opening[1:m.i - 1], ' ') as prefix,
      f.opening[m.i] as next, count(*) as games,
      count(*) filter (where f.result = 'sente') as sente_wins,
      count(*) filter (where f.result = 'gote') as gote_wins,
      count(*) filter (where f.result = 'draw') as draws
    from (select *, coalesce(handicap, case when array_to_string((string_to_array(initial_sfen, ' '))[1:3], ' ')
            = '${EVEN_START}' then '' end) as root
          from finished_games where imported and result <> 'none') f
      cross join lateral generate_subscripts(f.opening, 1) as m(i)
    where f.root is not null group by 1, 2, 3`,
};

const list = (columns: readonly string[], prefix = '') => columns.map((c) => `${prefix}${c}`).join(', ');

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  for (const c of COUNTERS) {
    await sql.raw(`alter table ${c.table} add column source text not null default 'played'`).execute(db);
    await sql.raw(`alter table ${c.table} drop constraint ${c.table}_pk`).execute(db);
    await sql.raw(`alter table ${c.table} add constraint ${c.table}_pk primary key (${list(c.after)})`).execute(db);
    const other = c.other ?? [];
    const matches = c.before.map((k) => `c.${k} = m.${k}`).join(' and ');
    // the played rows lose what the imported games added; the same counts become imported rows
    // (the explorer's position read from the played row, as the projector wrote it)
    await sql
      .raw(
        `with moved as (${IMPORTED_COUNTS[c.table]}),
         taken as (
           update ${c.table} c set ${c.sums.map((s) => `${s} = c.${s} - m.${s}`).join(', ')}
           from moved m where c.source = 'played' and ${matches})
         insert into ${c.table} (${list([...c.before, 'source', ...other, ...c.sums])})
         select ${list(c.before, 'm.')}, 'imported'${other.map((o) => `, coalesce(c.${o}, '')`).join('')}, ${list(c.sums, 'm.')}
         from moved m${other.length === 0 ? '' : ` left join ${c.table} c on c.source = 'played' and ${matches}`}`,
      )
      .execute(db);
    await sql
      .raw(`delete from ${c.table} where source = 'played' and ${c.sums.map((s) => `${s} = 0`).join(' and ')}`)
      .execute(db);
  }
  await db.schema
    .createTable('import_quota_uses')
    .addColumn('owner', 'text', (col) => col.notNull())
    .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('records', 'integer', (col) => col.notNull())
    .execute();
  await sql`create index import_quota_uses_owner on import_quota_uses (owner, at)`.execute(db);
  // the workers' sweep of the rows past the day, whoever they count for
  await sql`create index import_quota_uses_at on import_quota_uses (at)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_quota_uses').execute();
  for (const c of COUNTERS) {
    const other = c.other ?? [];
    await sql
      .raw(
        `insert into ${c.table} (${list([...c.before, 'source', ...other, ...c.sums])})
         select ${list(c.before)}, 'played', ${list([...other, ...c.sums])} from ${c.table} where source = 'imported'
         on conflict (${list(c.after)}) do update set ${c.sums.map((s) => `${s} = ${c.table}.${s} + excluded.${s}`).join(', ')}`,
      )
      .execute(db);
    await sql.raw(`delete from ${c.table} where source = 'imported'`).execute(db);
    await sql.raw(`alter table ${c.table} drop constraint ${c.table}_pk`).execute(db);
    await sql.raw(`alter table ${c.table} drop column source`).execute(db);
    await sql.raw(`alter table ${c.table} add constraint ${c.table}_pk primary key (${list(c.before)})`).execute(db);
  }
}
