/** Schemas of lishogi's game routes (bot and board): lishogi's parameters and answers. */
import { Type } from 'typebox';
import { CHAT_MAX_LENGTH } from '../domain/chat-text.js';
import { CHAT_ROOMS } from '../domain/game-chat.js';

const closed = { additionalProperties: false } as const;

// any text: a game id that names no game is lishogi's 404, not a 400
const GameId = Type.String({ minLength: 1, maxLength: 64, description: 'the game id' });

export const GameIdParams = Type.Object({ id: GameId }, closed);

export const TakebackParams = Type.Object(
  {
    id: GameId,
    accept: Type.Union([Type.Literal('yes'), Type.Literal('no')], {
      description: '`yes` proposes or accepts a takeback, `no` declines or withdraws it',
    }),
  },
  closed,
);

export const MoveParams = Type.Object(
  {
    id: GameId,
    usi: Type.String({
      minLength: 1,
      maxLength: 16,
      description: 'the move in USI, as is in the path (7g7f, 8h2b+, P*5e; %2B and %2A too), or `resign`',
    }),
  },
  closed,
);

export const MoveQuery = Type.Object(
  {
    offeringDraw: Type.Optional(
      Type.String({ maxLength: 5, description: 'accepted and ignored: this server has no draw offers' }),
    ),
    blur: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: "this server's: the player's page lost focus since their previous move (fair play)",
      }),
    ),
  },
  closed,
);

export const ChatBody = Type.Object(
  {
    room: Type.Union(
      CHAT_ROOMS.map((room) => Type.Literal(room)),
      { description: "player: the players' room; spectator: the spectators' room" },
    ),
    text: Type.String({ minLength: 1, maxLength: CHAT_MAX_LENGTH }),
  },
  closed,
);

export const ChatHistory = Type.Array(Type.Object({ text: Type.String(), user: Type.String() }, closed));
