/**
 * An arranged round-robin (lishogi's Robin) through the public API: three players; each game of
 * the table open from the start; a game played at the time both agreed (a proposal within an
 * hour of the other's agrees to it); refusals of a stranger, a time outside the window, an
 * unknown game; and at the window's end (the director's tick with its clock past the end) the
 * games never played lost by whoever never proposed a time, by both when neither did. The
 * standings are checked against scores recomputed from the games and the forfeits.
 */
import { directTournament } from '@shogi/gateway';
import { createPgTournamentEventStore, endedGames, existingGames } from '@shogi/store';
import { finishesAt, TournamentCommandHandler, type TournamentTerms } from '@shogi/tournament';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, playMove, type Stack, silentLogger, startStack } from './harness.js';

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
interface ArrangementLine {
  readonly id: string;
  readonly round: number;
  readonly sente: { id: string };
  readonly gote: { id: string };
  readonly status: string;
  readonly scheduledAt: number | null;
  readonly gameId?: string;
  readonly winner?: 'sente' | 'gote' | null;
  readonly forfeit?: true;
}

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

const arrangementsOf = async (id: string): Promise<ArrangementLine[]> => {
  const res = await call(stack.app, 'GET', `/api/tournament/${id}/arrangements`);
  expect(res.status).toBe(200);
  return res.body.arrangements;
};

