/**
 * Accounts (a player with a username and an argon2id password hash) and their tokens
 * (session and personal, stored as SHA-256 only). Guest players keep their token in
 * `players.token_hash` (players.ts); `findCredential` looks a token hash up in both.
 */
import { CompiledQuery, sql } from 'kysely';
import { poolOf } from './db.js';
import type { Db, TokenRow, TokenRowKind } from './schema.js';

/** The unique index on lower(username): its violation means the username is taken. */
const USERNAME_KEY = 'accounts_username_lower_key';

export interface NewAccount {
  readonly id: string;
  /** the player's display name (the username at registration) */
  readonly name: string;
  readonly username: string;
  readonly passwordHash: string;
}

/** Inserts the player and its account in one transaction; 'taken' when the username is. */
export async function createAccount(db: Db, account: NewAccount): Promise<'created' | 'taken'> {
  try {
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('players').values({ id: account.id, name: account.name, token_hash: null }).execute();
      await tx
        .insertInto('accounts')
        .values({ player_id: account.id, username: account.username, password_hash: account.passwordHash })
        .execute();
    });
    return 'created';
  } catch (err) {
    const e = err as { code?: unknown; constraint?: unknown };
    if (e.code === '23505' && e.constraint === USERNAME_KEY) return 'taken';
    throw err;
  }
}

export interface AccountCredentials {
  readonly playerId: string;
  readonly name: string;
  readonly username: string;
  readonly passwordHash: string;
}

