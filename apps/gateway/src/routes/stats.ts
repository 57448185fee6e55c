/**
 * The statistics API: each answer sums a few rows of the pre-aggregated counters that the
 * stats projector (@shogi/store `startProjector`) maintains from the event log.
 * On the read pool (`reads`, plugins/databases.ts). The wire shapes
 * are @shogi/protocol's (stats.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponse,
  Leaderboard,
  LeaderboardParams,
  LeaderboardQuery,
  OpeningsQuery,
  OpeningsResponse,
  OpponentBands,
  OpponentBandsQuery,
  PlayerStatsResponse,
  ResultsQuery,
  ResultsResponse,
  ScoreByDifference,
  ScoreByDifferenceQuery,
  StatsEndingsResponse,
  StatsLengthsResponse,
  StatsPlayerParams,
  StatsQuery,
  StatsSourceQuery,
} from '@shogi/protocol';
import { parseSfen } from '@shogi/rules';
import {
  DIFF_BUCKET,
  endingReasons,
  leaderboard,
  lengthDistribution,
  openingExplorer,
  openingsAtPosition,
  playerResultsByOpponentBand,
  playerStats,
  RATING_BAND,
  resultsSummary,
  type SourceFilter,
  type StatsFilter,
  scoreByRatingDifference,
} from '@shogi/store';
import { ApiError } from '../domain/api-error.js';

const errors = { 400: ErrorResponse };

/** The games counted: played here unless the query asks for imported records or both. */
const sourceOf = (q: { source?: string }): SourceFilter => (q.source ?? 'played') as SourceFilter;

function filterOf(q: StatsQuery): StatsFilter {
  const f: { -readonly [K in keyof StatsFilter]: StatsFilter[K] } = { source: sourceOf(q) };
  if (q.ruleset !== undefined) f.ruleset = q.ruleset;
  if (q.handicap !== undefined) f.handicap = q.handicap;
  if (q.rated !== undefined) f.rated = q.rated === 'true';
  if (q.timeCategory !== undefined) f.timeCategory = q.timeCategory === 'none' ? '' : q.timeCategory;
  if (q.from !== undefined) f.from = calendarDay(q.from, 'from');
  if (q.to !== undefined) f.to = calendarDay(q.to, 'to');
  return f;
}

/** A YYYY-MM-DD that names a real day (the schema checks only its shape: 2026-02-30 passes it). */
function calendarDay(day: string, name: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day)
    throw new ApiError('BAD_REQUEST', `${name} is not a calendar day: ${day}`);
  return day;
}

function resultsFilterOf(q: ResultsQuery): StatsFilter {
  const f = filterOf(q);
  const min = q.ratingMin === undefined ? undefined : Number(q.ratingMin);
  const max = q.ratingMax === undefined ? undefined : Number(q.ratingMax);
  if (min !== undefined && max !== undefined && min >= max)
    throw new ApiError('BAD_REQUEST', 'ratingMin must be below ratingMax');
  return { ...f, ...(min === undefined ? {} : { ratingMin: min }), ...(max === undefined ? {} : { ratingMax: max }) };
}

