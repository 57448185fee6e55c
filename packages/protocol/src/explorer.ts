/**
 * The opening explorer's wire shapes, lichess's explorer in shogi's words (`sfen` for fen,
 * `usi` for uci, sente/gote for white/black). The query's words are strings checked by the
 * route, which answers each refusal with its reason.
 */
import { type Static, Type } from 'typebox';

const closed = { additionalProperties: false } as const;
const text = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));

const Common = {
  sfen: text(200, 'the position to start from (default: the even start)'),
  play: text(1200, 'USI moves played from sfen, comma-separated'),
  since: text(7, 'the first month counted, YYYY-MM'),
  until: text(7, 'the last month counted, YYYY-MM'),
  moves: text(3, 'how many of the most played moves to list (default 12, at most 50)'),
  topGames: text(3, 'how many top-rated games to list (default 4, at most 15)'),
};
const Players = {
  speeds: text(100, 'speeds, comma-separated: bullet, blitz, rapid, classical, correspondence, unlimited'),
  ratings: text(
    100,
    'rating groups by their floor, comma-separated: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500',
  ),
  recentGames: text(3, 'how many of the latest games to list (default 4, at most 15)'),
};

export const ExplorerGamesQuery = Type.Object({ ...Common, ...Players }, closed);
export type ExplorerGamesQuery = Static<typeof ExplorerGamesQuery>;
export const ExplorerMastersQuery = Type.Object(Common, closed);
export type ExplorerMastersQuery = Static<typeof ExplorerMastersQuery>;
export const ExplorerPlayerQuery = Type.Object(
  {
    ...Common,
    ...Players,
    player: Type.String({ minLength: 1, maxLength: 100, description: "the player's id" }),
    color: Type.String({ enum: ['sente', 'gote'], description: 'the colour the player had' }),
  },
  closed,
);
export type ExplorerPlayerQuery = Static<typeof ExplorerPlayerQuery>;

const Side = Type.Object({ name: Type.String(), rating: Type.Union([Type.Integer(), Type.Null()]) }, closed);
export const ExplorerGame = Type.Object(
  {
    id: Type.String(),
    usi: Type.String({ description: 'the move played from the position in this game' }),
    winner: Type.Union([Type.Literal('sente'), Type.Literal('gote'), Type.Null()]),
    sente: Side,
    gote: Side,
    speed: Type.String(),
    year: Type.Integer(),
    month: Type.String({ description: 'YYYY-MM' }),
    event: Type.Optional(Type.String({ description: "an imported record's event (棋戦)" })),
  },
  closed,
);
export type ExplorerGame = Static<typeof ExplorerGame>;

export const ExplorerMove = Type.Object(
  {
    usi: Type.String(),
    notation: Type.Union([Type.String(), Type.Null()], { description: 'the move as players write it (KI2): ▲７六歩' }),
    sente: Type.Integer(),
    gote: Type.Integer(),
    draws: Type.Integer(),
    averageRating: Type.Union([Type.Integer(), Type.Null()], {
      description: "the movers' average pre-game rating over the rated games",
    }),
    game: Type.Union([ExplorerGame, Type.Null()], { description: 'the game, when the move was played in one only' }),
  },
  closed,
);

export const ExplorerResponse = Type.Object(
  {
    sente: Type.Integer(),
    gote: Type.Integer(),
    draws: Type.Integer(),
    moves: Type.Array(ExplorerMove),
    topGames: Type.Array(ExplorerGame),
    recentGames: Type.Array(ExplorerGame),
    opening: Type.Union([
      Type.Object({ name: Type.String(), ja: Type.String(), line: Type.String() }, closed),
      Type.Null(),
    ]),
  },
  closed,
);
export type ExplorerResponse = Static<typeof ExplorerResponse>;
