/**
 * Spectating: the watch WebSocket `/api/games/:id/watch`, the NDJSON stream
 * `/api/games/:id/stream`, and the live-games list and feed `/api/live`, `/api/live/ws`.
 * Spectator sockets are read-only: any frame they send is answered with an error frame.
 */
import { type Static, Type } from 'typebox';
import { WatchAnalysis } from './analysis.js';
import { WatchChat, WatchChatHistory } from './chat.js';
import { ErrorResponse, GAME_STATE_FIELDS, Id, PlayerRef, Side, SocketTicket, WireEvent } from './http.js';

const closed = { additionalProperties: false } as const;

export const WatchQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,9}$',
        description: 'last seq seen: the events after it are sent (no snapshot), then the live ones',
      }),
    ),
    // one of the game's players is not counted as a spectator
    ticket: Type.Optional(SocketTicket),
  },
  closed,
);
export type WatchQuery = Static<typeof WatchQuery>;

export const StreamQuery = Type.Object(
  {
    delay: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,3}$', description: 'hold back the last N moves (anti-cheating)' }),
    ),
  },
  closed,
);
export type StreamQuery = Static<typeof StreamQuery>;

/** The state of a game at `seq`, as a spectator first sees it. */
export const GameSnapshot = Type.Object(
  {
    ...GAME_STATE_FIELDS,
    seq: Type.Integer({ description: 'seq of the last event folded into this snapshot' }),
    spectators: Type.Integer({ description: 'sockets watching this game on this gateway' }),
  },
  closed,
);
export type GameSnapshot = Static<typeof GameSnapshot>;

// --- watch socket, server -> client
export const WatchSnapshot = Type.Object({ type: Type.Literal('snapshot'), game: GameSnapshot }, closed);
/** First frame of a socket opened with `?since=`: the events after `since` follow. */
export const WatchResume = Type.Object(
  { type: Type.Literal('resume'), gameId: Id, since: Type.Integer(), spectators: Type.Integer() },
  closed,
);
/** New events in seq order, with no gap after what the socket has seen and no repeat. */
export const WatchEvents = Type.Object({ type: Type.Literal('events'), events: Type.Array(WireEvent) }, closed);
export const WatchSpectators = Type.Object({ type: Type.Literal('spectators'), count: Type.Integer() }, closed);
export const WatchError = Type.Object({ type: Type.Literal('error'), error: ErrorResponse }, closed);
export const WatchMessage = Type.Union([
  WatchSnapshot,
  WatchResume,
  WatchEvents,
  WatchSpectators,
  WatchAnalysis,
  WatchChat,
  WatchChatHistory,
  WatchError,
]);
export type WatchMessage = Static<typeof WatchMessage>;

// --- live games
/** A rating as shown beside a name: `provisional` ones read "1500?", as lishogi writes them. */
export const LiveRating = Type.Object({ rating: Type.Integer(), provisional: Type.Boolean() }, closed);
export type LiveRating = Static<typeof LiveRating>;
export const LiveGame = Type.Object(
  {
    id: Id,
    players: Type.Object({ sente: PlayerRef, gote: PlayerRef }, closed),
    sfen: Type.String(),
    ply: Type.Integer(),
    sideToMove: Side,
    lastMove: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('ongoing'), Type.Literal('ended')]),
    spectators: Type.Integer(),
    ratings: Type.Optional(
      Type.Object(
        { sente: Type.Union([LiveRating, Type.Null()]), gote: Type.Union([LiveRating, Type.Null()]) },
        { ...closed, description: "each player's main rating (the category of most rated games); null: none yet" },
      ),
    ),
  },
  closed,
);
export type LiveGame = Static<typeof LiveGame>;
export const LiveQuery = Type.Object(
  { limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'at most 200' })) },
  closed,
);
export type LiveQuery = Static<typeof LiveQuery>;
export const LiveResponse = Type.Object({ games: Type.Array(LiveGame) }, closed);
export type LiveResponse = Static<typeof LiveResponse>;

/** A change of a live game (new position, takeback, end, spectator count); fields absent did not change. */
export const LiveUpdate = Type.Object(
  {
    id: Id,
    sfen: Type.Optional(Type.String()),
    ply: Type.Optional(Type.Integer()),
    /** null after a takeback: the move that led to the position is not known here */
    lastMove: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    status: Type.Optional(Type.Union([Type.Literal('ongoing'), Type.Literal('ended')])),
    spectators: Type.Optional(Type.Integer()),
  },
  closed,
);
export type LiveUpdate = Static<typeof LiveUpdate>;
export const LiveFeedMessage = Type.Union([
  Type.Object({ type: Type.Literal('live'), games: Type.Array(LiveGame) }, closed),
  Type.Object({ type: Type.Literal('updates'), updates: Type.Array(LiveUpdate) }, closed),
  WatchError,
]);
export type LiveFeedMessage = Static<typeof LiveFeedMessage>;

/**
 * NDJSON lines of `/api/games/:id/stream`: `{"type":"snapshot","game":...}` first (the
 * game as the delay lets it be seen), then one event per line (`type` is the event's).
 */
export type StreamLine = { type: 'snapshot'; game: GameSnapshot } | WireEvent;
