/**
 * The sweeper's token cleanup: tokens expired or revoked longer than the retention ago are
 * deleted, in batches until none is left; working, recently dead and never-expiring tokens
 * stay; two workers cleaning at once delete each row once.
 */
import { createPlayer, insertToken, revokeToken } from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sweepDeadTokens } from '../../apps/worker/src/sweeper.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-30T12:00:00Z');

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

async function token(id: string, expiresAt: Date | null, revokedAt?: Date) {
  await insertToken(t.db, {
    id,
    playerId: 'p1',
    kind: 'session',
    name: id,
    tokenHash: `hash-${id}`,
    scopes: ['play', 'read'],
    expiresAt,
  });
  if (revokedAt) await revokeToken(t.db, 'p1', { id }, revokedAt);
}

const remaining = async () => (await t.db.selectFrom('tokens').select('id').orderBy('id').execute()).map((r) => r.id);

it('deletes tokens dead for longer than the retention, and only those', async () => {
  await createPlayer(t.db, { id: 'p1', name: 'alice', tokenHash: 'guest-hash' });
  await token('expired-long-ago', new Date(NOW - 40 * DAY));
  await token('revoked-long-ago', new Date(NOW + 300 * DAY), new Date(NOW - 31 * DAY));
  await token('revoked-never-expiring', null, new Date(NOW - 60 * DAY));
  await token('expired-yesterday', new Date(NOW - DAY));
  await token('revoked-yesterday', null, new Date(NOW - DAY));
  await token('working', new Date(NOW + DAY));
  await token('never-expiring', null);
  expect(await sweepDeadTokens(t.db, 30 * DAY, NOW)).toBe(3);
  expect(await remaining()).toEqual(['expired-yesterday', 'never-expiring', 'revoked-yesterday', 'working']);
  // nothing left to do; a shorter retention takes the recently dead ones too
  expect(await sweepDeadTokens(t.db, 30 * DAY, NOW)).toBe(0);
  expect(await sweepDeadTokens(t.db, 0.5 * DAY, NOW)).toBe(2);
  expect(await remaining()).toEqual(['never-expiring', 'working']);
  // the guest player's own token (in players) is not a tokens row and stays
  expect(await t.db.selectFrom('players').select('token_hash').executeTakeFirst()).toEqual({
    token_hash: 'guest-hash',
  });
});

it('cleans in batches until none is left, also with two workers at once', async () => {
  await t.db.deleteFrom('tokens').execute();
  for (let i = 0; i < 57; i++) await token(`dead-${String(i).padStart(2, '0')}`, new Date(NOW - 90 * DAY));
  await token('working', new Date(NOW + DAY));
  expect(await sweepDeadTokens(t.db, 30 * DAY, NOW, 10)).toBe(57);
  expect(await remaining()).toEqual(['working']);
  for (let i = 0; i < 57; i++) await token(`dead-${String(i).padStart(2, '0')}`, new Date(NOW - 90 * DAY));
  const [a, b] = await Promise.all([
    sweepDeadTokens(t.db, 30 * DAY, NOW, 10),
    sweepDeadTokens(t.db, 30 * DAY, NOW, 10),
  ]);
  expect(a + b).toBe(57);
  expect(await remaining()).toEqual(['working']);
});
