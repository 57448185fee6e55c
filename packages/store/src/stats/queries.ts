/**
 * The statistics queries: each sums a few pre-aggregated rows (results, reasons, lengths,
 * a player's results, the opening explorer), never the log nor finished_games.
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Db } from '../schema.js';
import { periodsIn } from './periods.js';
import { statsDb } from './projector.js';
import { ALL_PERIOD, positionKey } from './rows.js';
import type { Grain, StatsSource, StatsTables } from './schema.js';

/** The games a statistic counts: played on this server (the default), imported from records, or both. */
export type SourceFilter = StatsSource | 'all';

export interface StatsFilter {
  /** default 'played': imported records never move the site's statistics unless asked for */
  readonly source?: SourceFilter;
  readonly ruleset?: string;
  /** '' or 'even': games without a handicap. */
  readonly handicap?: string;
  readonly rated?: boolean;
  /** '' : games without a time category (all of them until rated play lands). */
  readonly timeCategory?: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  readonly from?: string;
  readonly to?: string;
  /**
   * Rated games whose players' average pre-game rating is in [ratingMin, ratingMax):
   * multiples of 100 (the band width); results only. Either one restricts to rated games.
   */
  readonly ratingMin?: number;
  readonly ratingMax?: number;
}

export interface Shares {
  readonly games: number;
  readonly senteWins: number;
  readonly goteWins: number;
  readonly draws: number;
  /** Percentages of sente wins, gote wins and draws among decided-or-drawn games (no-result games excluded). */
  readonly sentePct: number;
  readonly gotePct: number;
  readonly drawPct: number;
}

export interface ResultsSummary extends Shares {
  /** Games without a result (aborted, interrupted): not in the percentages. */
  readonly noResult: number;
}

const pct = (n: number, total: number): number => (total === 0 ? 0 : Math.round((n * 10000) / total) / 100);

export function shares(senteWins: number, goteWins: number, draws: number): Shares {
  const games = senteWins + goteWins + draws;
  return {
    games,
    senteWins,
    goteWins,
    draws,
    sentePct: pct(senteWins, games),
    gotePct: pct(goteWins, games),
    drawPct: pct(draws, games),
  };
}

type Counters = 'results_counters' | 'results_rollups' | 'length_counters';

/** The earliest day counted (the lower end of a range open at the start). */
async function earliestDay(db: Db): Promise<string> {
  const r = await statsDb(db)
    .selectFrom('results_rollups')
    .select(sql<string>`min(day)::text`.as('d'))
    .where('grain', '=', 'day')
    .executeTakeFirst();
  return r?.d ?? ALL_PERIOD;
}

/** The condition on a counters table's `source` column (migration 0015): none for 'all'. */
function sourceCondition<T extends 'player_results' | 'opening_counters' | Counters>(
  eb: ExpressionBuilder<Database & StatsTables, T>,
  source: SourceFilter = 'played',
): Expression<SqlBool> {
  const e = eb as unknown as ExpressionBuilder<Database & StatsTables, 'results_rollups'>;
  return source === 'all' ? e.lit(true) : e('source', '=', source);
}

/**
 * The filter as a condition on the counters: dimensions, and the range as (grain, day) periods.
 * `bySource` false for the rating tables, which hold played games only (no import is rated).
 */
async function condition(db: Db, filter: StatsFilter, bySource = true) {
  const periods = periodsIn(
    filter.from,
    filter.to,
    filter.from === undefined && filter.to !== undefined ? await earliestDay(db) : ALL_PERIOD,
  );
  return <T extends Counters>(eb: ExpressionBuilder<Database & StatsTables, T>) => {
    const e = eb as unknown as ExpressionBuilder<Database & StatsTables, 'results_rollups'>;
    const c: Expression<SqlBool>[] = [];
    if (bySource) c.push(sourceCondition(e, filter.source));
    if (filter.ruleset !== undefined) c.push(e('ruleset', '=', filter.ruleset));
    if (filter.handicap !== undefined) c.push(e('handicap', '=', filter.handicap === 'even' ? '' : filter.handicap));
    if (filter.rated !== undefined) c.push(e('rated', '=', filter.rated));
    if (filter.timeCategory !== undefined) c.push(e('time_category', '=', filter.timeCategory));
    // one `day = any(array)` index probe per grain: an IN list of (grain, day) pairs planned
    // a BitmapOr branch per pair, several times slower over a range of years (bench/stats/NOTES.md)
    const byGrain = new Map<string, string[]>();
    for (const [g, d] of periods) byGrain.set(g, [...(byGrain.get(g) ?? []), d]);
    c.push(
      e.or(
        [...byGrain].map(([g, days]) => e.and([e('grain', '=', g as Grain), sql<boolean>`day = any(${days}::date[])`])),
      ),
    );
    return e.and(c);
  };
}

const n = (v: unknown): number => Number(v ?? 0);

