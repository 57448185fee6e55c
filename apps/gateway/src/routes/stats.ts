/**
 * The statistics API: each answer sums a few rows of the pre-aggregated counters that the
 * stats projector (@shogi/store `startProjector`) maintains from the event log.
 * Its own small pool: the stats queries never queue behind move appends. Registers the
 * records routes (records.ts) too, so app.ts needs one line for both.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponse,
  Leaderboard,
  LeaderboardParams,
  LeaderboardQuery,
  OpponentBands,
  OpponentBandsQuery,
  RatingBound,
  ScoreByDifference,
  ScoreByDifferenceQuery,
} from '@shogi/protocol';
import { parseSfen } from '@shogi/rules';
import {
  createDb,
  endingReasons,
  leaderboard,
  lengthDistribution,
  openingExplorer,
  openingsAtPosition,
  playerResultsByOpponentBand,
  playerStats,
  RATING_BAND,
  resultsSummary,
  type StatsFilter,
  scoreByRatingDifference,
} from '@shogi/store';
import { type Static, Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';
import playerProfile from './player-profile.js';
import records from './records.js';

const closed = { additionalProperties: false } as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day, YYYY-MM-DD (inclusive)' });
const USI = '([1-9][a-i][1-9][a-i]\\+?|[PLNSGBR]\\*[1-9][a-i])';

export const StatsQuery = Type.Object(
  {
    ruleset: Type.Optional(Type.String({ enum: ['default', 'jsa'] })),
    handicap: Type.Optional(
      Type.String({ maxLength: 32, pattern: '^[a-z_]+$', description: "a handicap name, or 'even' for none" }),
    ),
    rated: Type.Optional(Type.String({ enum: ['true', 'false'] })),
    timeCategory: Type.Optional(
      Type.String({ maxLength: 32, description: "time category; 'none' for games without one" }),
    ),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
  },
  closed,
);
type StatsQuery = Static<typeof StatsQuery>;
/** The results also take a rating band (rated games only). */
const ResultsQuery = Type.Object(
  { ...StatsQuery.properties, ratingMin: Type.Optional(RatingBound), ratingMax: Type.Optional(RatingBound) },
  closed,
);

const Count = Type.Integer({ minimum: 0 });
const Pct = Type.Number({ minimum: 0, maximum: 100 });
const SharesShape = {
  games: Count,
  senteWins: Count,
  goteWins: Count,
  draws: Count,
  sentePct: Pct,
  gotePct: Pct,
  drawPct: Pct,
};
const Results = Type.Object({ ...SharesShape, noResult: Count }, closed);
const Reasons = Type.Object(
  { reasons: Type.Array(Type.Object({ reason: Type.String(), ...SharesShape, noResult: Count }, closed)) },
  closed,
);
const Lengths = Type.Object(
  {
    bucketSize: Count,
    buckets: Type.Array(Type.Object({ from: Count, games: Count }, closed)),
  },
  closed,
);
const PlayerRecord = Type.Object({ wins: Count, losses: Count, draws: Count, noResult: Count }, closed);
const Outcome = Type.String({ enum: ['win', 'loss', 'draw'] });
const Player = Type.Object(
  {
    playerId: Type.String(),
    streaks: Type.Object(
      {
        current: Type.Union([Type.Object({ outcome: Outcome, games: Count }, closed), Type.Null()]),
        bestWin: Count,
      },
      closed,
    ),
    total: PlayerRecord,
    byColor: Type.Object({ sente: PlayerRecord, gote: PlayerRecord }, closed),
    byReason: Type.Array(
      Type.Object({ reason: Type.String(), wins: Count, losses: Count, draws: Count, noResult: Count }, closed),
    ),
  },
  closed,
);
// no control characters: PostgreSQL refuses NUL in text (a 500 found by tests/integration/fuzz-http.test.ts)
const PlayerParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }) },
  closed,
);
const OpeningsQuery = Type.Object(
  {
    moves: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: `^(${USI}(,${USI})*)?$`,
        description: 'USI moves from the start position, comma-separated (empty: the start)',
      }),
    ),
    handicap: Type.Optional(Type.String({ maxLength: 32, pattern: '^[a-z_]+$' })),
    sfen: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'a position instead of a move list: its games whatever the move order (transpositions)',
      }),
    ),
  },
  closed,
);
const Openings = Type.Object(
  {
    moves: Type.Array(Type.String()),
    sfen: Type.Optional(Type.String()),
    games: Count,
    next: Type.Array(Type.Object({ usi: Type.String(), ...SharesShape }, closed)),
  },
  closed,
);
const errors = { 400: ErrorResponse };

