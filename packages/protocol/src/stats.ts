/**
 * The statistics API's wire shapes: filters, results by colour and by ending, game lengths,
 * a player's record, the opening explorer (TypeBox, closed objects).
 */
import { type Static, Type } from 'typebox';
import { RatingBound } from './players.js';
import { StatsSource } from './stats-source.js';

const closed = { additionalProperties: false } as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day, YYYY-MM-DD (inclusive)' });
const USI = '([1-9][a-i][1-9][a-i]\\+?|[PLNSGBR]\\*[1-9][a-i])';

export const StatsQuery = Type.Object(
  {
    source: Type.Optional(StatsSource),
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
export type StatsQuery = Static<typeof StatsQuery>;
/** The results also take a rating band (rated games only). */
export const ResultsQuery = Type.Object(
  { ...StatsQuery.properties, ratingMin: Type.Optional(RatingBound), ratingMax: Type.Optional(RatingBound) },
  closed,
);
export type ResultsQuery = Static<typeof ResultsQuery>;

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
export const ResultsResponse = Type.Object({ ...SharesShape, noResult: Count }, closed);
export const StatsEndingsResponse = Type.Object(
  { reasons: Type.Array(Type.Object({ reason: Type.String(), ...SharesShape, noResult: Count }, closed)) },
  closed,
);
export const StatsLengthsResponse = Type.Object(
  {
    bucketSize: Count,
    buckets: Type.Array(Type.Object({ from: Count, games: Count }, closed)),
  },
  closed,
);
const PlayerRecord = Type.Object({ wins: Count, losses: Count, draws: Count, noResult: Count }, closed);
const Outcome = Type.String({ enum: ['win', 'loss', 'draw'] });
export const PlayerStatsResponse = Type.Object(
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
export const StatsPlayerParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }) },
  closed,
);
export const OpeningsQuery = Type.Object(
  {
    source: Type.Optional(StatsSource),
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
export const OpeningsResponse = Type.Object(
  {
    moves: Type.Array(Type.String()),
    sfen: Type.Optional(Type.String()),
    games: Count,
    next: Type.Array(Type.Object({ usi: Type.String(), ...SharesShape }, closed)),
  },
  closed,
);