describe('an arranged round-robin through the public API', () => {
  test('games at agreed times, forfeits at the end, standings from the results', async () => {
    const guests: Guest[] = [];
    for (const name of ['ivy', 'jon', 'kim'])
      guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const byId = new Map(guests.map((g) => [g.id, g]));
    const created = await call(
      stack.app,
      'POST',
      '/api/tournament',
      {
        name: 'Arranged robin',
        format: 'robin',
        arranged: true,
        clockTime: 0.25,
        clockIncrement: 0,
        minutes: 60,
        startDate: Date.now() + 1200,
        rated: false,
      },
      bearer((guests[0] as Guest).token),
    );
    expect(created.status).toBe(200);
    const t = created.body;
    expect(t).toMatchObject({ system: 'robin', arranged: true });
    for (const g of guests)
      expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(g.token))).status).toBe(200);
    // before the start there is no table yet, and no time is taken
    expect(await arrangementsOf(t.id)).toEqual([]);
    const early = await call(
      stack.app,
      'POST',
      `/api/tournament/${t.id}/arrangements/1-1`,
      { scheduledAt: Date.now() },
      bearer((guests[0] as Guest).token),
    );
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('TOURNAMENT_NOT_STARTED');

    // three players: three games, every pair once, all open at the start
    const table = await until('the start', async () => {
      const a = await arrangementsOf(t.id);
      return a.length > 0 ? a : null;
    });
    expect(table).toHaveLength(3);
    expect(new Set(table.map((a) => [a.sente.id, a.gote.id].sort().join()))).toHaveProperty('size', 3);
    expect(table.every((a) => a.status === 'open')).toBe(true);
    const [played, half, none] = table as [ArrangementLine, ArrangementLine, ArrangementLine];
    const stranger = guests.find((g) => g.id !== played.sente.id && g.id !== played.gote.id) as Guest;
    const propose = (a: ArrangementLine, g: Guest | undefined, scheduledAt: unknown) =>
      call(stack.app, 'POST', `/api/tournament/${t.id}/arrangements/${a.id}`, { scheduledAt }, bearer(g?.token ?? ''));

    // bad input: a stranger, a time past the window, a time not a number, a game that is not there
    expect((await propose(played, stranger, Date.now())).body.code).toBe('NOT_A_PLAYER');
    const late = await propose(played, byId.get(played.sente.id), Date.now() + 2 * 3600_000);
    expect([late.status, late.body.code]).toEqual([400, 'INVALID_ARRANGEMENT_TIME']);
    expect((await propose(played, byId.get(played.sente.id), 'soon')).status).toBe(400);
    const unknown = await call(
      stack.app,
      'POST',
      `/api/tournament/${t.id}/arrangements/9-9`,
      { scheduledAt: Date.now() },
      bearer((guests[0] as Guest).token),
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, 'ARRANGEMENT_NOT_FOUND']);

    // the first game: sente proposes now, gote a time 20 minutes later: agreed to sente's, paired at once
    const now = Date.now();
    const first = await propose(played, byId.get(played.sente.id), now);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'open', scheduledAt: null, proposals: { sente: now, gote: null } });
    const agreed = await propose(played, byId.get(played.gote.id), now + 20 * 60_000);
    expect(agreed.body.scheduledAt).toBe(now);
    const paired = await until('the agreed game paired', async () => {
      const a = (await arrangementsOf(t.id)).find((x) => x.id === played.id);
      return a?.gameId === undefined ? null : a;
    });
    const gameId = paired.gameId as string;
    await until('the game created', async () =>
      (await call(stack.app, 'GET', `/api/games/${gameId}`)).status === 200 ? true : null,
    );
    const sente = byId.get(played.sente.id) as Guest;
    const gote = byId.get(played.gote.id) as Guest;
    await playMove(stack.app, gameId, sente.token, '7g7f', 0);
    await playMove(stack.app, gameId, gote.token, '3c3d', 1);
    expect((await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(gote.token))).status).toBe(202);
    await until('the game scored', async () =>
      (await arrangementsOf(t.id)).find((x) => x.id === played.id)?.status === 'finished' ? true : null,
    );
    // a game paired takes no more times
    expect((await propose(played, sente, now)).body.code).toBe('CONFLICT');

    // the second: only its gote proposes, for later in the window; the third: nobody
    const later = Date.now() + 30 * 60_000;
    expect((await propose(half, byId.get(half.gote.id), later)).status).toBe(200);

    // the window's end: the director's tick with its clock past it
    const terms = t as { finishesAt: number };
    const afterEnd = new Date(terms.finishesAt + 1000);
    const handler = new TournamentCommandHandler({
      store: createPgTournamentEventStore(stack.db),
      now: () => afterEnd,
    });
    await directTournament(
      {
        handler,
        now: () => afterEnd,
        log: silentLogger(),
        activeIds: async () => [t.id],
        games: {
          ended: (ids) => endedGames(stack.db, ids),
          existing: (ids) => existingGames(stack.db, ids),
          create: async () => undefined,
        },
      },
      t.id,
    );
    const state = await handler.current(t.id);
    expect(finishesAt(state.terms as TournamentTerms).getTime()).toBe(terms.finishesAt);
    const done = await call(stack.app, 'GET', `/api/tournament/${t.id}`);
    expect(done.body.status).toBe(30);
    const end = new Map((await arrangementsOf(t.id)).map((a) => [a.id, a]));
    expect(end.get(played.id)).toMatchObject({ status: 'finished', winner: 'sente', gameId });
    expect(end.get(half.id)).toMatchObject({ status: 'finished', winner: 'gote', forfeit: true });
    expect(end.get(none.id)).toMatchObject({ status: 'finished', winner: null, forfeit: true });
    expect(end.get(half.id)?.gameId).toBeUndefined();

    // standings: a win (played or by forfeit) 2, any loss 0, recomputed from the game and the forfeits
    const game = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
    const points = new Map<string, number>([[game.players[game.result.winner].id, 2]]);
    points.set(half.gote.id, (points.get(half.gote.id) ?? 0) + 2);
    const results = (await stack.app.inject({ method: 'GET', url: `/api/tournament/${t.id}/results` })).body
      .split('\n')
      .filter((l: string) => l !== '')
      .map((l: string) => JSON.parse(l));
    expect(results).toHaveLength(3);
    for (const r of results) expect(r.score).toBe(points.get(r.id) ?? 0);
    const lines = (await stack.app.inject({ method: 'GET', url: `/api/tournament/${t.id}/games` })).body
      .split('\n')
      .filter((l: string) => l !== '')
      .map((l: string) => JSON.parse(l));
    expect(lines.filter((l: { endReason?: string }) => l.endReason === 'forfeit')).toHaveLength(2);
  }, 30_000);
});
