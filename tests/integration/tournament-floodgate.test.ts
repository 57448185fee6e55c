/**
 * Floodgate rounds as a tournament (`floodgate`): players log in over CSA with a `floodgate-`
 * game name, are paired at the round and agree; their games are recorded in the day's
 * tournament of that game name, which `GET /api/tournament` and `GET /api/tournament/:id` show
 * with its pairings (the round's number), results and standings, checked against the games'
 * own results. It is entered over CSA only: the join route and the create route refuse it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient, type Summary } from './csa-client.js';
import { bearer, type CsaStack, call, startCsaStack } from './harness.js';

const ROUND_MS = 2000;
const GAME_NAME = 'floodgate-60-0';
let stack: CsaStack;

beforeAll(async () => {
  stack = await startCsaStack({
    csaFloodgateIntervalMs: 3_600_000,
    csaFloodgateSchedule: { [GAME_NAME]: ROUND_MS },
    tournamentTickMs: 100,
  });
});

afterAll(async () => {
  await stack?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
const ndjson = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

/** Four players through one round: two games, each agreed and started. */
async function round(names: readonly string[]) {
  await sleep(ROUND_MS - (Date.now() % ROUND_MS) + 150);
  const clients = await Promise.all(
    names.map(async (name) => {
      const client = await CsaClient.open(stack.csaPort);
      expect(await client.login(name, GAME_NAME)).toBe(`LOGIN:${name} OK`);
      return client;
    }),
  );
  const summaries = await Promise.all(clients.map((c) => c.summary(ROUND_MS + 5000)));
  await Promise.all(clients.map((c, i) => c.agree((summaries[i] as Summary).gameId)));
  return { clients, summaries };
}

describe('Floodgate rounds as a tournament', () => {
  test('the round’s games, results and standings appear through the tournament API', async () => {
    const { clients, summaries } = await round(['fgA', 'fgB', 'fgC', 'fgD']);
    const gameIds = [...new Set(summaries.map((s) => s.gameId))];
    expect(gameIds).toHaveLength(2);

    // the day's tournament of the game name, started, with both games paired in one round
    const listed = await until('the tournament listed', async () => {
      const { started } = (await call(stack.app, 'GET', '/api/tournament')).body;
      return started.find((t: { system: string }) => t.system === 'floodgate') ?? null;
    });
    expect(listed).toMatchObject({ fullName: GAME_NAME, createdBy: 'Floodgate', isStarted: true, nbPlayers: 4 });
    const id = listed.id as string;
    const lines = await until('both games paired', async () => {
      const got = ndjson((await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/games` })).body);
      return got.length === 2 ? got : null;
    });
    expect(lines.map((l: { id: string }) => l.id).sort()).toEqual([...gameIds].sort());
    expect(new Set(lines.map((l: { round: number }) => l.round)).size).toBe(1);
    expect(lines.every((l: { status: string }) => l.status === 'playing')).toBe(true);

    // sente resigns the first game, gote the second
    const bySummary = clients.map((c, i) => ({ c, s: summaries[i] as Summary }));
    const resignBy = (gameId: string, turn: '+' | '-') => {
      const who = bySummary.find((x) => x.s.gameId === gameId && x.s.yourTurn === turn);
      if (who === undefined) throw new Error('no such player');
      return who.c;
    };
    const [g1, g2] = gameIds as [string, string];
    resignBy(g1, '+').send('%TORYO');
    // gote of the second game resigns after sente's first move
    resignBy(g2, '+').send('+7776FU');
    await until('the move played', async () =>
      (await call(stack.app, 'GET', `/api/games/${g2}`)).body.ply === 1 ? true : null,
    );
    resignBy(g2, '-').send('%TORYO');

    // scored by the director; the standings match the games' own results
    await until('both games scored', async () => {
      const got = ndjson((await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/games` })).body);
      return got.every((l: { status: string }) => l.status === 'finished') ? got : null;
    });
    const points = new Map<string, number>();
    for (const gameId of gameIds) {
      const game = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
      expect(game.tournamentId).toBe(id);
      points.set(game.players[game.result.winner].id, 2);
    }
    const results = ndjson((await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/results` })).body);
    expect(results).toHaveLength(4);
    for (const r of results) expect(r.score).toBe(points.get(r.id) ?? 0);
    const page = (await call(stack.app, 'GET', `/api/tournament/${id}`)).body;
    expect(page.standing.players.map((p: { score: number }) => p.score)).toEqual([2, 2, 0, 0]);
    for (const c of clients) c.close();

    // entered over CSA only
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'fgweb' })).body;
    const join = await call(stack.app, 'POST', `/api/tournament/${id}/join`, {}, bearer(guest.token));
    expect([join.status, join.body.code]).toEqual([409, 'JOIN_OVER_CSA']);
    const make = await call(stack.app, 'POST', '/api/tournament', { format: 'floodgate' }, bearer(guest.token));
    expect([make.status, make.body.code]).toEqual([400, 'BAD_REQUEST']);
  }, 30_000);
});
