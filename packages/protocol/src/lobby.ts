/**
 * The lobby on the wire: seeks (`/api/seeks`), challenges (`/api/challenges`), rematch
 * offers (`/api/games/:id/rematch`) and the per-player lobby WebSocket (`/api/lobby/ws`).
 *
 * Colours are always the sides of the game to be created: in a handicap game the handicap
 * giver (uwate) is gote and moves first, so `color: 'gote'` asks to give the handicap and
 * `color: 'sente'` to receive it (shitate).
 */
import { type Static, Type } from 'typebox';
import type { ErrorBody } from './errors.js';
import { HandicapName, Id, PlayerRef, RulesetName, Side, SocketTicket, TimeControl } from './http.js';

const closed = { additionalProperties: false } as const;

export const COLOR_PREFERENCES = ['sente', 'gote', 'random'] as const;
export type ColorPreference = (typeof COLOR_PREFERENCES)[number];
export const ColorPreference = Type.Unsafe<ColorPreference>(
  Type.String({
    enum: [...COLOR_PREFERENCES],
    description: "the side wanted in the game; in a handicap game 'gote' is the giver (uwate), 'sente' the receiver",
  }),
);

const RatingValue = Type.Integer({ minimum: 0, maximum: 4000 });
export const RatingRange = Type.Object(
  { min: RatingValue, max: RatingValue },
  { ...closed, description: 'absolute ratings (inclusive) the opponent must have in the seek category' },
);
export type RatingRange = Static<typeof RatingRange>;

/** When a seek or a challenge stops being answerable, ms. */
export const SEEK_TTL_MS = 10 * 60_000;
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Open seeks one player may hold at once. */
export const MAX_OPEN_SEEKS = 5;
/** Pending challenges one player may have sent at once. */
export const MAX_PENDING_CHALLENGES = 10;

/**
 * The clocks of real-time games. A player plays one such game at a time: the lobby starts
 * no real-time game (seek, challenge, rematch) for a player already in one (409
 * ALREADY_PLAYING, OPPONENT_PLAYING). Correspondence and unlimited games are not limited.
 */
export const REAL_TIME_KINDS = ['byoyomi', 'fischer'] as const satisfies readonly TimeControl['kind'][];
export const isRealTime = (tc: { readonly kind: string }): boolean =>
  (REAL_TIME_KINDS as readonly string[]).includes(tc.kind);

const Timestamp = Type.String({ description: 'ISO 8601' });

// --- seeks
export const CreateSeekBody = Type.Object(
  {
    timeControl: TimeControl,
    rated: Type.Boolean({ description: 'rated seeks need a time control other than unlimited' }),
    ratingRange: Type.Optional(RatingRange),
    color: Type.Optional(ColorPreference),
    ruleset: Type.Optional(RulesetName),
    handicap: Type.Optional(HandicapName),
  },
  closed,
);
export type CreateSeekBody = Static<typeof CreateSeekBody>;

export const SEEK_STATUSES = ['open', 'paired', 'cancelled', 'expired'] as const;
export type SeekStatus = (typeof SEEK_STATUSES)[number];

export const SeekView = Type.Object(
  {
    id: Id,
    player: PlayerRef,
    rating: Type.Integer({ description: "the seeker's rating in the seek's category when it was made (1500 if none)" }),
    timeControl: TimeControl,
    rated: Type.Boolean(),
    ratingRange: Type.Union([RatingRange, Type.Null()]),
    color: ColorPreference,
    ruleset: RulesetName,
    handicap: Type.Union([HandicapName, Type.Null()]),
    status: Type.Unsafe<SeekStatus>(Type.String({ enum: [...SEEK_STATUSES] })),
    gameId: Type.Union([Id, Type.Null()], { description: 'the game once paired' }),
    side: Type.Union([Side, Type.Null()], { description: "the seeker's side in that game" }),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  },
  closed,
);
export type SeekView = Static<typeof SeekView>;
export const SeekList = Type.Object({ seeks: Type.Array(SeekView) }, closed);
export type SeekList = Static<typeof SeekList>;
export const LobbyParams = Type.Object({ id: Id }, closed);

