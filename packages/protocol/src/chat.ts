/**
 * A game's chat as the web client sees it: `POST /api/games/{id}/chat` writes a line, and the
 * watch socket (spectate.ts) brings the rooms the socket may read: `chatHistory` once per room,
 * then a `chat` frame per line. Two rooms, as lishogi's: the players' and the spectators'.
 */
import { type Static, Type } from 'typebox';

const closed = { additionalProperties: false } as const;

export const ChatRoomName = Type.Union([Type.Literal('player'), Type.Literal('spectator')]);
export type ChatRoomName = Static<typeof ChatRoomName>;

/** Longest line, in code points: lishogi's limit (the gateway's chat-text.ts checks it). */
export const CHAT_TEXT_MAX = 140;

export const ChatLineWire = Type.Object(
  {
    room: ChatRoomName,
    username: Type.String({ description: "the writer's name" }),
    playerId: Type.Optional(
      Type.String({ description: "the writer's player id (absent on lines kept before it was)" }),
    ),
    text: Type.String({ description: 'plain text, never markup: a client shows it as text' }),
    at: Type.String({ description: 'ISO 8601' }),
  },
  closed,
);
export type ChatLineWire = Static<typeof ChatLineWire>;

export const ChatBody = Type.Object(
  {
    room: ChatRoomName,
    text: Type.String({
      minLength: 1,
      maxLength: CHAT_TEXT_MAX * 2,
      description: `at most ${CHAT_TEXT_MAX} characters`,
    }),
  },
  closed,
);
export type ChatBody = Static<typeof ChatBody>;

/** A line live: one frame per line. */
export const WatchChat = Type.Object({ type: Type.Literal('chat'), line: ChatLineWire }, closed);
export type WatchChat = Static<typeof WatchChat>;

/** A room's kept lines, oldest first, after the socket's first frame (and when a room opens to it). */
export const WatchChatHistory = Type.Object(
  { type: Type.Literal('chatHistory'), room: ChatRoomName, lines: Type.Array(ChatLineWire) },
  closed,
);
export type WatchChatHistory = Static<typeof WatchChatHistory>;
