/** Adds finished games to the pre-aggregated counters (one upsert per table and chunk). */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { dayOf, explorerRoot, type FinishedRow, lengthBucket, periodsOf, positionKey, Tally } from './rows.js';
import type { StatsSource, StatsTables } from './schema.js';

type Trx = Transaction<Database & StatsTables>;

const CHUNK = 1000;

/**
 * Adds `rows` to a counters table: an insert, or on a key already there the sum of the
 * `sums` columns. One statement per chunk. Shared by the statistics and rating counters.
 */
export async function addCounts<DB>(
  trx: Transaction<DB>,
  table: keyof DB & string,
  rows: readonly Record<string, unknown>[],
  key: readonly string[],
  sums: readonly string[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await trx
      .insertInto(table as never)
      .values(chunk as never)
      .onConflict((oc) =>
        oc
          .columns(key as never)
          .doUpdateSet(
            Object.fromEntries(
              sums.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`]),
            ) as never,
          ),
      )
      .execute();
  }
}

/** Imported games are counted apart from played ones (migration 0015). */
const sourceOf = (r: FinishedRow): StatsSource => (r.imported ? 'imported' : 'played');

const outcome = (r: FinishedRow) => ({
  sente_wins: r.result === 'sente' ? 1 : 0,
  gote_wins: r.result === 'gote' ? 1 : 0,
  draws: r.result === 'draw' ? 1 : 0,
  no_result: r.result === 'none' ? 1 : 0,
});

/**
 * `positions`: game id -> the SFEN after each of its opening moves (MoveAccepted's), for
 * the explorer by position; a game without them is counted under position ''.
 */
export async function writeCounters(
  trx: Trx,
  rows: readonly FinishedRow[],
  positions: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<void> {
  if (rows.length === 0) return;
  const results = new Tally<Record<string, unknown>, ReturnType<typeof outcome>>();
  const rollups = new Tally<Record<string, unknown>, ReturnType<typeof outcome>>();
  const lengths = new Tally<Record<string, unknown>, { games: number }>();
  const players = new Tally<
    Record<string, unknown>,
    { wins: number; losses: number; draws: number; no_result: number }
  >();
  const openings = new Tally<
    Record<string, unknown>,
    { games: number; sente_wins: number; gote_wins: number; draws: number }
  >();
  const oneGame = { games: 1 };
  for (const r of rows) {
    const bucket = lengthBucket(r.plies);
    const o = outcome(r);
    const handicap = r.handicap ?? '';
    const category = r.time_category ?? '';
    const source = sourceOf(r);
    for (const [grain, day] of periodsOf(dayOf(r.ended_at))) {
      const dims = () => ({
        grain,
        day,
        source,
        ruleset: r.ruleset,
        handicap,
        rated: r.rated,
        time_category: category,
      });
      const dimsId = `${grain}|${day}|${source}|${r.ruleset}|${handicap}|${r.rated}|${category}`;
      results.add(`${dimsId}|${r.end_reason}`, () => ({ ...dims(), end_reason: r.end_reason }), o);
      rollups.add(dimsId, dims, o);
      lengths.add(`${dimsId}|${bucket}`, () => ({ ...dims(), bucket }), oneGame);
    }
    for (const color of ['sente', 'gote'] as const) {
      const player = color === 'sente' ? r.sente_id : r.gote_id;
      const won = r.result === color;
      const lost = r.result === (color === 'sente' ? 'gote' : 'sente');
      players.add(
        `${player}|${source}|${color}|${r.end_reason}`,
        () => ({ player_id: player, source, color, end_reason: r.end_reason }),
        {
          wins: won ? 1 : 0,
          losses: lost ? 1 : 0,
          draws: r.result === 'draw' ? 1 : 0,
          no_result: r.result === 'none' ? 1 : 0,
        },
      );
    }
    const root = explorerRoot(r);
    if (root !== null && r.result !== 'none') {
      const after = positions.get(r.game_id);
      const counts = { games: 1, sente_wins: o.sente_wins, gote_wins: o.gote_wins, draws: o.draws };
      let prefix = '';
      for (let i = 0; i < r.opening.length; i++) {
        const next = r.opening[i] as string;
        const before = i === 0 ? r.initial_sfen : after?.[i - 1];
        const at = prefix;
        openings.add(
          `${root}|${at}|${next}|${source}`,
          () => ({
            handicap: root,
            prefix: at,
            next,
            source,
            position: after === undefined || before === undefined ? '' : positionKey(before),
          }),
          counts,
        );
        prefix = i === 0 ? next : `${prefix} ${next}`;
      }
    }
  }
  const dimKey = ['grain', 'day', 'source', 'ruleset', 'handicap', 'rated', 'time_category'];
  await addCounts(trx, 'results_rollups', rollups.rows(), dimKey, ['sente_wins', 'gote_wins', 'draws', 'no_result']);
  await addCounts(
    trx,
    'results_counters',
    results.rows(),
    [...dimKey, 'end_reason'],
    ['sente_wins', 'gote_wins', 'draws', 'no_result'],
  );
  await addCounts(trx, 'length_counters', lengths.rows(), [...dimKey, 'bucket'], ['games']);
  await addCounts(
    trx,
    'player_results',
    players.rows(),
    ['player_id', 'source', 'color', 'end_reason'],
    ['wins', 'losses', 'draws', 'no_result'],
  );
  await addCounts(
    trx,
    'opening_counters',
    openings.rows(),
    ['handicap', 'prefix', 'next', 'source'],
    ['games', 'sente_wins', 'gote_wins', 'draws'],
  );
}
