/**
 * A whole Swiss through the public API with scripted players: created with lichess's
 * parameters, five players (a bye each round), a sixth joining after round 1, one withdrawing
 * after round 2; the director pairs each round on the schedule, the games are played to
 * results; the event's TRF (`/swiss/{id}.trf`), read back by `npx shogi-pairings --dutch file -c`,
 * pairs every round again exactly as the server did.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, playMove, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: { tournamentTickMs: 100 } });
});
afterAll(async () => {
  await stack?.close();
});

interface Guest {
  readonly id: string;
  readonly name: string;
  readonly token: string;
}
interface GameLine {
  readonly id: string;
  readonly round?: number;
  readonly players: { sente: { id: string }; gote: { id: string } };
  readonly status: 'playing' | 'finished';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ndjson = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const gamesOf = async (id: string): Promise<GameLine[]> =>
  ndjson((await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/games` })).body);

describe('a Swiss through the public API', () => {
  test('a bye, a late join, a withdrawal: the TRF replays every round the server paired', async () => {
    const guests: Guest[] = [];
    for (const name of ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'])
      guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const players = new Map(guests.map((g) => [g.id, g]));
    const host = guests[0] as Guest;
    const form = new URLSearchParams({
      name: 'Scripted Swiss',
      'clock.limit': '60',
      'clock.increment': '0',
      nbRounds: '4',
      roundInterval: '0',
      startsAt: String(Date.now() + 1500),
      rated: 'false',
    });
    const created = await stack.app.inject({
      method: 'POST',
      url: '/api/swiss',
      headers: { ...bearer(host.token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(created.statusCode).toBe(200);
    const swiss = JSON.parse(created.body);
    expect(swiss).toMatchObject({ status: 10, nbRounds: 4, round: 0, roundInterval: 0, clock: { limit: 60 } });
    const bad = await call(stack.app, 'POST', '/api/swiss', { 'clock.limit': 60, nbRounds: 2 }, bearer(host.token));
    expect(bad).toMatchObject({ status: 400 });

    for (const g of guests.slice(0, 5))
      expect((await call(stack.app, 'POST', `/api/swiss/${swiss.id}/join`, {}, bearer(g.token))).status).toBe(200);

    const seen = new Set<string>();
    const playRound = async (round: number) => {
      const fresh = await until(`round ${round}`, async () => {
        const games = (await gamesOf(swiss.id)).filter((g) => g.round === round);
        return games.length > 0 && games.every((g) => g.status === 'playing') ? games : null;
      });
      for (const g of fresh) {
        seen.add(g.id);
        await until(`game ${g.id}`, async () =>
          (await call(stack.app, 'GET', `/api/games/${g.id}`)).status === 200 ? true : null,
        );
        const sente = players.get(g.players.sente.id) as Guest;
        const gote = players.get(g.players.gote.id) as Guest;
        await playMove(stack.app, g.id, sente.token, '7g7f', 0);
        await playMove(stack.app, g.id, gote.token, '3c3d', 1);
        // the earlier joiner wins: results that separate the scores
        const loser = guests.indexOf(sente) < guests.indexOf(gote) ? gote : sente;
        expect((await call(stack.app, 'POST', `/api/games/${g.id}/resign`, {}, bearer(loser.token))).status).toBe(202);
      }
      await until(`round ${round} scored`, async () => {
        const lines = await gamesOf(swiss.id);
        return fresh.every((f) => lines.find((l) => l.id === f.id)?.status === 'finished') ? true : null;
      });
      return fresh;
    };

    const r1 = await playRound(1);
    expect(r1).toHaveLength(2);
    const fay = guests[5] as Guest;
    expect((await call(stack.app, 'POST', `/api/swiss/${swiss.id}/join`, {}, bearer(fay.token))).status).toBe(200);
    const r2 = await playRound(2);
    expect(r2.flatMap((g) => [g.players.sente.id, g.players.gote.id])).toContain(fay.id);
    const leaver = guests[2] as Guest;
    expect((await call(stack.app, 'POST', `/api/swiss/${swiss.id}/withdraw`, {}, bearer(leaver.token))).status).toBe(
      200,
    );
    const r3 = await playRound(3);
    expect(r3.flatMap((g) => [g.players.sente.id, g.players.gote.id])).not.toContain(leaver.id);
    await playRound(4);
    await until('the Swiss finished', async () =>
      (await call(stack.app, 'GET', `/api/swiss/${swiss.id}`)).body.status === 30 ? true : null,
    );

    const results = ndjson((await stack.app.inject({ method: 'GET', url: `/api/swiss/${swiss.id}/results` })).body);
    expect(results).toHaveLength(6);
    expect(results[0]).toMatchObject({ rank: 1, username: 'ann' });
    for (const r of results) expect(r.tieBreaks).toHaveProperty('buchholz');

    const trf = await stack.app.inject({ method: 'GET', url: `/swiss/${swiss.id}.trf` });
    expect(trf.statusCode).toBe(200);
    expect(trf.body).toMatch(/0000 - U/);
    const dir = mkdtempSync(join(tmpdir(), 'swiss-api-'));
    const file = join(dir, 'event.trf');
    writeFileSync(file, trf.body);
    const out = execFileSync('npx', ['shogi-pairings', '--dutch', file, '-c'], { encoding: 'utf8' });
    expect(out).toBe('4 of 4 rounds match.\n');
    expect((await stack.app.inject({ method: 'GET', url: '/swiss/nosuch.trf' })).statusCode).toBe(404);
  }, 120_000);

  test('with roundInterval 99999999 the creator pairs each round after the first', async () => {
    const guests: Guest[] = [];
    for (const name of ['gus', 'hal', 'ida', 'jon'])
      guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const [host, other] = guests as [Guest, Guest];
    const created = await call(
      stack.app,
      'POST',
      '/api/swiss',
      { 'clock.limit': 60, nbRounds: 3, roundInterval: 99_999_999, startsAt: Date.now() + 1000, rated: false },
      bearer(host.token),
    );
    expect(created).toMatchObject({ status: 200, body: { roundInterval: null } });
    const id = created.body.id as string;
    for (const g of guests)
      expect((await call(stack.app, 'POST', `/api/swiss/${id}/join`, {}, bearer(g.token))).status).toBe(200);
    const round1 = await until('round 1', async () => {
      const games = (await gamesOf(id)).filter((g) => g.round === 1);
      return games.length === 2 ? games : null;
    });
    // a round still played: nothing to schedule yet
    expect((await call(stack.app, 'POST', `/api/swiss/${id}/schedule-next-round`, {}, bearer(host.token))).status).toBe(
      409,
    );
    for (const g of round1) {
      await until(`game ${g.id}`, async () =>
        (await call(stack.app, 'GET', `/api/games/${g.id}`)).status === 200 ? true : null,
      );
      const sente = guests.find((x) => x.id === g.players.sente.id) as Guest;
      expect((await call(stack.app, 'POST', `/api/games/${g.id}/resign`, {}, bearer(sente.token))).status).toBe(202);
    }
    await until('round 1 scored', async () =>
      (await gamesOf(id)).every((g) => g.status === 'finished') ? true : null,
    );
    await sleep(300);
    // no schedule: the director leaves round 2 to the creator
    expect((await gamesOf(id)).filter((g) => g.round === 2)).toHaveLength(0);
    expect((await call(stack.app, 'GET', `/api/swiss/${id}`)).body).toMatchObject({ round: 1, status: 20 });
    expect(
      await call(stack.app, 'POST', `/api/swiss/${id}/schedule-next-round`, {}, bearer(other.token)),
    ).toMatchObject({ status: 403, body: { code: 'NOT_TOURNAMENT_CREATOR' } });
    expect((await call(stack.app, 'POST', `/api/swiss/${id}/schedule-next-round`, {}, bearer(host.token))).status).toBe(
      200,
    );
    await until('round 2 created', async () => {
      const games = (await gamesOf(id)).filter((g) => g.round === 2);
      if (games.length !== 2) return null;
      for (const g of games) if ((await call(stack.app, 'GET', `/api/games/${g.id}`)).status !== 200) return null;
      return true;
    });
    expect((await call(stack.app, 'POST', `/api/swiss/${id}/terminate`, {}, bearer(host.token))).status).toBe(200);
  }, 60_000);
});
