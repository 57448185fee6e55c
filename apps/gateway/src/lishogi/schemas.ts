/**
 * TypeBox schemas of the lishogi account, challenge and event routes: their answers in
 * lishogi's shapes (shapes.ts, account-shapes.ts) and their parameters as lishogi names them.
 * An answer's schema also serializes it, so each lists every field its shape gives.
 */
import { Type } from 'typebox';

const closed = { additionalProperties: false } as const;

/** lishogi's error answer, with this server's catalog code beside it (errors.ts). */
export const LishogiError = Type.Object({ error: Type.String(), code: Type.String() }, closed);
export const LISHOGI_ERRORS = {
  400: LishogiError,
  401: LishogiError,
  403: LishogiError,
  404: LishogiError,
  409: LishogiError,
  415: LishogiError,
  422: LishogiError,
  429: LishogiError,
  503: LishogiError,
} as const;

export const Ok = Type.Object({ ok: Type.Literal(true) }, closed);
export const OK = { ok: true } as const;

const Speed = Type.String({ description: 'bullet, blitz, rapid, classical or correspondence' });

const Perf = Type.Object(
  { games: Type.Integer(), rating: Type.Integer(), rd: Type.Integer(), prog: Type.Integer(), prov: Type.Boolean() },
  closed,
);
export const LishogiAccount = Type.Object(
  {
    id: Type.String({ description: 'the lower-cased username (a guest: the player id)' }),
    username: Type.String(),
    title: Type.Optional(Type.Literal('BOT')),
    perfs: Type.Record(Type.String(), Perf, { description: 'by speed, for each one with rated games' }),
    createdAt: Type.Integer({ description: 'ms since the epoch' }),
    url: Type.String(),
  },
  closed,
);

const Variant = Type.Object({ key: Type.String(), name: Type.String() }, closed);
const Compat = Type.Object({ bot: Type.Boolean(), board: Type.Boolean() }, closed);

export const LishogiOngoingGame = Type.Object(
  {
    id: Type.String(),
    gameId: Type.String(),
    fullId: Type.String({ description: 'the game id (no player secret here)' }),
    color: Type.String(),
    sfen: Type.String(),
    hasMoved: Type.Boolean(),
    isMyTurn: Type.Boolean(),
    lastMove: Type.String(),
    opponent: Type.Object({ id: Type.String(), username: Type.String(), rating: Type.Integer() }, closed),
    perf: Speed,
    rated: Type.Boolean(),
    secondsLeft: Type.Union([Type.Integer(), Type.Null()]),
    speed: Speed,
    variant: Variant,
    compat: Compat,
  },
  closed,
);
export const NowPlaying = Type.Object({ nowPlaying: Type.Array(LishogiOngoingGame) }, closed);
export const NowPlayingQuery = Type.Object(
  { nb: Type.Optional(Type.String({ pattern: '^[1-9][0-9]?$', description: 'how many (1-50, default 9)' })) },
  closed,
);

const Player = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    title: Type.Union([Type.Literal('BOT'), Type.Null()]),
    rating: Type.Integer(),
    provisional: Type.Boolean(),
  },
  closed,
);
const TimeControl = Type.Union([
  Type.Object(
    {
      type: Type.Literal('clock'),
      limit: Type.Integer(),
      increment: Type.Integer(),
      byoyomi: Type.Integer(),
      periods: Type.Integer(),
      show: Type.String(),
    },
    closed,
  ),
  Type.Object({ type: Type.Literal('correspondence'), daysPerTurn: Type.Integer() }, closed),
  Type.Object({ type: Type.Literal('unlimited') }, closed),
]);
export const LishogiChallenge = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    status: Type.String({ description: 'created, accepted, declined or canceled' }),
    challenger: Player,
    destUser: Player,
    variant: Type.Object({ key: Type.String(), name: Type.String(), short: Type.String() }, closed),
    rated: Type.Boolean(),
    speed: Speed,
    timeControl: TimeControl,
    color: Type.String({ description: "the challenger's: sente, gote or random" }),
    perf: Type.Object({ name: Type.String() }, closed),
    direction: Type.Optional(Type.String({ description: 'out for the challenger, in for the challenged' })),
    initialSfen: Type.Optional(Type.String()),
    compat: Compat,
  },
  closed,
);

const Scalar = Type.Union([Type.String({ maxLength: 256 }), Type.Number(), Type.Boolean()]);
const maybe = (description: string) => Type.Optional(Type.Union(Scalar.anyOf, { description }));
/** lishogi's challenge parameters, form-encoded or JSON (challenge-params.ts reads them). */
export const ChallengeParamsBody = Type.Object(
  {
    rated: maybe('true for a rated game (default false)'),
    'clock.limit': maybe('main time, seconds (0-10800); no clock and no days: unlimited'),
    'clock.increment': maybe('seconds added per move (0-60)'),
    'clock.byoyomi': maybe('byoyomi, seconds (0-60); not with an increment'),
    'clock.periods': maybe('byoyomi periods (1-5, default 1)'),
    clock: Type.Optional(
      Type.Object(
        {
          limit: Type.Optional(Scalar),
          increment: Type.Optional(Scalar),
          byoyomi: Type.Optional(Scalar),
          periods: Type.Optional(Scalar),
        },
        closed,
      ),
    ),
    days: maybe('days per move (1-14): a correspondence game'),
    color: maybe("the challenger's colour: sente, gote or random (default)"),
    variant: maybe('standard only'),
    sfen: maybe('a custom initial position (casual games only)'),
    keepAliveStream: maybe('not served: refused when true'),
    acceptByToken: maybe('not served: refused'),
    message: maybe('ignored (it goes with acceptByToken on lishogi)'),
  },
  closed,
);
export const ChallengeTarget = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) },
  closed,
);
export const ChallengeIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) },
  closed,
);
export const DeclineBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 50, description: "lishogi's decline reason; not kept" })) },
  closed,
);
