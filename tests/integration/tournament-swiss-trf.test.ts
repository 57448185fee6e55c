/**
 * An organiser continues a Swiss paired elsewhere: `POST /api/swiss/{id}/trf` with another
 * program's TRF (two rounds played, a bye requested for the third), the players named by their
 * names here; the server pairs the third round exactly as `npx shogi-pairings --dutch file -p`
 * pairs the same file, and its own export keeps the file's numbering and cells. A bad file is
 * refused with the reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTrf, type Match } from '@shogi/swiss';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: { tournamentTickMs: 100 } });
});
afterAll(async () => {
  await stack?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ndjson = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const game = (opponent: number, color: 'w' | 'b', score: Match['score']): Match => ({
  opponent,
  color,
  score,
  played: true,
  participated: true,
});
const bye = (id: number): Match => ({ opponent: id, color: null, score: 'win', played: false, participated: true });
const halfBye = (id: number): Match => ({
  opponent: id,
  color: null,
  score: 'draw',
  played: false,
  participated: false,
});

/** Five players, two rounds played elsewhere (a bye each), player 3 asking a half-point bye in round 3. */
function elsewhere(names: readonly string[]): string {
  const rows: Match[][] = [
    [game(2, 'w', 'win'), game(1, 'b', 'loss')],
    [game(3, 'b', 'draw'), game(0, 'w', 'win')],
    [game(0, 'b', 'loss'), game(4, 'w', 'loss'), halfBye(2)],
    [game(1, 'w', 'draw'), bye(3)],
    [bye(4), game(2, 'b', 'win')],
  ];
  const points = [10, 15, 0, 15, 20];
  return formatTrf({
    name: 'Club Swiss',
    expectedRounds: 4,
    initialColor: 'w',
    players: names.map((name, id) => ({
      id,
      name,
      rating: 2000 - id * 100,
      points: points[id]!,
      rank: id + 1,
      matches: rows[id]!,
    })),
  });
}

describe('a Swiss continued from a TRF', () => {
  test('imported, then its next round paired as the command line pairs the file', async () => {
    const names = ['trf_ann', 'trf_ben', 'trf_cat', 'trf_dan', 'trf_eve'];
    const guests: { id: string; name: string; token: string }[] = [];
    for (const name of names) guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const host = guests[0]!;
    const created = await call(
      stack.app,
      'POST',
      '/api/swiss',
      { 'clock.limit': 60, nbRounds: 4, roundInterval: 0, startsAt: Date.now() + 3000, rated: false },
      bearer(host.token),
    );
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const text = elsewhere(names);
    const post = (body: string, token = host.token) =>
      stack.app.inject({
        method: 'POST',
        url: `/api/swiss/${id}/trf`,
        headers: { ...bearer(token), 'content-type': 'text/plain' },
        payload: body,
      });

    // refused, with the reason
    const garbage = await post('001 nonsense');
    expect(garbage.statusCode).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ code: 'INVALID_TRF', detail: expect.stringMatching(/too short/) });
    const stranger = await post(elsewhere([...names.slice(0, 4), 'nobody_here']));
    expect(JSON.parse(stranger.body)).toMatchObject({
      code: 'INVALID_TRF',
      detail: 'player 5: no player here is named "nobody_here"',
    });
    expect((await post(text.replace('XXR 4', 'XXR 6'))).statusCode).toBe(400);
    expect((await post(text, guests[1]!.token)).statusCode).toBe(403);

    const imported = await post(text);
    expect(imported.statusCode).toBe(200);
    expect(JSON.parse(imported.body)).toMatchObject({ round: 2, nbRounds: 4, nbPlayers: 5 });
    expect(JSON.parse((await post(text)).body)).toMatchObject({ code: 'CONFLICT' });

    // before the start, the export keeps the file's numbering and the bye requested for the next round
    const trf = (await stack.app.inject({ method: 'GET', url: `/swiss/${id}.trf` })).body;
    const order = trf
      .split('\n')
      .filter((l) => l.startsWith('001'))
      .map((l) => l.slice(14, 47).trim());
    expect(order).toEqual(names);
    expect(trf).toMatch(/trf_cat.*0000 - H/);
    // the standings count the imported rounds
    const standings = ndjson((await stack.app.inject({ method: 'GET', url: `/api/swiss/${id}/results` })).body);
    expect(standings[0]).toMatchObject({ rank: 1, username: 'trf_eve', points: 2 });

    // the command line's pairing of the same file
    const dir = mkdtempSync(join(tmpdir(), 'swiss-trf-'));
    const file = join(dir, 'club.trf');
    writeFileSync(file, text);
    const cli = execFileSync('npx', ['shogi-pairings', '--dutch', file, '-p'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
      .sort((a, b) => a[0] - b[0]);

    const number = new Map(guests.map((g, i) => [g.id, i + 1]));
    const round3 = await until('round 3', async () => {
      const games = ndjson((await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/games` })).body).filter(
        (g: { round?: number }) => g.round === 3,
      );
      return games.length > 0 ? games : null;
    });
    const server = round3
      .map((g: { players: { sente: { id: string }; gote: { id: string } } }): [number, number] => [
        number.get(g.players.sente.id) ?? 0,
        number.get(g.players.gote.id) ?? 0,
      ])
      .sort((a: [number, number], b: [number, number]) => a[0] - b[0]);
    expect(server).toEqual(cli);
    // player 3 asked for the half-point bye: not paired
    expect(server.flat()).not.toContain(3);

    expect((await call(stack.app, 'POST', `/api/swiss/${id}/terminate`, {}, bearer(host.token))).status).toBe(200);
  }, 40_000);
});
