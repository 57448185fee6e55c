/**
 * Accounts, sessions and personal API tokens: registration and login with argon2id
 * password hashes, tokens looked up by their SHA-256, scopes, expiry and revocation.
 * Guest players (`POST /api/players`) hold one token with every scope and no expiry.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify, type Options } from '@node-rs/argon2';
import {
  type AccountResponse,
  type CreatedTokenResponse,
  type CreateTokenBody,
  OWN_PLAYER_SCOPES,
  PLAYER_SCOPES,
  SCOPES,
  type Scope,
  type SessionResponse,
  type TokenInfo,
  type TokenKind,
} from '@shogi/protocol';
import type { AccountCredentials, CredentialRow, NewAccount, NewToken, TokenRow } from '@shogi/store';
import { ApiError } from './api-error.js';
import type { Player } from './player.js';
import { TokenCache } from './token-cache.js';

/**
 * argon2id with OWASP's first recommended setting (Password Storage Cheat Sheet, 2023):
 * 19 MiB of memory, 2 passes, 1 lane: slow and memory-hard on purpose, so logins are
 * rate-limited and a lost hash is costly to attack. The parameters
 * are stored in each PHC hash string, so raising them later leaves old hashes valid.
 * (argon2id is @node-rs/argon2's default algorithm; a test checks the `$argon2id$` prefix.)
 */
export const ARGON2_OPTIONS: Options = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 };

/** Personal tokens an account may hold at once: bounds the table and the list. */
export const MAX_PERSONAL_TOKENS = 50;

/**
 * SHA-256, not a password hash, for tokens: they are 32 (guests: 24) random bytes, so
 * there is nothing to brute-force or look up in a dictionary, and a lookup must cost
 * microseconds on every move.
 */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new bearer token: 32 random bytes (256 bits), base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Who is asking, and with what token. */
export interface Principal extends Player {
  /** null for a guest player */
  readonly username: string | null;
  readonly token: {
    /** null for a guest token */
    readonly id: string | null;
    readonly kind: TokenKind;
    readonly scopes: readonly Scope[];
    readonly expiresAt: Date | null;
  };
  /** SHA-256 of the presented token: the key of the cache and of revocation notices (never logged) */
  readonly tokenHash: string;
}

/** What the auth service needs of the store (implemented over @shogi/store by plugins/auth-store.ts). */
export interface AuthStore {
  findCredential(tokenHash: string): Promise<CredentialRow | undefined>;
  findAccountByUsername(username: string): Promise<AccountCredentials | undefined>;
  findAccountById(playerId: string): Promise<AccountCredentials | undefined>;
  createAccount(account: NewAccount): Promise<'created' | 'taken'>;
  insertToken(token: NewToken): Promise<TokenRow>;
  /** Inserts a personal token unless the player holds `limit` active ones already, counted under the player's quota lock. */
  insertPersonalToken(token: NewToken, limit: number, now: Date): Promise<TokenRow | 'full'>;
  replaceGuestTokenHash(playerId: string, oldHash: string, newHash: string): Promise<boolean>;
  /** The hashes of the tokens the change revoked; null when the password changed meanwhile. */
  changePasswordHash(change: {
    readonly playerId: string;
    readonly expectedHash: string;
    readonly newHash: string;
    readonly keepTokenId: string | null;
    readonly revokePersonal: boolean;
    readonly now: Date;
  }): Promise<string[] | null>;
  resetPasswordHash(
    username: string,
    newHash: string,
    now: Date,
    revokePersonal: boolean,
  ): Promise<{ revokedHashes: string[] } | undefined>;
  /** The revoked token's hash; undefined when none matched (or it was revoked already). */
  revokeToken(
    playerId: string,
    which: { readonly id: string } | { readonly tokenHash: string },
    now: Date,
  ): Promise<string | undefined>;
  listActiveTokens(playerId: string, now: Date): Promise<TokenRow[]>;
  /** The player with this id, made with this name if there is none (its stored name is kept). */
  ensurePlayer(player: Player): Promise<Player>;
}

/** A player the server's processes share (HousePlayers), with this process' own token. */
export interface HousePlayer extends Player {
  readonly token: string;
  /** Revokes this process' token (when the process stops); the player stays. */
  release(): Promise<void>;
}

