/**
 * Schemas of the player profile, rating history, leaderboard and rating statistics routes
 * (apps/gateway/src/routes/player-profile.ts and stats.ts). Ratings are shown rounded.
 */
import { type Static, Type } from 'typebox';
import { BotTitle } from './http.js';
import { StatsSource } from './stats-source.js';

const closed = { additionalProperties: false } as const;
const Count = Type.Integer({ minimum: 0 });
const Pct = Type.Number({ minimum: 0, maximum: 100 });
const Instant = Type.String({ description: 'ISO-8601 instant' });

export const RATING_CATEGORY_NAMES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export const RatingCategoryName = Type.Unsafe<(typeof RATING_CATEGORY_NAMES)[number]>(
  Type.String({ enum: [...RATING_CATEGORY_NAMES] }),
);

// no control characters: PostgreSQL refuses NUL in text; ids of imported players hold ':' and spaces
export const PlayerIdParam = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' });
export const PlayerProfileParams = Type.Object({ id: PlayerIdParam }, closed);
/** No options: an unknown parameter is a 400, not silently ignored. */
export const PlayerProfileQuery = Type.Object({}, closed);
export const RatingHistoryParams = Type.Object({ id: PlayerIdParam, category: RatingCategoryName }, closed);
export const RatingHistoryQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'the latest N rated games (1-9999, default 1000)' }),
    ),
  },
  closed,
);

export const CategoryRating = Type.Object(
  {
    category: RatingCategoryName,
    rating: Type.Integer(),
    rd: Type.Integer({
      description: 'rating deviation, grown to the time of the request by the idle time since the latest rated game',
    }),
    provisional: Type.Boolean({ description: 'RD (as grown) above 110: shown with a "?", left off leaderboards' }),
    games: Count,
    wins: Count,
    losses: Count,
    draws: Count,
    updatedAt: Instant,
  },
  closed,
);
const ColorRecord = Type.Object({ wins: Count, losses: Count, draws: Count, noResult: Count }, closed);
/** `title: "BOT"` only for a bot account, as everywhere a player is named */
const Ref = Type.Object({ id: Type.String(), name: Type.String(), title: Type.Optional(BotTitle) }, closed);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

export const PlayerProfile = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    title: Type.Union([Type.Literal('BOT'), Type.Null()], {
      description: "'BOT' for a bot account (it plays through the Bot API), else null",
    }),
    ratings: Type.Array(CategoryRating, { description: 'one per category the player has rated games in' }),
    results: Type.Object({ sente: ColorRecord, gote: ColorRecord }, closed),
    recentGames: Type.Array(
      Type.Object(
        {
          gameId: Type.String(),
          color: Type.Union([Type.Literal('sente'), Type.Literal('gote')]),
          opponent: Ref,
          outcome: Type.Union([Type.Literal('win'), Type.Literal('loss'), Type.Literal('draw'), Type.Literal('none')]),
          reason: Type.String(),
          rated: Type.Boolean(),
          timeCategory: Type.Union([Type.String(), Type.Null()]),
          ratingBefore: NullableInt,
          ratingAfter: NullableInt,
          plies: Count,
          endedAt: Instant,
        },
        closed,
      ),
      { description: 'the 10 latest finished games, newest first' },
    ),
  },
  closed,
);
export type PlayerProfile = Static<typeof PlayerProfile>;

export const RatingHistory = Type.Object(
  {
    playerId: Type.String(),
    category: RatingCategoryName,
    points: Type.Array(
      Type.Object(
        {
          gameId: Type.String(),
          at: Instant,
          opponentId: Type.String(),
          ratingBefore: Type.Integer(),
          rdBefore: Type.Integer(),
          rating: Type.Integer(),
          rd: Type.Integer(),
        },
        closed,
      ),
      { description: 'oldest first, in the order the games were rated' },
    ),
  },
  closed,
);
export type RatingHistory = Static<typeof RatingHistory>;

export const LeaderboardParams = Type.Object({ category: RatingCategoryName }, closed);
export const LeaderboardQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: '1-200, default 50' })),
    source: Type.Optional(StatsSource),
  },
  closed,
);
export const Leaderboard = Type.Object(
  {
    category: RatingCategoryName,
    players: Type.Array(
      Type.Object(
        {
          rank: Type.Integer({ minimum: 1 }),
          playerId: Type.String(),
          name: Type.String(),
          title: Type.Optional(BotTitle),
          rating: Type.Integer(),
          rd: Type.Integer({ description: 'rating deviation, grown to the time of the request' }),
          games: Count,
        },
        closed,
      ),
    ),
  },
  closed,
);
export type Leaderboard = Static<typeof Leaderboard>;

export const OpponentBandsQuery = Type.Object(
  { category: Type.Optional(RatingCategoryName), source: Type.Optional(StatsSource) },
  closed,
);
export const OpponentBands = Type.Object(
  {
    playerId: Type.String(),
    category: Type.Union([RatingCategoryName, Type.Null()], { description: 'null: every category' }),
    bandSize: Count,
    bands: Type.Array(
      Type.Object(
        { band: Type.Integer(), games: Count, wins: Count, losses: Count, draws: Count, scorePct: Pct },
        closed,
      ),
      { description: "by the opponent's pre-game rating band [band, band + bandSize)" },
    ),
  },
  closed,
);
export type OpponentBands = Static<typeof OpponentBands>;

export const ScoreByDifferenceQuery = Type.Object(
  {
    category: Type.Optional(RatingCategoryName),
    source: Type.Optional(StatsSource),
    higherColor: Type.Optional(
      Type.String({ enum: ['sente', 'gote'], description: 'only games where the higher-rated player had this colour' }),
    ),
  },
  closed,
);
const Unit = Type.Number({ minimum: 0, maximum: 1 });
export const ScoreByDifference = Type.Object(
  {
    bucketSize: Count,
    buckets: Type.Array(
      Type.Object(
        {
          from: Count,
          to: Type.Union([Count, Type.Null()], { description: 'exclusive; null: the last, open bucket' }),
          games: Count,
          score: Unit,
          expected: Unit,
        },
        closed,
      ),
      { description: 'by |pre-game rating difference|, from the higher-rated player’s side' },
    ),
  },
  closed,
);
export type ScoreByDifference = Static<typeof ScoreByDifference>;

/** A rating bound of /api/stats/results: a multiple of 100 (the band width), 0-9900. */
export const RatingBound = Type.String({
  pattern: '^(0|[1-9][0-9]?00)$',
  description: 'a multiple of 100: games whose two players’ average pre-game rating is in [ratingMin, ratingMax)',
});
