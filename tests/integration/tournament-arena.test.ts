/**
 * A whole arena through the public API with scripted players: created with lichess's
 * parameters, joined, started and paired by the director, played to decisive results, a
 * long draw and a quick draw, a withdrawal and a rejoin after lishogi's pause, terminated by
 * its creator; the standings it shows are checked against scores recomputed from the games
 * alone (each game's own result and length, read from the game routes).
 */
import { type SheetGame, sheetOf } from '@shogi/tournament';
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
  readonly players: { sente: { id: string }; gote: { id: string } };
  readonly status: 'playing' | 'finished';
  readonly winner?: 'sente' | 'gote' | null;
  readonly plies?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ndjson = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

async function gamesOf(id: string): Promise<GameLine[]> {
  const res = await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/games` });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
  return ndjson(res.body);
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// a 20-ply sennichite: eight opening moves, then both kings step out and back three times
const OPENING = ['7g7f', '3c3d', '2g2f', '8c8d', '2f2e', '8d8e', '6i7h', '4a3b'];
const SHUFFLE = ['5i4h', '5a4b', '4h5i', '4b5a'];
const LONG_DRAW = [...OPENING, ...SHUFFLE, ...SHUFFLE, ...SHUFFLE];
// the same from the start: the fourth repetition at ply 12, a quick draw
const QUICK_DRAW = [...SHUFFLE, ...SHUFFLE, ...SHUFFLE];

type Plan = 'sente' | 'gote' | 'long_draw' | 'quick_draw';

async function play(game: GameLine, players: Map<string, Guest>, plan: Plan) {
  const sente = players.get(game.players.sente.id) as Guest;
  const gote = players.get(game.players.gote.id) as Guest;
  // the wave is recorded before its games are created: wait for the game
  await until(`game ${game.id}`, async () =>
    (await call(stack.app, 'GET', `/api/games/${game.id}`)).status === 200 ? true : null,
  );
  const moves = plan === 'long_draw' ? LONG_DRAW : plan === 'quick_draw' ? QUICK_DRAW : ['7g7f', '3c3d'];
  for (const [ply, usi] of moves.entries())
    await playMove(stack.app, game.id, (ply % 2 === 0 ? sente : gote).token, usi, ply);
  if (plan === 'sente' || plan === 'gote') {
    const loser = plan === 'sente' ? gote : sente;
    expect((await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, bearer(loser.token))).status).toBe(202);
  }
}

describe('an arena through the public API', () => {
  test('pairs, scores and ranks as recomputed from its games', async () => {
    // 1. four guests; the first creates an arena of 15-second games starting in a moment
    const guests: Guest[] = [];
    for (const name of ['ann', 'ben', 'cat', 'dan'])
      guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const players = new Map(guests.map((g) => [g.id, g]));
    const host = guests[0] as Guest;
    const form = new URLSearchParams({
      name: 'Scripted arena',
      clockTime: '0.25',
      clockIncrement: '0',
      minutes: '2',
      startDate: String(Date.now() + 1500),
      rated: 'false',
    });
    const created = await stack.app.inject({
      method: 'POST',
      url: '/api/tournament',
      headers: { ...bearer(host.token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(created.statusCode).toBe(200);
    const t = JSON.parse(created.body);
    expect(t).toMatchObject({
      system: 'arena',
      status: 10,
      minutes: 2,
      clock: { limit: 15, increment: 0 },
      nbPlayers: 0,
    });
    expect((await call(stack.app, 'GET', '/api/tournament')).body.created.map((x: { id: string }) => x.id)).toContain(
      t.id,
    );

    // 2. everyone joins; joining twice is refused
    for (const g of guests)
      expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(g.token))).status).toBe(200);
    const twice = await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(host.token));
    expect(twice).toMatchObject({ status: 409, body: { code: 'ALREADY_JOINED' } });

    // 3. round one: the director starts it and pairs both games; the lower-joined player wins
    const index = (id: string) => guests.findIndex((g) => g.id === id);
    const playRound = async (planOf: (g: GameLine) => Plan, seen: Set<string>, beforePlay?: () => Promise<void>) => {
      const fresh = await until('a wave', async () => {
        const games = (await gamesOf(t.id)).filter((g) => g.status === 'playing' && !seen.has(g.id));
        return games.length > 0 ? games : null;
      });
      for (const g of fresh) seen.add(g.id);
      await beforePlay?.();
      await Promise.all(fresh.map((g) => play(g, players, planOf(g))));
      await until('the wave scored', async () => {
        const lines = await gamesOf(t.id);
        return fresh.every((f) => lines.find((l) => l.id === f.id)?.status === 'finished') ? true : null;
      });
      return fresh;
    };
    const lowerWins = (g: GameLine): Plan => (index(g.players.sente.id) < index(g.players.gote.id) ? 'sente' : 'gote');
    const seen = new Set<string>();
    const first = await playRound(lowerWins, seen);
    expect(first).toHaveLength(2);

    // a tournament game has no abort and no rematch
    const one = first[0] as GameLine;
    const abort = await call(
      stack.app,
      'POST',
      `/api/games/${one.id}/abort`,
      {},
      bearer((players.get(one.players.sente.id) as Guest).token),
    );
    expect(abort.body.code).toMatch(/ABORT_NOT_ALLOWED|GAME_OVER/);
    const rematch = await call(
      stack.app,
      'POST',
      `/api/games/${one.id}/rematch`,
      {},
      bearer((players.get(one.players.sente.id) as Guest).token),
    );
    expect(rematch).toMatchObject({ status: 409, body: { code: 'NO_REMATCH_IN_TOURNAMENT' } });

    // 4. round two: ann's game is ann's again, the other a long draw; never the opponent just played.
    // 5. during it, dan withdraws (paused, kept in the standings, his game still counts) and may
    //    not rejoin before lishogi's 10 s
    const dan = guests[3] as Guest;
    const withdraw = async () => {
      expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/withdraw`, {}, bearer(dan.token))).status).toBe(
        200,
      );
      const early = await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(dan.token));
      expect(early).toMatchObject({ status: 409, body: { code: 'TOURNAMENT_PAUSED' } });
      const standing = (await call(stack.app, 'GET', `/api/tournament/${t.id}`)).body.standing.players;
      expect(standing.find((p: { id: string }) => p.id === dan.id)).toMatchObject({ withdraw: true });
    };
    const second = await playRound(
      (g) => (index(g.players.sente.id) === 0 || index(g.players.gote.id) === 0 ? lowerWins(g) : 'long_draw'),
      seen,
      withdraw,
    );
    for (const g of second)
      for (const f of first)
        expect([g.players.sente.id, g.players.gote.id].sort()).not.toEqual(
          [f.players.sente.id, f.players.gote.id].sort(),
        );

    // 6. round three without dan: three wait, one sits out; ann's games are ann's, others quick draws
    const third = await playRound(
      (g) => (index(g.players.sente.id) === 0 || index(g.players.gote.id) === 0 ? lowerWins(g) : 'quick_draw'),
      seen,
    );
    for (const g of third) expect([g.players.sente.id, g.players.gote.id]).not.toContain(dan.id);

    // 7. dan rejoins after the delay and is paired again
    await sleep(10_500);
    expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(dan.token))).status).toBe(200);
    const fourth = await playRound(
      (g) => (index(g.players.sente.id) === 0 || index(g.players.gote.id) === 0 ? lowerWins(g) : 'quick_draw'),
      seen,
    );
    expect(fourth.length).toBeGreaterThanOrEqual(1);

    // 8. the creator terminates it; nobody else may
    const refused = await call(stack.app, 'POST', `/api/tournament/${t.id}/terminate`, {}, bearer(dan.token));
    expect(refused).toMatchObject({ status: 403, body: { code: 'NOT_TOURNAMENT_CREATOR' } });
    expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/terminate`, {}, bearer(host.token))).status).toBe(
      200,
    );
    const done = (await call(stack.app, 'GET', `/api/tournament/${t.id}`)).body;
    expect(done).toMatchObject({ status: 30, isFinished: true });
    expect(done.podium).toHaveLength(3);

    // 9. the scores recomputed from the games alone: each game's result and plies, in the order played
    const sheets = new Map<string, SheetGame[]>(guests.map((g) => [g.id, []]));
    for (const line of await gamesOf(t.id)) {
      const game = (await call(stack.app, 'GET', `/api/games/${line.id}`)).body;
      if (game.status !== 'ended') continue;
      for (const side of ['sente', 'gote'] as const) {
        const winner = game.result.winner;
        const result = winner === null ? 'draw' : winner === side ? 'win' : 'loss';
        sheets.get(game.players[side].id)?.push({ result, plies: game.ply, berserk: false });
      }
    }
    const expected = guests.map((g) => ({
      id: g.id,
      score: sheetOf(sheets.get(g.id) ?? [], { streakable: true, berserkable: true, drawRules: true }).total,
    }));
    const results = ndjson((await stack.app.inject({ method: 'GET', url: `/api/tournament/${t.id}/results` })).body);
    expect(
      results
        .map((r: { id: string; score: number }) => ({ id: r.id, score: r.score }))
        .sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)),
    ).toEqual(expected.sort((a, b) => a.id.localeCompare(b.id)));
    // ranks follow the scores; ann won every game she played: 2, 2, then 4 each on fire
    const scores = results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const annGames = (sheets.get(host.id) ?? []).length;
    expect(annGames).toBeGreaterThanOrEqual(3);
    expect(results[0]).toMatchObject({
      rank: 1,
      username: 'ann',
      score: 4 + 4 * (annGames - 2),
      sheet: { scores: `${'4'.repeat(annGames - 2)}22`, fire: true },
    });
    // the long draw scored 1 to each, the quick draws 0
    const longDrawn = second.find((g) => index(g.players.sente.id) !== 0 && index(g.players.gote.id) !== 0);
    if (longDrawn)
      expect((await call(stack.app, 'GET', `/api/games/${longDrawn.id}`)).body.result).toMatchObject({
        winner: null,
        reason: 'sennichite',
      });
  }, 90_000);
});

describe('a round-robin through the public API', () => {
  test('everyone meets everyone once, round by round, and it finishes when the table is played', async () => {
    const guests: Guest[] = [];
    for (const name of ['eve', 'fay', 'gus'])
      guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const players = new Map(guests.map((g) => [g.id, g]));
    const created = await call(
      stack.app,
      'POST',
      '/api/tournament',
      {
        name: 'Scripted robin',
        format: 'robin',
        clockTime: 0.25,
        clockIncrement: 0,
        minutes: 10,
        startDate: Date.now() + 1500,
        rated: false,
      },
      bearer((guests[0] as Guest).token),
    );
    expect(created.status).toBe(200);
    const t = created.body;
    expect(t).toMatchObject({ system: 'robin', berserkable: false, streakable: false });
    for (const g of guests)
      expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(g.token))).status).toBe(200);
    // three players: three rounds of one game, each player sitting one out; sente always wins
    const seen = new Set<string>();
    const met: string[] = [];
    for (let round = 1; round <= 3; round++) {
      const [game] = await until(`round ${round}`, async () => {
        const games = (await gamesOf(t.id)).filter((g) => !seen.has(g.id));
        return games.length > 0 ? games : null;
      });
      if (game === undefined) throw new Error('no game');
      seen.add(game.id);
      expect((game as GameLine & { round: number }).round).toBe(round);
      met.push([game.players.sente.id, game.players.gote.id].sort().join(' '));
      await play(game, players, 'sente');
      await until('the game scored', async () =>
        (await gamesOf(t.id)).find((l) => l.id === game.id)?.status === 'finished' ? true : null,
      );
    }
    expect(new Set(met).size).toBe(3);
    const done = await until('the robin finished', async () => {
      const body = (await call(stack.app, 'GET', `/api/tournament/${t.id}`)).body;
      return body.status === 30 ? body : null;
    });
    expect(done.podium).toHaveLength(3);
    // win 2, loss 0: recomputed from the games
    const wins = new Map<string, number>();
    for (const line of await gamesOf(t.id)) {
      const game = (await call(stack.app, 'GET', `/api/games/${line.id}`)).body;
      const winner = game.players[game.result.winner].id as string;
      wins.set(winner, (wins.get(winner) ?? 0) + 1);
    }
    const results = ndjson((await stack.app.inject({ method: 'GET', url: `/api/tournament/${t.id}/results` })).body);
    for (const r of results) expect(r.score).toBe(2 * (wins.get(r.id) ?? 0));
  }, 60_000);
});
