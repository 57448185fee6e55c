/**
 * Reads of the ratings projection: a player's profile and rating history, the leaderboard,
 * a player's results by opponent band, observed score vs expectation by rating difference.
 * Each reads an index range or a few pre-aggregated rows.
 */
import {
  isOnLeaderboard,
  isProvisional,
  leaderboardActiveSince,
  PROVISIONAL_DEVIATION,
  type Rating,
  type RatingCategory,
  ratingAt,
} from '@shogi/ratings';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../schema.js';
import type { GameResult } from '../stats/schema.js';
import { DIFF_BUCKET, DIFF_CAP, type RatingsDb, type RatingsTable, type RatingTables } from './schema.js';

export const ratingsDb = (db: Db): RatingsDb => db.withTables<RatingTables>() as unknown as RatingsDb;

const n = (v: unknown): number => Number(v ?? 0);
const pct = (x: number, total: number): number => (total === 0 ? 0 : Math.round((x * 10000) / total) / 100);

export interface CategoryRating {
  readonly category: RatingCategory;
  /** Rounded, as shown. */
  readonly rating: number;
  /** The stored RD grown by the idle time since `updatedAt` to the time of the read, rounded. */
  readonly rd: number;
  /** RD (grown to the time of the read) > 110. */
  readonly provisional: boolean;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly updatedAt: string;
}

export interface ColorRecord {
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly noResult: number;
}

export interface RecentGame {
  readonly gameId: string;
  readonly color: 'sente' | 'gote';
  /** `title` only for a bot account */
  readonly opponent: { readonly id: string; readonly name: string; readonly title?: 'BOT' };
  /** From the player's side; 'none' for an aborted game. */
  readonly outcome: 'win' | 'loss' | 'draw' | 'none';
  readonly reason: string;
  readonly rated: boolean;
  readonly timeCategory: string | null;
  readonly ratingBefore: number | null;
  readonly ratingAfter: number | null;
  readonly plies: number;
  readonly endedAt: string;
}

export interface PlayerProfile {
  readonly id: string;
  readonly name: string;
  /** 'BOT' for a bot account (migration 0013) */
  readonly title: 'BOT' | null;
  readonly ratings: CategoryRating[];
  readonly results: { readonly sente: ColorRecord; readonly gote: ColorRecord };
  readonly recentGames: RecentGame[];
}

/** A stored rating as of `now`: its deviation grown by the idle time since its latest rated game. */
const current = (r: { rating: number; rd: number; volatility: number; updated_at: Date }, now: Date): Rating =>
  ratingAt({ rating: r.rating, deviation: r.rd, volatility: r.volatility }, r.updated_at, now);