function filterOf(q: StatsQuery): StatsFilter {
  const f: { -readonly [K in keyof StatsFilter]: StatsFilter[K] } = {};
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

function resultsFilterOf(q: Static<typeof ResultsQuery>): StatsFilter {
  const f = filterOf(q);
  const min = q.ratingMin === undefined ? undefined : Number(q.ratingMin);
  const max = q.ratingMax === undefined ? undefined : Number(q.ratingMax);
  if (min !== undefined && max !== undefined && min >= max)
    throw new ApiError('BAD_REQUEST', 'ratingMin must be below ratingMax');
  return { ...f, ...(min === undefined ? {} : { ratingMin: min }), ...(max === undefined ? {} : { ratingMax: max }) };
}

const stats: FastifyPluginAsyncTypebox = async (app) => {
  const db = createDb(app.config.databaseUrl, {
    max: 3,
    applicationName: 'shogi-gateway-stats',
    // aggregates over up to millions of finished games: PostgreSQL's defaults (see createDb)
    analytic: true,
  });
  app.addHook('onClose', async () => db.destroy());
  const filtered = 'Filters: ruleset, handicap (or even), rated, timeCategory, from/to (UTC days).';

  app.get(
    '/api/stats/results',
    {
      schema: {
        tags: ['stats'],
        summary: 'Sente wins, gote wins and draws: counts and percentages (no-result games apart)',
        description: `${filtered} ratingMin/ratingMax (multiples of 100): rated games whose players' average pre-game rating is in [ratingMin, ratingMax).`,
        querystring: ResultsQuery,
        response: { 200: Results, ...errors },
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
        response: { 200: Reasons, ...errors },
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
        response: { 200: Lengths, ...errors },
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
        params: PlayerParams,
        response: { 200: Player, ...errors },
      },
    },
    async (request) => playerStats(db, request.params.id),
  );

  app.get(
    '/api/stats/openings',
    {
      schema: {
        tags: ['stats'],
        summary:
          'Opening explorer: the moves played next after a USI move list (or from an SFEN position), with game counts and result shares',
        description: 'Covers the first 12 plies of games from the even start or a standard handicap start.',
        querystring: OpeningsQuery,
        response: { 200: Openings, ...errors },
      },
    },
    async (request) => {
      const { sfen } = request.query;
      if (sfen !== undefined) {
        if (request.query.moves !== undefined) throw new ApiError('BAD_REQUEST', 'give moves or sfen, not both');
        if (!parseSfen(sfen).ok) throw new ApiError('INVALID_SFEN');
        const r = await openingsAtPosition(db, sfen);
        return { moves: [], sfen, games: r.games, next: r.moves };
      }
      const moves = request.query.moves ? request.query.moves.split(',') : [];
      const r = await openingExplorer(db, moves, request.query.handicap ?? '');
      return { moves, games: r.games, next: r.moves };
    },
  );

  app.get(
    '/api/stats/players/:id/opponents',
    {
      schema: {
        tags: ['stats'],
        summary: "A player's rated results by the opponent's pre-game rating band (100 wide)",
        params: PlayerParams,
        querystring: OpponentBandsQuery,
        response: { 200: OpponentBands, ...errors },
      },
    },
    async (request) => ({
      playerId: request.params.id,
      category: request.query.category ?? null,
      bandSize: RATING_BAND,
      bands: await playerResultsByOpponentBand(db, request.params.id, request.query.category),
    }),
  );

  app.get(
    '/api/stats/score-by-rating-difference',
    {
      schema: {
        tags: ['stats'],
        summary:
          "The higher-rated player's observed score vs the Glicko-2 expectation, by bucket of pre-game rating difference (50 wide, the last from 800)",
        querystring: ScoreByDifferenceQuery,
        response: { 200: ScoreByDifference, ...errors },
      },
    },
    async (request) => {
      const { category, higherColor } = request.query;
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
        params: LeaderboardParams,
        querystring: LeaderboardQuery,
        response: { 200: Leaderboard, ...errors },
      },
    },
    async (request) => {
      const limit = Number(request.query.limit ?? 50);
      if (limit > 200) throw new ApiError('BAD_REQUEST', 'limit is at most 200');
      return { category: request.params.category, players: await leaderboard(db, request.params.category, limit) };
    },
  );

  await app.register(records);
  await app.register(playerProfile, { db });
};

export default stats;
