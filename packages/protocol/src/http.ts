/**
 * TypeBox schemas (JSON Schema at run time, TS types at compile time) of every HTTP
 * request and response body of the gateway. Objects are closed (additionalProperties
 * false) so unknown fields are a 400, not silently dropped.
 */
import { HANDICAPS } from '@shogi/rules';
import { type Static, Type } from 'typebox';
import { ERROR_CODES, type ErrorCode } from './errors.js';

const closed = { additionalProperties: false } as const;

export const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
/**
 * A one-use ticket that authenticates a WebSocket upgrade (`POST /api/socket-ticket`): browsers
 * cannot set headers on a WebSocket, and a long-lived token must never be in a URL.
 */
export const SocketTicket = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'a ticket from POST /api/socket-ticket (or send Authorization: Bearer)',
});
export const Usi = Type.String({ minLength: 1, maxLength: 16, description: 'a move in USI: 7g7f, 8h2b+, P*5e' });
export const Ply = Type.Integer({ minimum: 0, maximum: 100_000, description: 'plies played before this move' });
export const IdempotencyKey = Type.String({ minLength: 1, maxLength: 100, pattern: '^[\\x21-\\x7e]+$' });
export const Side = Type.Union([Type.Literal('sente'), Type.Literal('gote')]);
export type Side = Static<typeof Side>;
export const RulesetName = Type.Union([Type.Literal('default'), Type.Literal('jsa')]);
/** the handicaps the rules package knows, by name */
export const HANDICAP_NAMES = HANDICAPS;
export const HandicapName = Type.Unsafe<(typeof HANDICAP_NAMES)[number]>(Type.String({ enum: [...HANDICAP_NAMES] }));

export const ErrorResponse = Type.Object(
  {
    code: Type.Unsafe<ErrorCode>(Type.String({ enum: ERROR_CODES })),
    message: Type.String(),
    detail: Type.Optional(Type.String()),
  },
  closed,
);

// --- players
// no control characters: a name is shown to people, and PostgreSQL refuses NUL in text;
// checkPlayerName (names.ts) then applies the whole rule, which a pattern cannot (NFKC)
export const PlayerName = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
  description:
    'stored NFKC-normalized, with runs of spaces made one and trimmed; 400 INVALID_NAME when it holds an invisible, format or control character (zero-width, bidi controls, U+FEFF...), shows nothing, or is over 40 characters once normalized',
});
export const CreatePlayerBody = Type.Object({ name: PlayerName }, closed);
export type CreatePlayerBody = Static<typeof CreatePlayerBody>;
export const CreatePlayerResponse = Type.Object(
  { id: Id, name: Type.String(), token: Type.String({ description: 'bearer token; shown once, stored hashed' }) },
  closed,
);
export type CreatePlayerResponse = Static<typeof CreatePlayerResponse>;

// --- time controls (the limits are checked by @shogi/game's validateTimeControl)
const Seconds = Type.Integer({ minimum: 0, maximum: 86_400 });
export const TimeControl = Type.Union(
  [
    Type.Object(
      {
        kind: Type.Literal('byoyomi'),
        mainSeconds: Seconds,
        byoyomiSeconds: Seconds,
        periods: Type.Integer({ minimum: 1, maximum: 5 }),
      },
      closed,
    ),
    Type.Object({ kind: Type.Literal('fischer'), mainSeconds: Seconds, incrementSeconds: Seconds }, closed),
    Type.Object(
      { kind: Type.Literal('correspondence'), daysPerMove: Type.Integer({ minimum: 1, maximum: 14 }) },
      closed,
    ),
    Type.Object({ kind: Type.Literal('unlimited') }, closed),
  ],
  {
    description: 'byoyomi (main + byoyomi seconds, 1-5 periods), fischer (main + increment), correspondence, unlimited',
  },
);
export type TimeControl = Static<typeof TimeControl>;

// --- games
export const CreateGameBody = Type.Object(
  {
    sente: Id,
    gote: Id,
    ruleset: Type.Optional(RulesetName),
    handicap: Type.Optional(HandicapName),
    sfen: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    timeControl: Type.Optional(TimeControl),
    rated: Type.Optional(Type.Boolean({ description: 'rated games need a time control (default false)' })),
  },
  closed,
);
export type CreateGameBody = Static<typeof CreateGameBody>;

/**
 * lishogi's BOT title, present only on a bot account (absent for every other player, so
 * clients that know the field only by its absence keep working).
 */
