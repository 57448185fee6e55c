/**
 * findCredential, the lookup behind every token check: a guest token on `players`, an
 * account's token on `tokens` (revoked ones skipped, expired ones returned for the caller
 * to refuse), nothing for an unknown hash; the same answers from the prepared statement
 * on createDb's pool and from kysely inside a transaction.
 */
import {
  type CredentialRow,
  createAccount,
  createPlayer,
  findCredential,
  insertToken,
  poolOf,
  revokeToken,
} from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestDatabase;
const EXPIRES = new Date('2099-12-31T00:00:00.000Z');
const EXPIRED = new Date('2020-01-01T00:00:00.000Z');

beforeAll(async () => {
  t = await createTestDatabase();
  await createPlayer(t.db, { id: 'guest-1', name: 'Guest One', tokenHash: 'hash-guest' });
  await createAccount(t.db, { id: 'acct-1', name: 'Alice', username: 'alice', passwordHash: 'x' });
  const token = (id: string, expiresAt: Date | null, kind: 'session' | 'personal' = 'session') =>
    insertToken(t.db, { id, playerId: 'acct-1', kind, name: id, tokenHash: `hash-${id}`, scopes: ['read'], expiresAt });
  await token('session', EXPIRES);
  await token('personal', null, 'personal');
  await token('expired', EXPIRED);
  await token('revoked', EXPIRES);
  await revokeToken(t.db, 'acct-1', { id: 'revoked' }, new Date());
});
afterAll(async () => {
  await t?.drop();
});

const expected: Record<string, CredentialRow | undefined> = {
  'hash-guest': { tokenHash: 'hash-guest', playerId: 'guest-1', name: 'Guest One', username: null, token: null },
  'hash-session': {
    tokenHash: 'hash-session',
    playerId: 'acct-1',
    name: 'Alice',
    username: 'alice',
    token: { id: 'session', kind: 'session', scopes: ['read'], expires_at: EXPIRES },
  },
  'hash-personal': {
    tokenHash: 'hash-personal',
    playerId: 'acct-1',
    name: 'Alice',
    username: 'alice',
    token: { id: 'personal', kind: 'personal', scopes: ['read'], expires_at: null },
  },
  'hash-expired': {
    tokenHash: 'hash-expired',
    playerId: 'acct-1',
    name: 'Alice',
    username: 'alice',
    token: { id: 'expired', kind: 'session', scopes: ['read'], expires_at: EXPIRED },
  },
  'hash-revoked': undefined,
  'hash-nobody': undefined,
};

describe('findCredential', () => {
  it('has the statement pool to take on createDb, and none in a transaction', async () => {
    expect(poolOf(t.db)).toBeDefined();
    await t.db.transaction().execute(async (trx) => expect(poolOf(trx)).toBeUndefined());
  });

  it.each(Object.keys(expected))('%s, on the pool (prepared statement)', async (hash) => {
    expect(await findCredential(t.db, hash)).toEqual(expected[hash]);
  });

  it.each(Object.keys(expected))('%s, inside a transaction (kysely)', async (hash) => {
    const found = await t.db.transaction().execute((trx) => findCredential(trx, hash));
    expect(found).toEqual(expected[hash]);
  });
});
