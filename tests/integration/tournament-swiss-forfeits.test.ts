/**
 * Forfeits and the organiser's schedule of a Swiss, through the API: a paired player who never
 * moves loses by forfeit when their first-move time runs out (TOURNAMENT_FIRST_MOVE_SECONDS, 1 s
 * here), and is withdrawn at the event's `forfeitsToWithdraw`; the creator's
 * `schedule-next-round` with a later `date` pairs the next round then, and not before. The TRF
 * round trip: `GET /swiss/{id}.trf` exported between the rounds, read by the command line
 * (`npx shogi-pairings --dutch file -p out`), pairs the next round as the server then pairs it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, playMove, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: { tournamentTickMs: 100, tournamentFirstMoveSeconds: 1 } });
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

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
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

describe('a Swiss player who never moves', () => {
  test('loses by forfeit, is withdrawn; the export between rounds pairs as the server; the dated round waits', async () => {
    const guests: Guest[] = [];
    for (const name of ['ffa', 'ffb', 'ffc', 'ffd'])
      guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const [host, , , absent] = guests as [Guest, Guest, Guest, Guest];
    const created = await call(
      stack.app,
      'POST',
      '/api/swiss',
      {
        'clock.limit': 60,
        nbRounds: 3,
        roundInterval: 99_999_999,
        forfeitsToWithdraw: 1,
        startsAt: Date.now() + 2000,
        rated: false,
      },
      bearer(host.token),
    );
    expect(created).toMatchObject({ status: 200, body: { forfeitsToWithdraw: 1 } });
    expect(
      (
        await call(
          stack.app,
          'POST',
          '/api/swiss',
          { 'clock.limit': 60, nbRounds: 3, forfeitsToWithdraw: -1 },
          bearer(host.token),
        )
      ).status,
    ).toBe(400);
    const id = created.body.id as string;
    for (const g of guests)
      expect((await call(stack.app, 'POST', `/api/swiss/${id}/join`, {}, bearer(g.token))).status).toBe(200);

    const round1 = await until('round 1 created', async () => {
      const games = (await gamesOf(id)).filter((g) => g.round === 1);
      if (games.length !== 2) return null;
      for (const g of games) if ((await call(stack.app, 'GET', `/api/games/${g.id}`)).status !== 200) return null;
      return games;
    });
    // the others play; the absent player never moves
    for (const g of round1) {
      const ids = [g.players.sente.id, g.players.gote.id];
      if (ids.includes(absent.id)) {
        if (g.players.gote.id === absent.id) {
          const sente = guests.find((x) => x.id === g.players.sente.id)!;
          await playMove(stack.app, g.id, sente.token, '7g7f', 0);
        }
        continue;
      }
      const sente = guests.find((x) => x.id === g.players.sente.id)!;
      const gote = guests.find((x) => x.id === g.players.gote.id)!;
      await playMove(stack.app, g.id, sente.token, '7g7f', 0);
      await playMove(stack.app, g.id, gote.token, '3c3d', 1);
      expect((await call(stack.app, 'POST', `/api/games/${g.id}/resign`, {}, bearer(gote.token))).status).toBe(202);
    }
    const results = await until('the forfeit scored', async () => {
      const rows = ndjson((await stack.app.inject({ method: 'GET', url: `/api/swiss/${id}/results` })).body);
      return (await gamesOf(id)).every((g) => g.status === 'finished') && rows.some((r) => r.absent) ? rows : null;
    });
    expect(results.find((r) => r.id === absent.id)).toMatchObject({ points: 0, absent: true });
    const trf = (await stack.app.inject({ method: 'GET', url: `/swiss/${id}.trf` })).body;
    const line = trf.split('\n').find((l: string) => l.includes('ffd'));
    // round 1 a forfeit loss, round 2 not to be paired (withdrawn)
    expect(line).toMatch(/ [wb] - {2}0000 - Z$/);
    // the command line pairs the exported file
    const dir = mkdtempSync(join(tmpdir(), 'swiss-roundtrip-'));
    writeFileSync(join(dir, 'mid.trf'), trf);
    execFileSync('npx', ['shogi-pairings', '--dutch', join(dir, 'mid.trf'), '-p', join(dir, 'out.txt')]);
    const [count, ...pairs] = readFileSync(join(dir, 'out.txt'), 'utf8').trim().split('\n');
    const numbers = trf
      .split('\n')
      .filter((l: string) => l.startsWith('001'))
      .map((l: string) => guests.find((g) => g.name === l.slice(14, 47).trim())!.id);
    const cli = pairs.map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
    expect(Number(count)).toBe(2);

    // the organiser's round, a little later: not before
    const date = Date.now() + 1500;
    expect(
      (
        await call(
          stack.app,
          'POST',
          `/api/swiss/${id}/schedule-next-round`,
          { date: guests[1]!.id },
          bearer(host.token),
        )
      ).status,
    ).toBe(400);
    expect(
      (await call(stack.app, 'POST', `/api/swiss/${id}/schedule-next-round`, { date }, bearer(guests[1]!.token)))
        .status,
    ).toBe(403);
    expect(
      (await call(stack.app, 'POST', `/api/swiss/${id}/schedule-next-round`, { date }, bearer(host.token))).status,
    ).toBe(200);
    const view = (await call(stack.app, 'GET', `/api/swiss/${id}`)).body;
    expect(view).toMatchObject({ round: 1, roundInterval: null, nextRound: { at: new Date(date).toISOString() } });
    await sleep(500);
    expect((await gamesOf(id)).filter((g) => g.round === 2)).toHaveLength(0);
    const round2 = await until('round 2', async () => {
      const games = (await gamesOf(id)).filter((g) => g.round === 2);
      return games.length > 0 ? games : null;
    });
    expect(Date.now()).toBeGreaterThanOrEqual(date);
    expect(round2).toHaveLength(1);
    expect(round2.flatMap((g) => [g.players.sente.id, g.players.gote.id])).not.toContain(absent.id);
    // the server's round is the command line's: the same game, the same colours, the bye
    const [game] = cli.filter(([, black]) => black !== 0);
    expect([numbers[game![0] - 1], numbers[game![1] - 1]]).toEqual([
      round2[0]!.players.sente.id,
      round2[0]!.players.gote.id,
    ]);
    const [bye] = cli.filter(([, black]) => black === 0);
    const byeId = numbers[bye![0] - 1]!;
    expect([absent.id, round2[0]!.players.sente.id, round2[0]!.players.gote.id]).not.toContain(byeId);
    expect((await call(stack.app, 'POST', `/api/swiss/${id}/terminate`, {}, bearer(host.token))).status).toBe(200);
  }, 40_000);
});