export async function resultsSummary(db: Db, filter: StatsFilter = {}): Promise<ResultsSummary> {
  const { ratingMin, ratingMax } = filter;
  const banded = ratingMin !== undefined || ratingMax !== undefined;
  // rated games only, which are all played: none is imported
  if (banded && filter.source === 'imported') return { ...shares(0, 0, 0), noResult: 0 };
  // a rating band reads the same counters split by band (migration 0009), rated games only
  let q = statsDb(db)
    .selectFrom((banded ? 'rating_band_rollups' : 'results_rollups') as 'results_rollups')
    .select([
      sql<string>`coalesce(sum(sente_wins), 0)`.as('s'),
      sql<string>`coalesce(sum(gote_wins), 0)`.as('g'),
      sql<string>`coalesce(sum(draws), 0)`.as('d'),
      sql<string>`coalesce(sum(no_result), 0)`.as('x'),
    ])
    .where(await condition(db, filter, !banded));
  if (ratingMin !== undefined) q = q.where(sql<boolean>`band >= ${ratingMin}`);
  if (ratingMax !== undefined) q = q.where(sql<boolean>`band < ${ratingMax}`);
  const r = await q.executeTakeFirstOrThrow();
  return { ...shares(n(r.s), n(r.g), n(r.d)), noResult: n(r.x) };
}

export interface ReasonCount extends ResultsSummary {
  readonly reason: string;
}

export async function endingReasons(db: Db, filter: StatsFilter = {}): Promise<ReasonCount[]> {
  const rows = await statsDb(db)
    .selectFrom('results_counters')
    .select([
      'end_reason',
      sql<string>`sum(sente_wins)`.as('s'),
      sql<string>`sum(gote_wins)`.as('g'),
      sql<string>`sum(draws)`.as('d'),
      sql<string>`sum(no_result)`.as('x'),
    ])
    .where(await condition(db, filter))
    .groupBy('end_reason')
    .orderBy('end_reason')
    .execute();
  return rows.map((r) => ({ reason: r.end_reason, ...shares(n(r.s), n(r.g), n(r.d)), noResult: n(r.x) }));
}

export async function lengthDistribution(
  db: Db,
  filter: StatsFilter = {},
): Promise<{ bucketSize: number; buckets: { from: number; games: number }[] }> {
  const rows = await statsDb(db)
    .selectFrom('length_counters')
    .select(['bucket', sql<string>`sum(games)`.as('games')])
    .where(await condition(db, filter))
    .groupBy('bucket')
    .orderBy('bucket')
    .execute();
  return { bucketSize: 10, buckets: rows.map((r) => ({ from: r.bucket, games: n(r.games) })) };
}

export interface PlayerRecord {
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly noResult: number;
}

export interface PlayerStats {
  readonly playerId: string;
  readonly streaks: Streaks;
  readonly total: PlayerRecord;
  readonly byColor: { readonly sente: PlayerRecord; readonly gote: PlayerRecord };
  readonly byReason: (PlayerRecord & { readonly reason: string })[];
}

const zero = (): { wins: number; losses: number; draws: number; noResult: number } => ({
  wins: 0,
  losses: 0,
  draws: 0,
  noResult: 0,
});

export async function playerStats(db: Db, playerId: string, source: SourceFilter = 'played'): Promise<PlayerStats> {
  const rows = await statsDb(db)
    .selectFrom('player_results')
    .selectAll()
    .where('player_id', '=', playerId)
    .where((eb) => sourceCondition(eb, source))
    .execute();
  const total = zero();
  const byColor = { sente: zero(), gote: zero() };
  const byReason = new Map<string, ReturnType<typeof zero>>();
  for (const r of rows) {
    const add = (t: ReturnType<typeof zero>) => {
      t.wins += n(r.wins);
      t.losses += n(r.losses);
      t.draws += n(r.draws);
      t.noResult += n(r.no_result);
    };
    add(total);
    add(byColor[r.color]);
    let t = byReason.get(r.end_reason);
    if (t === undefined) {
      t = zero();
      byReason.set(r.end_reason, t);
    }
    add(t);
  }
  return {
    playerId,
    streaks: await playerStreaks(db, playerId, source),
    total,
    byColor,
    byReason: [...byReason].map(([reason, t]) => ({ reason, ...t })).sort((a, b) => a.reason.localeCompare(b.reason)),
  };
}

export interface OpeningMove extends Shares {
  readonly usi: string;
}

/** The moves played after `moves` (USI from the start position of `handicap`, '' = even), most played first. */
export async function openingExplorer(
  db: Db,
  moves: readonly string[],
  handicap = '',
  source: SourceFilter = 'played',
): Promise<{ games: number; moves: OpeningMove[] }> {
  // summed over the sources ('all' reads a row of each per move)
  const rows = await statsDb(db)
    .selectFrom('opening_counters')
    .select([
      'next',
      sql<string>`sum(games)`.as('games'),
      sql<string>`sum(sente_wins)`.as('s'),
      sql<string>`sum(gote_wins)`.as('g'),
      sql<string>`sum(draws)`.as('d'),
    ])
    .where('handicap', '=', handicap === 'even' ? '' : handicap)
    .where('prefix', '=', moves.join(' '))
    .where((eb) => sourceCondition(eb, source))
    .groupBy('next')
    .orderBy(sql`sum(games)`, 'desc')
    .orderBy('next')
    .execute();
  const out = rows.map((r) => ({ usi: r.next, ...shares(n(r.s), n(r.g), n(r.d)) }));
  return { games: out.reduce((s, m) => s + m.games, 0), moves: out };
}

