/**
 * Fair play in the exports (issue 47): the games of a marked account carry a note, in the
 * record downloads (KIF, KI2, CSA comment lines, the JKF header), the player's CSA and NDJSON
 * streams and the bulk export (`engineMarked` in NDJSON).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createAccount, insertToken } from '@shogi/store';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack, waitForEvent } from './harness.js';
import { type Person, person } from './lishogi-client.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

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

/** A short finished game, `sente` resigning after two moves. */
async function playGame(sente: Person, gote: Person): Promise<string> {
  const created = await call(
    stack.app,
    'POST',
    '/api/games',
    { sente: sente.id, gote: gote.id },
    bearer(stack.adminToken),
  );
  const gameId = created.body.id as string;
  await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi: '7g7f', ply: 0 }, bearer(sente.token));
  await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 1);
  await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi: '3c3d', ply: 1 }, bearer(gote.token));
  await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 2);
  await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(sente.token));
  await waitForEvent(stack.app, gameId, (e) => e.type === 'GameEnded');
  return gameId;
}

const text = async (url: string): Promise<string> => {
  const res = await stack.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};

async function ndjsonLine(url: string, gameId: string): Promise<{ engineMarked: string[] }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const line = (await text(url))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((g) => g.id === gameId);
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`${gameId} not in ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("a marked account's games in the exports", () => {
  test('carry a note of the marked side; other games none', async () => {
    // given a game of an account not yet marked, as sente, and a game of two unmarked accounts
    const [cheater, victim, bystander] = await Promise.all([
      person(stack, 'Cheater', ['play']),
      person(stack, 'Victim', ['play']),
      person(stack, 'Bystander', ['play']),
    ]);
    const flagged = await playGame(cheater, victim);
    const clean = await playGame(victim, bystander);
    expect(await text(`/api/games/${flagged}.kifu`)).not.toContain('fairplay');
    expect((await ndjsonLine(`/api/players/${victim.id}/games.ndjson`, flagged)).engineMarked).toEqual([]);

    // when a moderator marks it
    const mod = await modToken();
    const marked = await call(
      stack.app,
      'POST',
      `/api/mod/${cheater.username}/engine`,
      { reason: 'test' },
      bearer(mod),
    );
    expect(marked.status, JSON.stringify(marked.body)).toBeLessThan(300);

    // then its game's records say so, the other game's do not
    const kifu = await text(`/api/games/${flagged}.kifu`);
    expect(kifu.split('\n')[1]).toBe('#fairplay: sente engine-marked');
    expect(await text(`/api/games/${flagged}.csa`)).toContain("\n'fairplay: sente engine-marked\n");
    expect(JSON.parse(await text(`/api/games/${flagged}.jkf`)).header.fairplay).toBe('sente engine-marked');
    expect(await text(`/api/games/${clean}.kifu`)).not.toContain('fairplay');
    expect(await text(`/api/games/${clean}.csa`)).not.toContain('fairplay');
    // the player's streams and the bulk export
    expect((await ndjsonLine(`/api/players/${victim.id}/games.ndjson`, flagged)).engineMarked).toEqual(['sente']);
    expect((await ndjsonLine(`/api/players/${victim.id}/games.ndjson`, clean)).engineMarked).toEqual([]);
    expect(await text(`/api/players/${cheater.id}/games.csa`)).toContain("'fairplay: sente engine-marked");
    expect((await ndjsonLine('/api/games/export', flagged)).engineMarked).toEqual(['sente']);
    const bulkCsa = await text('/api/games/export?format=csa');
    const recordOf = (id: string) => bulkCsa.split('/\n').find((r) => r.includes(`'id:${id}`)) ?? '';
    expect(recordOf(flagged)).toContain("'fairplay: sente engine-marked");
    expect(recordOf(clean)).not.toContain('fairplay');

    // and once unmarked, no note again
    await call(stack.app, 'DELETE', `/api/mod/${cheater.username}/engine`, { reason: 'appeal' }, bearer(mod));
    expect(await text(`/api/games/${flagged}.kifu`)).not.toContain('fairplay');
  }, 60_000);
});
