/**
 * Bot opponents: `GET /api/bots` lists the bots this server runs, `POST /api/bots/:id/games`
 * starts a game between the caller and a bot, which answers every move itself. A newcomer
 * plays at once, with no one else online.
 */
import { type Static, Type } from 'typebox';
import { PlayerRef } from './http.js';

const closed = { additionalProperties: false } as const;

export const BotList = Type.Object({ bots: Type.Array(PlayerRef) }, closed);
export type BotList = Static<typeof BotList>;

export const BotGameBody = Type.Object(
  {
    side: Type.Optional(
      Type.Union([Type.Literal('sente'), Type.Literal('gote'), Type.Literal('random')], {
        description: "the caller's side (default sente)",
      }),
    ),
  },
  closed,
);
export type BotGameBody = Static<typeof BotGameBody>;