export interface AuthServiceDeps {
  readonly store: AuthStore;
  /** how long a looked-up token is trusted without asking PostgreSQL again, ms */
  readonly cacheMs: number;
  readonly sessionTtlDays: number;
  /** tells the other gateways that a token was revoked (best effort: the cache age bounds the rest) */
  readonly announceRevoked: (tokenHash: string) => Promise<void>;
  /**
   * told of every token issued here (domain/valid-tokens.ts: every gateway's filter of the
   * valid tokens must hold it before its first use)
   */
  readonly issued?: (tokenHash: string) => void;
  /** told of every token looked up in the store and found valid */
  readonly found?: (tokenHash: string) => void;
  readonly now?: () => Date;
  readonly argon2?: Options;
}

const DAY_MS = 86_400_000;
const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: AuthServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const options = deps.argon2 ?? ARGON2_OPTIONS;
  const cache = new TokenCache<Principal>(deps.cacheMs);
  const issued = (tokenHash: string) => deps.issued?.(tokenHash);
  // told of every token this gateway learns is revoked (sockets opened with it close)
  const revokedListeners = new Set<(tokenHash: string) => void>();
  const forgetAllListeners = new Set<() => void>();
  const forget = (tokenHash: string) => {
    cache.delete(tokenHash);
    for (const listener of revokedListeners) listener(tokenHash);
  };
  // a login for an unknown username verifies against this, so it takes as long as a wrong password
  let dummyHash: Promise<string> | null = null;
  const dummy = () => {
    dummyHash ??= argon2Hash(randomBytes(16).toString('base64url'), options);
    return dummyHash;
  };

  const principalOf = (row: CredentialRow): Principal => ({
    id: row.playerId,
    name: row.name,
    username: row.username,
    tokenHash: row.tokenHash,
    token:
      row.token === null
        ? { id: null, kind: 'guest', scopes: OWN_PLAYER_SCOPES, expiresAt: null }
        : {
            id: row.token.id,
            kind: row.token.kind,
            scopes: row.token.scopes.filter(isScope),
            expiresAt: row.token.expires_at,
          },
  });

  const expired = (p: Principal, at: Date) => p.token.expiresAt !== null && p.token.expiresAt <= at;

  async function byHash(tokenHash: string): Promise<Principal | null> {
    const at = now();
    const cached = cache.get(tokenHash, at.getTime());
    if (cached !== undefined) {
      if (!expired(cached, at)) return cached;
      cache.delete(tokenHash);
      return null;
    }
    const row = await deps.store.findCredential(tokenHash);
    // the row was found by this hash; the constant-time comparison keeps any code-side check
    // from leaking how much of a forged hash matched
    if (!row || !sameHash(row.tokenHash, tokenHash)) return null;
    const principal = principalOf(row);
    if (expired(principal, at)) return null;
    cache.set(tokenHash, principal, at.getTime());
    deps.found?.(tokenHash);
    return principal;
  }

  async function revoked(tokenHash: string | undefined): Promise<boolean> {
    if (tokenHash === undefined) return false;
    forget(tokenHash);
    await deps.announceRevoked(tokenHash).catch(() => {
      // the other gateways' caches drop it within cacheMs anyway
    });
    return true;
  }

  return {
    /** The principal holding this bearer token, or null (unknown, revoked or expired). */
    authenticate: (token: string) => byHash(hashToken(token)),
    byHash,

    /** Whether this token is in the cache (a lookup would cost nothing). */
    cached: (tokenHash: string) => cache.get(tokenHash, now().getTime()) !== undefined,

    /** Tells the service a token was just issued for a player (a guest's, made by the game service). */
    issued,

    /** A revocation announced by another gateway. */
    forget,

    /** Calls `listener` with the hash of every token revoked here or announced by another gateway. */
    onRevoked(listener: (tokenHash: string) => void): () => void {
      revokedListeners.add(listener);
      return () => revokedListeners.delete(listener);
    },

    /**
     * Drops every cached token, so the next use of each is looked up again, and tells the
     * listeners of `onForgetAll` (revocation notices may have been lost).
     */
    forgetAll(): void {
      cache.clear();
      for (const listener of forgetAllListeners) listener();
    },

    onForgetAll(listener: () => void): () => void {
      forgetAllListeners.add(listener);
      return () => forgetAllListeners.delete(listener);
    },

    /**
     * An operator's token with the admin scope for an account (the CLI `npm run admin:token`):
     * no route mints one. Undefined for an unknown username.
     */
    async mintAdminToken(
      username: string,
      options: { name: string; expiresInDays?: number; scope?: 'admin' | 'mod' },
    ): Promise<{ token: string; id: string; expiresAt: Date | null } | undefined> {
      const account = await deps.store.findAccountByUsername(username);
      if (account === undefined) return undefined;
      const token = newToken();
      const expiresAt =
        options.expiresInDays === undefined ? null : new Date(now().getTime() + options.expiresInDays * DAY_MS);
      const row = await deps.store.insertToken({
        id: randomUUID(),
        playerId: account.playerId,
        kind: 'personal',
        name: options.name,
        tokenHash: hashToken(token),
        scopes: [options.scope ?? 'admin'],
        expiresAt,
      });
      issued(row.token_hash);
      return { token, id: row.id, expiresAt };
    },

    /**
     * A player of the server's own that every gateway process shares by its fixed id (the
     * house bots: one player per level however many processes run them, and across restarts),
     * made the first time, with a token for this process alone: personal, a guest's scopes, no
     * expiry. A process that stops calls `release`; one that dies leaves a token no one holds,
     * since it only ever lived in that process' memory.
     */
    async housePlayer(id: string, name: string, holder: string): Promise<HousePlayer> {
      const player = await deps.store.ensurePlayer({ id, name });
      const token = newToken();
      const row = await deps.store.insertToken({
        id: randomUUID(),
        playerId: player.id,
        kind: 'personal',
        name: holder,
        tokenHash: hashToken(token),
        scopes: [...OWN_PLAYER_SCOPES],
        expiresAt: null,
      });
      issued(row.token_hash);
      return {
        ...player,
        token,
        release: async () => {
          await revoked(await deps.store.revokeToken(player.id, { id: row.id }, now()));
        },
      };
    },

    async register(username: string, password: string): Promise<AccountResponse> {
      const id = randomUUID();
      const passwordHash = await argon2Hash(password, options);
      const outcome = await deps.store.createAccount({ id, name: username, username, passwordHash });
      if (outcome === 'taken') throw new ApiError('USERNAME_TAKEN');
      return { id, name: username, username };
    },

    async login(username: string, password: string): Promise<SessionResponse> {
      const account = await deps.store.findAccountByUsername(username);
      // one answer, and about one argon2 verification's time, whether the user exists or not
      const ok = await argon2Verify(account?.passwordHash ?? (await dummy()), password).catch(() => false);
      if (!account || !ok) throw new ApiError('INVALID_CREDENTIALS');
      const token = newToken();
      const scopes: Scope[] = [...OWN_PLAYER_SCOPES];
      const row = await deps.store.insertToken({
        id: randomUUID(),
        playerId: account.playerId,
        kind: 'session',
        name: 'session',
        tokenHash: hashToken(token),
        scopes,
        expiresAt: new Date(now().getTime() + deps.sessionTtlDays * DAY_MS),
      });
      issued(row.token_hash);
      return {
        id: row.id,
        token,
        scopes,
        expiresAt: (row.expires_at as Date).toISOString(),
        player: { id: account.playerId, name: account.name, username: account.username },
      };
    },

    /**
     * A new token for a guest player in place of the presented one, which stops working on
     * every gateway at once (a leaked guest token is replaced, the player and its games kept).
     */
    async replaceGuestToken(principal: Principal): Promise<{ token: string }> {
      if (principal.token.kind !== 'guest') throw new ApiError('GUEST_TOKEN_REQUIRED');
      const token = newToken();
      const tokenHash = hashToken(token);
      if (!(await deps.store.replaceGuestTokenHash(principal.id, principal.tokenHash, tokenHash)))
        throw new ApiError('UNAUTHORIZED', 'the token was replaced already');
      issued(tokenHash);
      await revoked(principal.tokenHash);
      return { token };
    },

    /**
     * Changes an account's password, with a session token and the current password (a stolen
     * session alone cannot lock its owner out). The account's other sessions end on every
     * gateway; the presented one keeps working. Personal API tokens end too unless
     * `revokePersonalTokens` is false: those a stolen session minted would otherwise outlive
     * the new password.
     */
    async changePassword(
      principal: Principal,
      currentPassword: string,
      newPassword: string,
      { revokePersonalTokens = true }: { readonly revokePersonalTokens?: boolean } = {},
    ): Promise<void> {
      if (principal.token.kind !== 'session') throw new ApiError('SESSION_REQUIRED');
      const account = await deps.store.findAccountById(principal.id);
      if (account === undefined) throw new ApiError('SESSION_REQUIRED');
      const ok = await argon2Verify(account.passwordHash, currentPassword).catch(() => false);
      if (!ok) throw new ApiError('WRONG_PASSWORD');
      const revokedHashes = await deps.store.changePasswordHash({
        playerId: principal.id,
        expectedHash: account.passwordHash,
        newHash: await argon2Hash(newPassword, options),
        keepTokenId: principal.token.id,
        revokePersonal: revokePersonalTokens,
        now: now(),
      });
      if (revokedHashes === null) throw new ApiError('CONFLICT', 'the password was changed meanwhile; log in again');
      await Promise.all(revokedHashes.map((hash) => revoked(hash)));
    },

    /**
     * An operator's reset (there is no e-mail to send a link to): a random temporary password,
     * shown once to the operator, and every session of the account ended on every gateway, and
     * its personal API tokens too unless `revokePersonalTokens` is false (as a password change:
     * whoever took the account may have minted some). Undefined for an unknown username.
     */
    async resetPassword(
      username: string,
      { revokePersonalTokens = true }: { readonly revokePersonalTokens?: boolean } = {},
    ): Promise<{ temporaryPassword: string; tokensRevoked: number } | undefined> {
      const temporaryPassword = randomBytes(12).toString('base64url');
      const reset = await deps.store.resetPasswordHash(
        username,
        await argon2Hash(temporaryPassword, options),
        now(),
        revokePersonalTokens,
      );
      if (reset === undefined) return undefined;
      await Promise.all(reset.revokedHashes.map((hash) => revoked(hash)));
      return { temporaryPassword, tokensRevoked: reset.revokedHashes.length };
    },

    /** Revokes the presented session token. */
    async logout(principal: Principal): Promise<void> {
      if (principal.token.kind !== 'session') throw new ApiError('SESSION_REQUIRED');
      await revoked(await deps.store.revokeToken(principal.id, { tokenHash: principal.tokenHash }, now()));
    },

    async createToken(principal: Principal, body: CreateTokenBody): Promise<CreatedTokenResponse> {
      if (principal.token.kind !== 'session') throw new ApiError('SESSION_REQUIRED');
      const at = now();
      const token = newToken();
      // only the scopes a player may grant: the admin scope never comes from a route
      const scopes = PLAYER_SCOPES.filter((s) => body.scopes.includes(s));
      const row = await deps.store.insertPersonalToken(
        {
          id: randomUUID(),
          playerId: principal.id,
          kind: 'personal',
          name: body.name,
          tokenHash: hashToken(token),
          scopes,
          expiresAt: body.expiresInDays === undefined ? null : new Date(at.getTime() + body.expiresInDays * DAY_MS),
        },
        MAX_PERSONAL_TOKENS,
        at,
      );
      if (row === 'full') throw new ApiError('TOO_MANY_TOKENS', `at most ${MAX_PERSONAL_TOKENS} personal tokens`);
      issued(row.token_hash);
      return { ...infoOf(row), kind: 'personal', token };
    },

    async listTokens(principal: Principal): Promise<TokenInfo[]> {
      if (principal.username === null) return [];
      return (await deps.store.listActiveTokens(principal.id, now())).map(infoOf);
    },

    /** Revokes one of the principal's tokens; TOKEN_NOT_FOUND when none has this id (or it is revoked). */
    async revokeToken(principal: Principal, id: string): Promise<void> {
      if (principal.token.kind !== 'session') throw new ApiError('SESSION_REQUIRED');
      const done = await revoked(await deps.store.revokeToken(principal.id, { id }, now()));
      if (!done) throw new ApiError('TOKEN_NOT_FOUND');
    },
  };
}

function infoOf(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    scopes: row.scopes.filter(isScope),
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at === null ? null : row.expires_at.toISOString(),
  };
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
