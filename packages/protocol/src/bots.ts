/**
 * Bot opponents: `GET /api/bots` lists the bots this server runs, `POST /api/bots/:id/games`
 * starts a game between the caller and a bot, which answers every move itself. A newcomer
 * plays at once, with no one else online. A rematch offered to a bot after its game is
 * answered too (POST /api/games/:id/rematch).
 */
import { type Static, Type } from 'typebox';
import { HandicapName, Id, TimeControl } from './http.js';

const closed = { additionalProperties: false } as const;

export const BotRef = Type.Object(
  {
    id: Id,
    name: Type.String(),
    // the bot's player in its games, when id is a handle (the house bots' engine-N)
    playerId: Type.Optional(Id),
    level: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 8, description: "a house engine bot's strength, 1 (weakest) to 8" }),
    ),
    seeksOnly: Type.Optional(
      Type.Literal(true, {
        description:
          'a bot that answers casual seeks nobody takes (and rematch offers of its games); POST /api/bots/:id/games does not start one',
      }),
    ),
  },
  closed,
);
export type BotRef = Static<typeof BotRef>;

/** Whether an engine role runs: without one the house bots' levels all play built-in moves. */
export const EngineStatus = Type.Object(
  {
    running: Type.Boolean({ description: 'an engine role has announced itself in the last seconds' }),
    name: Type.Optional(Type.String({ description: "the engine's name, as it gives it, while one runs" })),
  },
  closed,
);
export type EngineStatus = Static<typeof EngineStatus>;

export const BotList = Type.Object({ bots: Type.Array(BotRef), engine: EngineStatus }, closed);
export type BotList = Static<typeof BotList>;

export const BotGameBody = Type.Object(
  {
    side: Type.Optional(
      Type.Union([Type.Literal('sente'), Type.Literal('gote'), Type.Literal('random')], {
        description: "the caller's side (default sente); in a handicap game gote gives the handicap",
      }),
    ),
    timeControl: Type.Optional(TimeControl),
    handicap: Type.Optional(HandicapName),
  },
  closed,
);
export type BotGameBody = Static<typeof BotGameBody>;