export const BotTitle = Type.Literal('BOT', { description: 'present only when the player is a bot account' });
export const PlayerRef = Type.Object({ id: Id, name: Type.String(), title: Type.Optional(BotTitle) }, closed);
export type PlayerRef = Static<typeof PlayerRef>;
export const GameResult = Type.Object(
  { winner: Type.Union([Side, Type.Null()]), reason: Type.String({ description: 'checkmate, resignation, ...' }) },
  closed,
);
/** One side's time: main time left, byoyomi periods left (counting the current one) and time left in it. */
export const SideTime = Type.Object(
  {
    mainMs: Type.Integer({ minimum: 0 }),
    periodsLeft: Type.Integer({ minimum: 0, description: 'byoyomi periods left; correspondence: 1' }),
    periodMs: Type.Integer({ minimum: 0, description: 'time left in the current period (byoyomi, correspondence)' }),
  },
  closed,
);
/** The clocks at read time; null for unlimited games. */
export const ClockView = Type.Object(
  {
    sente: SideTime,
    gote: SideTime,
    running: Type.Union([Side, Type.Null()], {
      description: 'the side whose time runs; null before both first moves (the first-move timer) and after the end',
    }),
    started: Type.Boolean({ description: 'both sides made their first move, so the clocks run' }),
    deadlineAt: Type.Union([Type.String(), Type.Null()], {
      description:
        'ISO 8601: when the side to move runs out (its first-move limit before the clocks start); null once over',
    }),
    at: Type.String({ description: 'ISO 8601: the instant the values hold at (the read)' }),
  },
  closed,
);
export type ClockView = Static<typeof ClockView>;

/** What every view of a game's state holds (the game view, a spectator's snapshot). */
export const GAME_STATE_FIELDS = {
  id: Id,
  ruleset: RulesetName,
  initialSfen: Type.String(),
  sfen: Type.String(),
  moves: Type.Array(Type.String(), { description: 'accepted moves in USI, in order' }),
  ply: Type.Integer(),
  sideToMove: Side,
  status: Type.Union([Type.Literal('ongoing'), Type.Literal('ended')]),
  result: Type.Union([GameResult, Type.Null()]),
  players: Type.Object({ sente: PlayerRef, gote: PlayerRef }, closed),
  timeControl: TimeControl,
  rated: Type.Boolean(),
  clock: Type.Union([ClockView, Type.Null()]),
  takeback: Type.Union([Side, Type.Null()], {
    description: 'the side whose takeback proposal awaits its answer; null when none does',
  }),
  tournamentId: Type.Optional(Type.String({ description: 'the tournament the game belongs to (absent when none)' })),
};
export const GameView = Type.Object(
  {
    ...GAME_STATE_FIELDS,
    lastSeq: Type.Integer(),
  },
  closed,
);
export type GameView = Static<typeof GameView>;

export const GameParams = Type.Object({ id: Id }, closed);
export type GameParams = Static<typeof GameParams>;

export const WireEvent = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    type: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown()),
    recordedAt: Type.String({ description: 'ISO 8601' }),
  },
  closed,
);
export type WireEvent = Static<typeof WireEvent>;

export const EventsQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'return events with seq > after' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  },
  closed,
);
export type EventsQuery = Static<typeof EventsQuery>;
export const EventsResponse = Type.Object({ gameId: Id, events: Type.Array(WireEvent) }, closed);
export type EventsResponse = Static<typeof EventsResponse>;

// --- moves and resignation
export const SubmitMoveBody = Type.Object(
  {
    usi: Usi,
    ply: Ply,
    idempotencyKey: Type.Optional(IdempotencyKey),
    blur: Type.Optional(Type.Boolean({ description: 'the page lost focus since your previous move (fair play)' })),
  },
  closed,
);
export type SubmitMoveBody = Static<typeof SubmitMoveBody>;
export const ResignBody = Type.Object({ idempotencyKey: Type.Optional(IdempotencyKey) }, closed);
export type ResignBody = Static<typeof ResignBody>;
/** The body of abort and impasse declarations (optional, like resign's). */
export const GameActionBody = Type.Object({ idempotencyKey: Type.Optional(IdempotencyKey) }, closed);
export type GameActionBody = Static<typeof GameActionBody>;
export const AcceptedResponse = Type.Object(
  { seq: Type.Integer({ description: 'seq of the recorded MoveSubmitted (or Resigned) event' }) },
  closed,
);
export type AcceptedResponse = Static<typeof AcceptedResponse>;

export const AuthHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ maxLength: 200 })),
  'idempotency-key': Type.Optional(IdempotencyKey),
});