export async function findAccountByUsername(db: Db, username: string): Promise<AccountCredentials | undefined> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('players', 'players.id', 'accounts.player_id')
    .select(['accounts.player_id', 'players.name', 'accounts.username', 'accounts.password_hash'])
    // the expression of the unique index, so this is an index probe
    .where(sql<string>`lower(accounts.username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row && { playerId: row.player_id, name: row.name, username: row.username, passwordHash: row.password_hash };
}

/** Whether an account has this username, compared case-insensitively (an index probe). */
export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('player_id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** The account of a player, or undefined for a guest. */
export async function findAccountById(db: Db, playerId: string): Promise<AccountCredentials | undefined> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('players', 'players.id', 'accounts.player_id')
    .select(['accounts.player_id', 'players.name', 'accounts.username', 'accounts.password_hash'])
    .where('accounts.player_id', '=', playerId)
    .executeTakeFirst();
  return row && { playerId: row.player_id, name: row.name, username: row.username, passwordHash: row.password_hash };
}

/**
 * Replaces an account's password hash if it is still `expectedHash` (two changes racing: the
 * second finds the hash changed and gets null), and revokes the account's other session tokens
 * in the same transaction: whoever logged in with the old password is logged out. Personal API
 * tokens stay (a bot's token is not a login) unless `revokePersonal`: a session that was
 * stolen may have minted some, and they would outlive the new password. Returns the revoked
 * tokens' hashes.
 */
export async function changePasswordHash(
  db: Db,
  change: {
    readonly playerId: string;
    readonly expectedHash: string;
    readonly newHash: string;
    readonly keepTokenId: string | null;
    readonly revokePersonal?: boolean;
    readonly now: Date;
  },
): Promise<string[] | null> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('accounts')
      .set({ password_hash: change.newHash })
      .where('player_id', '=', change.playerId)
      .where('password_hash', '=', change.expectedHash)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    const kinds: TokenRowKind[] = change.revokePersonal === true ? ['session', 'personal'] : ['session'];
    return revokeTokens(trx, change.playerId, change.now, change.keepTokenId, kinds);
  });
}

/** Revokes a player's live tokens of these kinds, but `keepTokenId`'s; returns their hashes. */
async function revokeTokens(
  trx: Db,
  playerId: string,
  now: Date,
  keepTokenId: string | null,
  kinds: readonly TokenRowKind[] = ['session'],
): Promise<string[]> {
  const revoked = await trx
    .updateTable('tokens')
    .set({ revoked_at: now })
    .where('player_id', '=', playerId)
    .where('kind', 'in', kinds)
    .where('revoked_at', 'is', null)
    .$if(keepTokenId !== null, (q) => q.where('id', '!=', keepTokenId as string))
    .returning('token_hash')
    .execute();
  return revoked.map((r) => r.token_hash);
}

/**
 * An operator's reset: sets the account's password hash whatever it was and revokes all its
 * session tokens, and its personal tokens unless `revokePersonal` is false. Returns the player
 * and the revoked hashes, or undefined for no such username.
 */
export async function resetPasswordHash(
  db: Db,
  username: string,
  newHash: string,
  now: Date,
  revokePersonal = true,
): Promise<{ playerId: string; revokedHashes: string[] } | undefined> {
  return db.transaction().execute(async (trx) => {
    const account = await trx
      .updateTable('accounts')
      .set({ password_hash: newHash })
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .returning('player_id')
      .executeTakeFirst();
    if (account === undefined) return undefined;
    const kinds: TokenRowKind[] = revokePersonal ? ['session', 'personal'] : ['session'];
    return { playerId: account.player_id, revokedHashes: await revokeTokens(trx, account.player_id, now, null, kinds) };
  });
}

export interface NewToken {
  readonly id: string;
  readonly playerId: string;
  readonly kind: TokenRowKind;
  readonly name: string;
  readonly tokenHash: string;
  readonly scopes: readonly string[];
  readonly expiresAt: Date | null;
}

export async function insertToken(db: Db, token: NewToken): Promise<TokenRow> {
  return db
    .insertInto('tokens')
    .values({
      id: token.id,
      player_id: token.playerId,
      kind: token.kind,
      name: token.name,
      token_hash: token.tokenHash,
      scopes: [...token.scopes],
      expires_at: token.expiresAt,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What a token hash stands for: its player and, for an account's token, the token row. */
export interface CredentialRow {
  readonly tokenHash: string;
  readonly playerId: string;
  readonly name: string;
  /** null for a guest player */
  readonly username: string | null;
  /** null for a guest token */
  readonly token: Pick<TokenRow, 'id' | 'kind' | 'scopes' | 'expires_at'> | null;
}

/**
 * A guest token (on `players`) or an account's token that is not revoked (on `tokens`): both
 * hashes are unique, and 32 random bytes never match in both tables.
 */
const FIND_CREDENTIAL = `
  select p.id as player_id, p.name, null::text as username, p.token_hash,
    null::text as token_id, null::text as kind, null::text[] as scopes, null::timestamptz as expires_at
  from players p where p.token_hash = $1
  union all
  select t.player_id, p.name, a.username, t.token_hash, t.id, t.kind, t.scopes, t.expires_at
  from tokens t join players p on p.id = t.player_id left join accounts a on a.player_id = t.player_id
  where t.token_hash = $1 and t.revoked_at is null
  limit 1`;

interface CredentialQueryRow {
  readonly player_id: string;
  readonly name: string;
  readonly username: string | null;
  readonly token_hash: string;
  readonly token_id: string | null;
  readonly kind: TokenRowKind | null;
  readonly scopes: string[] | null;
  readonly expires_at: Date | null;
}

/**
 * The player holding a token with this hash, or undefined; revoked tokens are skipped,
 * expired ones are returned (the caller compares `expires_at` with its clock).
 * Gateways look a token up on the moves of every player whose cached one is older than
 * AUTH_CACHE_MS, so this is one named prepared statement where createDb's pool is there
 * (a kysely build and an unprepared statement per lookup showed in the server thread's CPU
 * profile under load), and the same text through kysely elsewhere.
 */
export async function findCredential(db: Db, tokenHash: string): Promise<CredentialRow | undefined> {
  const pool = poolOf(db);
  const rows =
    pool === undefined
      ? (await db.executeQuery<CredentialQueryRow>(CompiledQuery.raw(FIND_CREDENTIAL, [tokenHash]))).rows
      : (
          await pool.query<CredentialQueryRow>({
            name: 'shogi_find_credential_v1',
            text: FIND_CREDENTIAL,
            values: [tokenHash],
          })
        ).rows;
  const row = rows[0];
  if (row === undefined) return undefined;
  const token =
    row.token_id === null || row.kind === null
      ? null
      : { id: row.token_id, kind: row.kind, scopes: row.scopes ?? [], expires_at: row.expires_at };
  return { tokenHash: row.token_hash, playerId: row.player_id, name: row.name, username: row.username, token };
}

/** The player's tokens that still work at `now`, newest first. */
export async function listActiveTokens(db: Db, playerId: string, now: Date): Promise<TokenRow[]> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('player_id', '=', playerId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function countActiveTokens(db: Db, playerId: string, kind: TokenRowKind, now: Date): Promise<number> {
  const row = await db
    .selectFrom('tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('player_id', '=', playerId)
    .where('kind', '=', kind)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Revokes one of the player's tokens (by id, or by hash for a logout); returns the revoked
 * token's hash, so caches holding it can drop it, or undefined when there was none to revoke.
 */
export async function revokeToken(
  db: Db,
  playerId: string,
  which: { readonly id: string } | { readonly tokenHash: string },
  now: Date,
): Promise<string | undefined> {
  const row = await db
    .updateTable('tokens')
    .set({ revoked_at: now })
    .where('player_id', '=', playerId)
    .where('revoked_at', 'is', null)
    .where('id' in which ? 'id' : 'token_hash', '=', 'id' in which ? which.id : which.tokenHash)
    .returning('token_hash')
    .executeTakeFirst();
  return row?.token_hash;
}

/**
 * Deletes up to `limit` tokens that stopped working before `before` (expired or revoked then);
 * returns how many. A dead token is refused either way: the rows only cost
 * space, and every login adds one (sessions expire after SESSION_TTL_DAYS).
 */
export async function deleteDeadTokens(db: Db, before: Date, limit = 1_000): Promise<number> {
  const result = await db
    .deleteFrom('tokens')
    .where(
      'id',
      'in',
      db
        .selectFrom('tokens')
        .select('id')
        .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Every token that works at `now` (guest tokens, and account tokens neither revoked nor
 * expired): their count first, then their hashes, `batch` at a time, from a cursor in one
 * transaction, so that memory holds one batch and the count and the rows are of one moment.
 */
export async function scanValidTokenHashes(
  db: Db,
  now: Date,
  counted: (count: number) => void,
  onBatch: (hashes: string[]) => void,
  batch = 10_000,
): Promise<void> {
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const { rows } = await sql<{ n: string }>`
        select (select count(*) from players where token_hash is not null)
          + (select count(*) from tokens where revoked_at is null and (expires_at is null or expires_at > ${now})) as n`.execute(
        trx,
      );
      counted(Number(rows[0]?.n ?? 0));
      await sql`declare valid_token_hashes no scroll cursor for
        select token_hash from players where token_hash is not null
        union all
        select token_hash from tokens where revoked_at is null and (expires_at is null or expires_at > ${now})`.execute(
        trx,
      );
      for (;;) {
        const fetched = await sql<{ token_hash: string }>`
          fetch forward ${sql.raw(String(Math.max(1, Math.floor(batch))))} from valid_token_hashes`.execute(trx);
        if (fetched.rows.length === 0) break;
        onBatch(fetched.rows.map((r) => r.token_hash));
      }
    });
}