// --- challenges (a rematch offer is a challenge with `rematchOf`)
export const CreateChallengeBody = Type.Object(
  {
    // no control characters, as player names: PostgreSQL refuses NUL in text
    opponent: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[^\\u0000-\\u001f\\u007f]+$',
      description: "the player id, an account's username, or a guest's exact name",
    }),
    timeControl: TimeControl,
    rated: Type.Boolean(),
    color: Type.Optional(ColorPreference),
    ruleset: Type.Optional(RulesetName),
    handicap: Type.Optional(HandicapName),
    sfen: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'a custom initial position (casual games only; not with a handicap)',
      }),
    ),
  },
  closed,
);
export type CreateChallengeBody = Static<typeof CreateChallengeBody>;

export const CHALLENGE_STATUSES = ['pending', 'accepted', 'declined', 'cancelled', 'expired'] as const;
export type ChallengeStatus = (typeof CHALLENGE_STATUSES)[number];

export const ChallengeView = Type.Object(
  {
    id: Id,
    challenger: PlayerRef,
    opponent: PlayerRef,
    timeControl: TimeControl,
    rated: Type.Boolean(),
    color: Type.Unsafe<ColorPreference>(Type.String({ enum: [...COLOR_PREFERENCES], description: "the challenger's" })),
    ruleset: RulesetName,
    handicap: Type.Union([HandicapName, Type.Null()]),
    sfen: Type.Union([Type.String(), Type.Null()], { description: 'the custom initial position, if any' }),
    status: Type.Unsafe<ChallengeStatus>(Type.String({ enum: [...CHALLENGE_STATUSES] })),
    gameId: Type.Union([Id, Type.Null()], { description: 'the game once accepted' }),
    rematchOf: Type.Union([Id, Type.Null()], { description: 'the ended game this rematch offer follows' }),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  },
  closed,
);
export type ChallengeView = Static<typeof ChallengeView>;
export const ChallengeList = Type.Object(
  { incoming: Type.Array(ChallengeView), outgoing: Type.Array(ChallengeView) },
  closed,
);
export type ChallengeList = Static<typeof ChallengeList>;

// --- the lobby WebSocket: server -> client only
export const LobbyQuery = Type.Object(
  {
    ticket: Type.Optional(SocketTicket),
    follow: Type.Optional(
      Type.Literal('seeks', {
        description:
          'the open seeks too (`seeks` messages), as a lobby page shows them: the player then counts as looking at the lobby, and the house seek answerer leaves seeks to them',
      }),
    ),
  },
  closed,
);
export type LobbyMessage =
  /** first frame, once the socket is subscribed: nothing published after it is missed */
  | { readonly type: 'hello'; readonly playerId: string }
  /** one of your seeks was paired (also sent to the seeker whose POST made the pairing) */
  | { readonly type: 'paired'; readonly seekId: string; readonly gameId: string; readonly color: Side }
  /** someone challenged you */
  | { readonly type: 'challenge'; readonly challenge: ChallengeView }
  /** your opponent offers a rematch (a challenge with rematchOf) */
  | { readonly type: 'rematch'; readonly challenge: ChallengeView }
  /** a challenge of yours (sent or received) was accepted: the game to join */
  | { readonly type: 'accepted'; readonly challengeId: string; readonly gameId: string; readonly color: Side }
  /**
   * a game of yours started, however it was made (a pairing, a challenge or rematch, a bot
   * game, an operator's): published by the one place every game is created
   */
  | { readonly type: 'started'; readonly gameId: string; readonly color: Side }
  /** a challenge of yours was declined (to the challenger) or cancelled (to the opponent) */
  | { readonly type: 'declined' | 'cancelled'; readonly challengeId: string }
  /**
   * the open seeks, as `GET /api/seeks` lists them, on a socket opened with `follow=seeks`:
   * right after hello, then within a moment of every change (a seek posted, paired,
   * cancelled or withdrawn), on every gateway
   */
  | { readonly type: 'seeks'; readonly seeks: readonly SeekView[] }
  /** the answer to any frame you send: the socket is read-only (LOBBY_READ_ONLY); MAX_BAD_FRAMES close it */
  | { readonly type: 'error'; readonly error: ErrorBody };