export interface PlayerGamesOptions {
  readonly color?: 'sente' | 'gote';
  /** From the player's side. */
  readonly outcome?: 'win' | 'loss' | 'draw';
  readonly timeCategory?: string;
  /** ISO instants: ended at or after `since`, before `until`. */
  readonly since?: string;
  readonly until?: string;
  readonly pageSize?: number;
}

export interface Streaks {
  /** The run of equal outcomes ending with the player's latest game (null: no decided or drawn game). */
  readonly current: { readonly outcome: 'win' | 'loss' | 'draw'; readonly games: number } | null;
  readonly bestWin: number;
}

/** Current and best win streaks over the player's games with a result (of `source`), oldest to newest. */
export async function playerStreaks(db: Db, playerId: string, source: SourceFilter = 'played'): Promise<Streaks> {
  let q = statsDb(db)
    .selectFrom('finished_games')
    .select(['result', 'sente_id'])
    .where((eb) => eb.or([eb('sente_id', '=', playerId), eb('gote_id', '=', playerId)]))
    .where('result', '!=', 'none');
  if (source !== 'all') q = q.where('imported', '=', source === 'imported');
  const rows = await q.orderBy('ended_at').orderBy('game_id').execute();
  let current = null as { outcome: 'win' | 'loss' | 'draw'; games: number } | null;
  let bestWin = 0;
  for (const r of rows) {
    const color = r.sente_id === playerId ? 'sente' : 'gote';
    const outcome = r.result === 'draw' ? 'draw' : r.result === color ? 'win' : 'loss';
    current = current?.outcome === outcome ? { outcome, games: current.games + 1 } : { outcome, games: 1 };
    if (outcome === 'win') bestWin = Math.max(bestWin, current.games);
  }
  return { current, bestWin };
}

/**
 * The moves played from a position (SFEN; its move number is ignored), whatever the move
 * order that reached it (within the first 12 plies of games), most played first.
 */
export async function openingsAtPosition(
  db: Db,
  sfen: string,
  source: SourceFilter = 'played',
): Promise<{ games: number; moves: OpeningMove[] }> {
  const rows = await statsDb(db)
    .selectFrom('opening_counters')
    .select([
      'next',
      sql<string>`sum(games)`.as('games'),
      sql<string>`sum(sente_wins)`.as('s'),
      sql<string>`sum(gote_wins)`.as('g'),
      sql<string>`sum(draws)`.as('d'),
    ])
    .where('position', '=', positionKey(sfen))
    .where((eb) => sourceCondition(eb, source))
    .groupBy('next')
    .orderBy(sql`sum(games)`, 'desc')
    .orderBy('next')
    .execute();
  const out = rows.map((r) => ({ usi: r.next, ...shares(n(r.s), n(r.g), n(r.d)) }));
  return { games: out.reduce((s, m) => s + m.games, 0), moves: out };
}

/** A player's finished games, newest first, in keyset pages (for the NDJSON export). */
export async function* playerGames(db: Db, playerId: string, options: PlayerGamesOptions = {}) {
  let before: { endedAt: Date; gameId: string } | null = null;
  const page = options.pageSize ?? 500;
  for (;;) {
    let q = statsDb(db).selectFrom('finished_games').selectAll();
    const color = options.color;
    q = q.where((eb) =>
      color === 'sente'
        ? eb('sente_id', '=', playerId)
        : color === 'gote'
          ? eb('gote_id', '=', playerId)
          : eb.or([eb('sente_id', '=', playerId), eb('gote_id', '=', playerId)]),
    );
    const outcome = options.outcome;
    if (outcome === 'draw') q = q.where('result', '=', 'draw');
    else if (outcome === 'win' || outcome === 'loss') {
      const won = outcome === 'win';
      q = q.where((eb) =>
        eb.or([
          eb.and([eb('sente_id', '=', playerId), eb('result', '=', won ? 'sente' : 'gote')]),
          eb.and([eb('gote_id', '=', playerId), eb('result', '=', won ? 'gote' : 'sente')]),
        ]),
      );
    }
    if (options.timeCategory !== undefined) q = q.where('time_category', '=', options.timeCategory);
    if (options.since !== undefined) q = q.where('ended_at', '>=', new Date(options.since));
    if (options.until !== undefined) q = q.where('ended_at', '<', new Date(options.until));
    const b = before;
    if (b !== null) q = q.where(sql<boolean>`(ended_at, game_id) < (${b.endedAt}, ${b.gameId})`);
    const rows = await q.orderBy('ended_at', 'desc').orderBy('game_id', 'desc').limit(page).execute();
    yield* rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < page) return;
    before = { endedAt: last.ended_at, gameId: last.game_id };
  }
}