const stats: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.databases.reads;
  const filtered =
    'Filters: source (played, the default; imported; all), ruleset, handicap (or even), rated, timeCategory, from/to (UTC days).';
  // imported games are never rated: the rating statistics count played games only, and
  // source=imported answers them empty
  const rated = (q: { source?: string }) => sourceOf(q) !== 'imported';
  const ratedOnly =
    'Rated games only, all played here: source played (default) and all answer the same, imported answers none.';

  app.get(
    '/api/stats/results',
    {
      schema: {
        tags: ['stats'],
        summary: 'Sente wins, gote wins and draws: counts and percentages (no-result games apart)',
        description: `${filtered} ratingMin/ratingMax (multiples of 100): rated games whose players' average pre-game rating is in [ratingMin, ratingMax).`,
        querystring: ResultsQuery,
        response: { 200: ResultsResponse, ...errors },
      },
    },
    async (request) => resultsSummary(db, resultsFilterOf(request.query)),
  );

  app.get(
    '/api/stats/endings',
    {
      schema: {
        tags: ['stats'],
        summary: 'Results by ending reason (checkmate, resignation, timeout, sennichite, ...)',
        description: filtered,
        querystring: StatsQuery,
        response: { 200: StatsEndingsResponse, ...errors },
      },
    },
    async (request) => ({ reasons: await endingReasons(db, filterOf(request.query)) }),
  );

  app.get(
    '/api/stats/lengths',
    {
      schema: {
        tags: ['stats'],
        summary: 'Game-length distribution: games per bucket of plies',
        description: filtered,
        querystring: StatsQuery,
        response: { 200: StatsLengthsResponse, ...errors },
      },
    },
    async (request) => lengthDistribution(db, filterOf(request.query)),
  );

  app.get(
    '/api/stats/players/:id',
    {
      schema: {
        tags: ['stats'],
        summary: "A player's results: total, by colour, by ending reason, and streaks",
        description: 'source: played (default), imported or all.',
        params: StatsPlayerParams,
        querystring: StatsSourceQuery,
        response: { 200: PlayerStatsResponse, ...errors },
      },
    },
    async (request) => playerStats(db, request.params.id, sourceOf(request.query)),
  );

  app.get(
    '/api/stats/openings',
    {
      schema: {
        tags: ['stats'],
        summary:
          'Opening explorer: the moves played next after a USI move list (or from an SFEN position), with game counts and result shares',
        description:
          'Covers the first 12 plies of games from the even start or a standard handicap start. source: played (default), imported or all.',
        querystring: OpeningsQuery,
        response: { 200: OpeningsResponse, ...errors },
      },
    },
    async (request) => {
      const { sfen } = request.query;
      if (sfen !== undefined) {
        if (request.query.moves !== undefined) throw new ApiError('BAD_REQUEST', 'give moves or sfen, not both');
        if (!parseSfen(sfen).ok) throw new ApiError('INVALID_SFEN');
        const r = await openingsAtPosition(db, sfen, sourceOf(request.query));
        return { moves: [], sfen, games: r.games, next: r.moves };
      }
      const moves = request.query.moves ? request.query.moves.split(',') : [];
      const r = await openingExplorer(db, moves, request.query.handicap ?? '', sourceOf(request.query));
      return { moves, games: r.games, next: r.moves };
    },
  );

  app.get(
    '/api/stats/players/:id/opponents',
    {
      schema: {
        tags: ['stats'],
        summary: "A player's rated results by the opponent's pre-game rating band (100 wide)",
        description: ratedOnly,
        params: StatsPlayerParams,
        querystring: OpponentBandsQuery,
        response: { 200: OpponentBands, ...errors },
      },
    },
    async (request) => ({
      playerId: request.params.id,
      category: request.query.category ?? null,
      bandSize: RATING_BAND,
      bands: rated(request.query)
        ? await playerResultsByOpponentBand(db, request.params.id, request.query.category)
        : [],
    }),
  );

  app.get(
    '/api/stats/score-by-rating-difference',
    {
      schema: {
        tags: ['stats'],
        summary:
          "The higher-rated player's observed score vs the Glicko-2 expectation, by bucket of pre-game rating difference (50 wide, the last from 800)",
        description: ratedOnly,
        querystring: ScoreByDifferenceQuery,
        response: { 200: ScoreByDifference, ...errors },
      },
    },
    async (request) => {
      const { category, higherColor } = request.query;
      if (!rated(request.query)) return { bucketSize: DIFF_BUCKET, buckets: [] };
      return scoreByRatingDifference(db, {
        ...(category === undefined ? {} : { category }),
        ...(higherColor === undefined ? {} : { higherColor: higherColor as 'sente' | 'gote' }),
      });
    },
  );

  app.get(
    '/api/leaderboards/:category',
    {
      schema: {
        tags: ['stats'],
        summary:
          'The top players of a rating category: those with a rated game in it in the last 30 days and RD, grown to now, at most 110',
        description: ratedOnly,
        params: LeaderboardParams,
        querystring: LeaderboardQuery,
        response: { 200: Leaderboard, ...errors },
      },
    },
    async (request) => {
      const limit = Number(request.query.limit ?? 50);
      if (limit > 200) throw new ApiError('BAD_REQUEST', 'limit is at most 200');
      const players = rated(request.query) ? await leaderboard(db, request.params.category, limit) : [];
      const bots = await app.botTitles.bots(players.map((p) => p.playerId));
      return {
        category: request.params.category,
        players: players.map((p) => (bots.has(p.playerId) ? { ...p, title: 'BOT' as const } : p)),
      };
    },
  );
};

export default stats;
