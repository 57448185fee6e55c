/**
 * `GET /api/tournament/:id/games?format=kif|kifu|csa`: the tournament's games as one record
 * file, each record byte for byte the one its game's own download route gives, in the order
 * the NDJSON lists them, joined by the format's separator (CSA `/`, KIF a blank line).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: { tournamentTickMs: 100 } });
});
afterAll(async () => {
  await stack?.close();
});

async function until<T>(probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const get = (url: string) => stack.app.inject({ method: 'GET', url });

describe("a tournament's games as record files", () => {
  test('KIF, KIFU and CSA files hold every game, as the per-game routes write them', async () => {
    const players: { id: string; token: string }[] = [];
    for (const name of ['rei', 'sho', 'tae', 'umi'])
      players.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const host = players[0];
    if (host === undefined) throw new Error('no host');
    const t = (
      await call(
        stack.app,
        'POST',
        '/api/tournament',
        { clockTime: 0.5, clockIncrement: 0, minutes: 5, startDate: Date.now() + 500, rated: false },
        bearer(host.token),
      )
    ).body;
    expect(t.id, JSON.stringify(t)).toBeTypeOf('string');
    for (const p of players)
      expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(p.token))).status).toBe(200);
    // 1. two games paired; one gets two moves and a resignation, so the records differ in length
    const ids = await until(async () => {
      const lines = (await get(`/api/tournament/${t.id}/games`)).body.split('\n').filter((l) => l !== '');
      return lines.length >= 2 ? lines.map((l) => JSON.parse(l).id as string) : null;
    });
    const [firstId] = ids;
    if (firstId === undefined) throw new Error('no game');
    // the pairing is listed a moment before the director has made its game
    const game = await until(async () => {
      const res = await call(stack.app, 'GET', `/api/games/${firstId}`);
      return res.status === 200 ? res.body : null;
    });
    const tokenOf = (id: string) => players.find((p) => p.id === id)?.token ?? '';
    const senteToken = tokenOf(game.players.sente.id);
    const goteToken = tokenOf(game.players.gote.id);
    for (const [ply, usi, token] of [
      [0, '7g7f', senteToken],
      [1, '3c3d', goteToken],
    ] as const) {
      const moved = await call(stack.app, 'POST', `/api/games/${firstId}/moves`, { usi, ply }, bearer(token));
      expect(moved.status).toBe(202);
      await until(async () =>
        (await call(stack.app, 'GET', `/api/games/${firstId}`)).body.ply === ply + 1 ? true : null,
      );
    }
    expect((await call(stack.app, 'POST', `/api/games/${firstId}/resign`, {}, bearer(senteToken))).status).toBe(202);
    await until(async () =>
      (await call(stack.app, 'GET', `/api/games/${firstId}`)).body.status === 'ended' ? true : null,
    );
    // ended by its creator, so no new pairing comes between the list and the files
    expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/terminate`, {}, bearer(host.token))).status).toBe(
      200,
    );
    // the list as it stands now is the order of the files
    const listed = (await get(`/api/tournament/${t.id}/games`)).body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l).id as string);
    // 2. each format: the per-game files joined by the separator, in the listed order
    const cases = [
      { query: 'format=csa', route: 'csa', separator: '/\n', charset: 'utf-8' },
      { query: 'format=csa&version=2.2', route: 'csa?version=2.2', separator: '/\r\n', charset: 'Shift_JIS' },
      { query: 'format=kif', route: 'kif', separator: '\r\n', charset: 'Shift_JIS' },
      { query: 'format=kifu', route: 'kifu', separator: '\n', charset: 'utf-8' },
    ];
    for (const c of cases) {
      const res = await get(`/api/tournament/${t.id}/games?${c.query}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(`text/plain; charset=${c.charset}`);
      expect(res.headers['content-disposition']).toContain(`tournament_${t.id}.`);
      const parts: Buffer[] = [];
      for (const [i, id] of listed.entries()) {
        const one = await get(`/api/games/${id}.${c.route}`);
        expect(one.statusCode).toBe(200);
        if (i > 0) parts.push(Buffer.from(c.separator, 'latin1'));
        parts.push(one.rawPayload);
      }
      expect(res.rawPayload.equals(Buffer.concat(parts))).toBe(true);
    }
    // the CSA file's records: one per game, the resigned one ending in %TORYO
    const csa = (await get(`/api/tournament/${t.id}/games?format=csa`)).body;
    expect(csa.split(/^\/$/m)).toHaveLength(listed.length);
    expect(csa).toContain('%TORYO');
    // 3. the NDJSON stays the default; bad formats and a version without CSA are refused
    expect((await get(`/api/tournament/${t.id}/games`)).headers['content-type']).toMatch(/application\/x-ndjson/);
    expect((await get(`/api/tournament/${t.id}/games?format=ndjson`)).headers['content-type']).toMatch(
      /application\/x-ndjson/,
    );
    expect((await get(`/api/tournament/${t.id}/games?format=pgn`)).statusCode).toBe(400);
    const misplaced = await get(`/api/tournament/${t.id}/games?format=kif&version=2.2`);
    expect(misplaced.statusCode).toBe(400);
    expect(misplaced.json()).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await get('/api/tournament/nosuch/games?format=csa')).statusCode).toBe(404);
  }, 60_000);
});