const shown = (r: Omit<Selectable<RatingsTable>, 'player_id' | 'name'>, now: Date): CategoryRating => {
  const at = current(r, now);
  return {
    category: r.category as RatingCategory,
    rating: Math.round(at.rating),
    rd: Math.round(at.deviation),
    provisional: isProvisional(at),
    games: r.games,
    wins: r.wins,
    losses: r.losses,
    draws: r.draws,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
};

/**
 * The profile of a player: the players table's name, else (imported or synthetic players)
 * the name in their latest finished game; null when neither knows them. Each rating's RD is
 * the stored one grown to `now` (the request's time) by the idle time since its latest game.
 */
export async function playerProfile(
  db: Db,
  playerId: string,
  recent = 10,
  now: Date = new Date(),
): Promise<PlayerProfile | null> {
  const rdb = ratingsDb(db);
  const player = await rdb
    .selectFrom('players')
    .leftJoin('accounts', 'accounts.player_id', 'players.id')
    .select(['players.name', 'accounts.bot'])
    .where('players.id', '=', playerId)
    .executeTakeFirst();
  // the two per-colour indexes, each read newest first, instead of one OR over both
  const games = await sql<{
    game_id: string;
    sente_id: string;
    sente_name: string;
    gote_id: string;
    gote_name: string;
    result: GameResult;
    end_reason: string;
    rated: boolean;
    time_category: string | null;
    sente_rating_before: number | null;
    sente_rating_after: number | null;
    gote_rating_before: number | null;
    gote_rating_after: number | null;
    plies: number;
    ended_at: Date;
  }>`select * from (
      (select * from finished_games where sente_id = ${playerId} order by ended_at desc limit ${recent})
      union all
      (select * from finished_games where gote_id = ${playerId} order by ended_at desc limit ${recent})
    ) g order by ended_at desc, game_id desc limit ${recent}`.execute(rdb);
  // the opponents that are bot accounts, for their BOT title
  const opponentIds = games.rows.map((g) => (g.sente_id === playerId ? g.gote_id : g.sente_id));
  const bots =
    opponentIds.length === 0
      ? new Set<string>()
      : new Set(
          (
            await rdb
              .selectFrom('accounts')
              .select('player_id')
              .where('player_id', 'in', opponentIds)
              .where('bot', '=', true)
              .execute()
          ).map((r) => r.player_id),
        );
  const latest = games.rows[0];
  const name =
    player?.name ??
    (latest === undefined ? undefined : latest.sente_id === playerId ? latest.sente_name : latest.gote_name);
  if (name === undefined) return null;
  const ratings = await rdb
    .selectFrom('ratings')
    .selectAll()
    .where('player_id', '=', playerId)
    .orderBy('category')
    .execute();
  const byColor = await rdb
    .selectFrom('player_results')
    .select([
      'color',
      sql<string>`sum(wins)`.as('w'),
      sql<string>`sum(losses)`.as('l'),
      sql<string>`sum(draws)`.as('d'),
      sql<string>`sum(no_result)`.as('x'),
    ])
    .where('player_id', '=', playerId)
    .groupBy('color')
    .execute();
  const record = (color: 'sente' | 'gote'): ColorRecord => {
    const r = byColor.find((c) => c.color === color);
    return { wins: n(r?.w), losses: n(r?.l), draws: n(r?.d), noResult: n(r?.x) };
  };
  return {
    id: playerId,
    name,
    title: player?.bot === true ? 'BOT' : null,
    ratings: ratings.map((r) => shown(r, now)),
    results: { sente: record('sente'), gote: record('gote') },
    recentGames: games.rows.map((g) => {
      const color = g.sente_id === playerId ? 'sente' : 'gote';
      const s = color === 'sente';
      return {
        gameId: g.game_id,
        color,
        opponent: {
          ...(s ? { id: g.gote_id, name: g.gote_name } : { id: g.sente_id, name: g.sente_name }),
          ...(bots.has(s ? g.gote_id : g.sente_id) ? { title: 'BOT' as const } : {}),
        },
        outcome: g.result === 'none' ? 'none' : g.result === 'draw' ? 'draw' : g.result === color ? 'win' : 'loss',
        reason: g.end_reason,
        rated: g.rated,
        timeCategory: g.time_category,
        ratingBefore: s ? g.sente_rating_before : g.gote_rating_before,
        ratingAfter: s ? g.sente_rating_after : g.gote_rating_after,
        plies: g.plies,
        endedAt: new Date(g.ended_at).toISOString(),
      };
    }),
  };
}

export interface HistoryPoint {
  readonly gameId: string;
  readonly at: string;
  readonly opponentId: string;
  readonly ratingBefore: number;
  readonly rdBefore: number;
  readonly rating: number;
  readonly rd: number;
}

/** A player's rating history in a category: the latest `limit` games, oldest first, in log order. */
export async function ratingHistory(db: Db, playerId: string, category: string, limit = 1000): Promise<HistoryPoint[]> {
  const rows = await ratingsDb(db)
    .selectFrom('rating_history')
    .select(['game_id', 'at', 'opponent_id', 'rating_before', 'rd_before', 'rating_after', 'rd_after'])
    .where('player_id', '=', playerId)
    .where('category', '=', category)
    .orderBy('global_position', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({
    gameId: r.game_id,
    at: new Date(r.at).toISOString(),
    opponentId: r.opponent_id,
    ratingBefore: Math.round(r.rating_before),
    rdBefore: Math.round(r.rd_before),
    rating: Math.round(r.rating_after),
    rd: Math.round(r.rd_after),
  }));
}

export interface LeaderboardEntry {
  readonly rank: number;
  readonly playerId: string;
  readonly name: string;
  readonly rating: number;
  readonly rd: number;
  readonly games: number;
}

/** Rows read per step of the walk down a leaderboard. */
const LEADERBOARD_PAGE = 200;

/**
 * The top `limit` players of a category by rating among those on the leaderboard at `now`
 * (`isOnLeaderboard`): a rated game in the category in the last 30 days and RD grown to
 * `now` at most 110. `rd` is the grown RD. Walks the category's rating index down from the
 * top in pages, the stored RD ≤ 110 and the 30 days filtered in SQL (necessary conditions:
 * RD only grows), the grown RD checked here with the pure function.
 */
export async function leaderboard(
  db: Db,
  category: string,
  limit = 50,
  now: Date = new Date(),
): Promise<LeaderboardEntry[]> {
  const out: LeaderboardEntry[] = [];
  if (limit <= 0) return out;
  const since = leaderboardActiveSince(now);
  let after: { rating: number; playerId: string } | null = null;
  for (;;) {
    let q = ratingsDb(db)
      .selectFrom('ratings')
      .select(['player_id', 'name', 'rating', 'rd', 'volatility', 'games', 'updated_at'])
      .where('category', '=', category)
      .where('rd', '<=', PROVISIONAL_DEVIATION)
      .where('updated_at', '>=', since)
      // an account marked as an engine user is on no leaderboard (fair play, migration 0018)
      .where(
        sql<boolean>`not exists (select 1 from engine_marks m where m.player_id = ratings.player_id and m.marked)`,
      );
    if (after !== null) {
      const { rating, playerId } = after;
      q = q.where((eb) =>
        eb.or([eb('rating', '<', rating), eb.and([eb('rating', '=', rating), eb('player_id', '>', playerId)])]),
      );
    }
    const rows = await q.orderBy('rating', 'desc').orderBy('player_id').limit(LEADERBOARD_PAGE).execute();
    for (const r of rows) {
      const rating = { rating: r.rating, deviation: r.rd, volatility: r.volatility };
      if (!isOnLeaderboard(rating, r.updated_at, now)) continue;
      out.push({
        rank: out.length + 1,
        playerId: r.player_id,
        name: r.name,
        rating: Math.round(r.rating),
        rd: Math.round(current(r, now).deviation),
        games: r.games,
      });
      if (out.length === limit) return out;
    }
    const last = rows.at(-1);
    if (rows.length < LEADERBOARD_PAGE || last === undefined) return out;
    after = { rating: last.rating, playerId: last.player_id };
  }
}

export interface BandRecord {
  /** Lower end of the opponent's pre-game rating band; the band is 100 wide. */
  readonly band: number;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  /** The player's score in percent (draws count half). */
  readonly scorePct: number;
}

/** A player's rated results by the opponent's pre-game rating band, in one category or all. */
export async function playerResultsByOpponentBand(db: Db, playerId: string, category?: string): Promise<BandRecord[]> {
  let q = ratingsDb(db)
    .selectFrom('player_band_results')
    .select([
      'opponent_band',
      sql<string>`sum(wins)`.as('w'),
      sql<string>`sum(losses)`.as('l'),
      sql<string>`sum(draws)`.as('d'),
    ])
    .where('player_id', '=', playerId);
  if (category !== undefined) q = q.where('category', '=', category);
  const rows = await q.groupBy('opponent_band').orderBy('opponent_band').execute();
  return rows.map((r) => {
    const [wins, losses, draws] = [n(r.w), n(r.l), n(r.d)];
    const games = wins + losses + draws;
    return { band: r.opponent_band, games, wins, losses, draws, scorePct: pct(wins + draws / 2, games) };
  });
}

export interface DiffBucket {
  /** |rating difference| in [from, to); `to` null for the last, open bucket. */
  readonly from: number;
  readonly to: number | null;
  readonly games: number;
  /** The higher-rated player's mean score (0..1; draws count half). */
  readonly score: number;
  /** Their mean Glicko-2 expected score before the game. */
  readonly expected: number;
}

/**
 * Observed score of the higher-rated player vs the Glicko expectation, by bucket of the
 * pre-game rating difference; optionally in one category, or when the higher-rated player
 * had sente (or gote).
 */
export async function scoreByRatingDifference(
  db: Db,
  options: { readonly category?: string; readonly higherColor?: 'sente' | 'gote' } = {},
): Promise<{ bucketSize: number; buckets: DiffBucket[] }> {
  let q = ratingsDb(db)
    .selectFrom('rating_diff_counters')
    .select([
      'bucket',
      sql<string>`sum(games)`.as('g'),
      sql<string>`sum(score_halves)`.as('s'),
      sql<string>`sum(expected_micro)`.as('e'),
    ]);
  if (options.category !== undefined) q = q.where('category', '=', options.category);
  if (options.higherColor !== undefined) q = q.where('higher_color', '=', options.higherColor);
  const rows = await q.groupBy('bucket').orderBy('bucket').execute();
  const round = (x: number) => Math.round(x * 10000) / 10000;
  return {
    bucketSize: DIFF_BUCKET,
    buckets: rows.map((r) => {
      const games = n(r.g);
      return {
        from: r.bucket,
        to: r.bucket >= DIFF_CAP ? null : r.bucket + DIFF_BUCKET,
        games,
        score: round(n(r.s) / 2 / games),
        expected: round(n(r.e) / 1e6 / games),
      };
    }),
  };
}
