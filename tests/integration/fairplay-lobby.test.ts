/**
 * Fair play in the lobby (issue 47): a marked account is paired only with marked accounts.
 * Real PostgreSQL and Redis; the mark is a moderator's, through the API.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createAccount, insertToken } from '@shogi/store';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

interface Account {
  readonly id: string;
  readonly username: string;
  readonly token: string;
  readonly address: string;
}

let accounts = 0;
async function account(name: string): Promise<Account> {
  const username = `${name}_${randomBytes(3).toString('hex')}`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const created = await call(stack.app, 'POST', '/api/accounts', { username, password });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const session = await call(stack.app, 'POST', '/api/session', { username, password });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  const n = ++accounts;
  return { id: created.body.id, username, token: session.body.token, address: `198.19.${n >> 8}.${n & 255}` };
}

/** A token with the mod scope, as `npm run admin:token -- USERNAME --scope mod` mints one. */
async function modToken(): Promise<string> {
  const playerId = randomUUID();
  const username = `moderator-${randomBytes(4).toString('hex')}`;
  await createAccount(stack.db, { id: playerId, name: username, username, passwordHash: '!' });
  const token = randomBytes(32).toString('base64url');
  await insertToken(stack.db, {
    id: randomUUID(),
    playerId,
    kind: 'personal',
    name: 'mod',
    tokenHash: createHash('sha256').update(token).digest('hex'),
    scopes: ['mod'],
    expiresAt: null,
  });
  return token;
}

// a time control no other test seeks with, so only this test's seeks share the pool
const clock = { kind: 'byoyomi', mainSeconds: 400 + Math.floor(Math.random() * 200), byoyomiSeconds: 7, periods: 1 };

async function seek(a: Account, rated: boolean): Promise<{ id: string; status: string; gameId: string | null }> {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/seeks',
    remoteAddress: a.address,
    headers: { ...bearer(a.token), 'content-type': 'application/json' },
    payload: JSON.stringify({ timeControl: clock, rated }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return JSON.parse(res.body);
}

describe('a marked account in the lobby', () => {
  test.each([false, true])('is paired only with marked accounts (rated: %s)', async (rated) => {
    // given a marked account with an open seek
    const mod = await modToken();
    const [marked, unmarked, otherMarked, otherUnmarked] = await Promise.all([
      account('marked'),
      account('plain'),
      account('marked2'),
      account('plain2'),
    ]);
    for (const m of [marked, otherMarked]) {
      const res = await call(stack.app, 'POST', `/api/mod/${m.username}/engine`, { reason: 'test' }, bearer(mod));
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    const markedSeek = await seek(marked, rated);
    expect(markedSeek.status).toBe('open');
    // when an unmarked account seeks the same game: it is not paired with the marked one
    const plainSeek = await seek(unmarked, rated);
    expect(plainSeek.status).toBe('open');
    expect(plainSeek.gameId).toBeNull();
    // when another marked account seeks it: the two marked are paired
    const markedAgain = await seek(otherMarked, rated);
    expect(markedAgain.status).toBe('paired');
    const first = await call(stack.app, 'GET', `/api/seeks/${markedSeek.id}`);
    expect(first.body.status).toBe('paired');
    expect(first.body.gameId).toBe(markedAgain.gameId);
    // and the unmarked one is still open, for the next unmarked account
    const plainAgain = await seek(otherUnmarked, rated);
    expect(plainAgain.status).toBe('paired');
    const second = await call(stack.app, 'GET', `/api/seeks/${plainSeek.id}`);
    expect(second.body.gameId).toBe(plainAgain.gameId);
  });

  test('an account is paired with unmarked ones again once a moderator unmarks it', async () => {
    const mod = await modToken();
    const [was, plain] = await Promise.all([account('unmarked'), account('plain')]);
    await call(stack.app, 'POST', `/api/mod/${was.username}/engine`, { reason: 'test' }, bearer(mod));
    const open = await seek(was, false);
    expect((await seek(plain, false)).status).toBe('open');
    await call(stack.app, 'DELETE', `/api/mod/${was.username}/engine`, { reason: 'appeal' }, bearer(mod));
    // the marked account's seek, posted while it was marked, now pairs with the next unmarked seek
    const again = await seek(plain, false);
    expect(again.status).toBe('paired');
    expect((await call(stack.app, 'GET', `/api/seeks/${open.id}`)).body.gameId).toBe(again.gameId);
  });
});
