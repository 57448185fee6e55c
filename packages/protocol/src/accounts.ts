/**
 * Accounts, sessions and personal API tokens on the wire (TypeBox, closed objects).
 * A token's scopes say what it may do: `play` acts in games (moves, resignation, the player
 * WebSocket, seeks and challenges), `read` reads private things (the token list), `admin`
 * creates games directly (operators and tests). `admin` is never granted by a public route:
 * only the operator CLI (`npm run admin:token`) mints a token that holds it. lishogi's scope
 * names (`bot:play`, `board:play`, `challenge:read`, `challenge:write`, lichess's
 * `tournament:write`) guard the routes of
 * its Bot and Board API here as there, so that a client written for it asks for them as it
 * would of lishogi. `csa:play` lets a token be the trip of a CSA login (docs/csa.md), with
 * which an account plays rated games over the CSA protocol.
 */
import { type Static, Type } from 'typebox';
import { Id, PlayerName } from './http.js';

const closed = { additionalProperties: false } as const;

/** lishogi's scopes, for the routes of its Bot and Board API. */
export const LISHOGI_SCOPES = [
  'bot:play',
  'board:play',
  'challenge:read',
  'challenge:write',
  'tournament:write',
] as const;
/** The CSA front end's scope: a token that holds it is a trip (`LOGIN <username> <game>,<token>`). */
export const CSA_SCOPES = ['csa:play'] as const;
export const SCOPES = ['play', 'read', 'admin', 'mod', ...LISHOGI_SCOPES, ...CSA_SCOPES] as const;
export type Scope = (typeof SCOPES)[number];
export const ScopeName = Type.Unsafe<Scope>(Type.String({ enum: [...SCOPES] }));
/** The scopes a player may give a personal token of their own. */
export const PLAYER_SCOPES = ['play', 'read', ...LISHOGI_SCOPES, ...CSA_SCOPES] as const satisfies readonly Scope[];
/**
 * What guest and session tokens hold: this server's own scopes. lishogi's and CSA's are asked
 * for by name when a personal token is made (`POST /api/tokens`), as on lishogi.
 */
export const OWN_PLAYER_SCOPES = ['play', 'read'] as const satisfies readonly Scope[];
export type PlayerScope = (typeof PLAYER_SCOPES)[number];
const PlayerScopeName = Type.Unsafe<PlayerScope>(Type.String({ enum: [...PLAYER_SCOPES] }));

/** guest: the token of `POST /api/players` (the player scopes, no expiry); session: a login; personal: made by its owner */
export const TOKEN_KINDS = ['guest', 'session', 'personal'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
export const TokenKindName = Type.Unsafe<TokenKind>(Type.String({ enum: [...TOKEN_KINDS] }));

// letters, digits, _ and -: a username is part of URLs and is compared case-insensitively
export const Username = Type.String({ minLength: 3, maxLength: 24, pattern: '^[A-Za-z0-9_-]+$' });
// any characters (a passphrase may hold spaces and unicode); only the argon2id hash is kept
export const Password = Type.String({ minLength: 8, maxLength: 200 });
const Timestamp = Type.String({ description: 'ISO 8601, UTC' });

export const ReplacedTokenResponse = Type.Object(
  {
    token: Type.String({
      description: "the guest player's new bearer token (every scope, no expiry); shown once, stored hashed",
    }),
  },
  closed,
);
export type ReplacedTokenResponse = Static<typeof ReplacedTokenResponse>;

export const CredentialsBody = Type.Object({ username: Username, password: Password }, closed);
export type CredentialsBody = Static<typeof CredentialsBody>;

export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Password,
    newPassword: Password,
    revokePersonalTokens: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          'revoke every personal API token of the account too, on every gateway (a stolen session may have made some). Default true; false keeps them',
      }),
    ),
  },
  closed,
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const AccountResponse = Type.Object(
  { id: Id, name: Type.String(), username: Type.String({ description: 'as registered; unique case-insensitively' }) },
  closed,
);
export type AccountResponse = Static<typeof AccountResponse>;

export const SessionResponse = Type.Object(
  {
    id: Id,
    token: Type.String({ description: 'bearer token (32 random bytes, base64url); shown once, stored hashed' }),
    scopes: Type.Array(ScopeName),
    expiresAt: Timestamp,
    player: AccountResponse,
  },
  closed,
);
export type SessionResponse = Static<typeof SessionResponse>;

export const CreateTokenBody = Type.Object(
  {
    name: PlayerName,
    scopes: Type.Array(PlayerScopeName, { minItems: 1, maxItems: PLAYER_SCOPES.length, uniqueItems: true }),
    expiresInDays: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 365, description: 'omitted: valid until revoked' }),
    ),
  },
  closed,
);
export type CreateTokenBody = Static<typeof CreateTokenBody>;

export const TokenInfo = Type.Object(
  {
    id: Id,
    kind: Type.Unsafe<'session' | 'personal'>(Type.String({ enum: ['session', 'personal'] })),
    name: Type.String(),
    scopes: Type.Array(ScopeName),
    createdAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()]),
  },
  closed,
);
export type TokenInfo = Static<typeof TokenInfo>;

export const CreatedTokenResponse = Type.Object(
  {
    id: Id,
    kind: Type.Literal('personal'),
    name: Type.String(),
    scopes: Type.Array(ScopeName),
    createdAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()]),
    token: Type.String({ description: 'bearer token; shown once, stored hashed' }),
  },
  closed,
);
export type CreatedTokenResponse = Static<typeof CreatedTokenResponse>;

export const TokenList = Type.Object({ tokens: Type.Array(TokenInfo) }, closed);
export type TokenList = Static<typeof TokenList>;

export const TokenParams = Type.Object({ id: Id }, closed);
export type TokenParams = Static<typeof TokenParams>;

export const MeResponse = Type.Object(
  {
    id: Id,
    name: Type.String(),
    username: Type.Union([Type.String(), Type.Null()], { description: 'null for a guest player' }),
    token: Type.Object(
      {
        id: Type.Union([Id, Type.Null()], { description: 'null for a guest token' }),
        kind: TokenKindName,
        scopes: Type.Array(ScopeName),
        expiresAt: Type.Union([Timestamp, Type.Null()]),
      },
      closed,
    ),
  },
  closed,
);
export type MeResponse = Static<typeof MeResponse>;

export const SocketTicketResponse = Type.Object(
  {
    ticket: Type.String({
      description: 'open one WebSocket with ?ticket=<this> within the lifetime; it works once, on any gateway',
    }),
    expiresAt: Timestamp,
  },
  closed,
);
export type SocketTicketResponse = Static<typeof SocketTicketResponse>;

/** A player's preferences: lishogi's `takeback` (always, casual games only, never; default always). */
export const Preferences = Type.Object(
  {
    takeback: Type.Union([Type.Literal('always'), Type.Literal('casual'), Type.Literal('never')], {
      description: 'when your games allow takebacks: always, in casual games only, never (default: always)',
    }),
  },
  { additionalProperties: false },
);
export type Preferences = Static<typeof Preferences>;
