/**
 * Tournament streams on PostgreSQL: appended at an expected version with their projections in
 * one transaction; two command handlers (two gateways) pairing at once make one wave, and a
 * handler started afresh (a restart) reads the stream back to the same state; the projections
 * rebuilt from the streams equal the live ones.
 */
import {
  createPgTournamentEventStore,
  rebuildTournaments,
  standingRank,
  standingRows,
  type TournamentRows,
  tournamentRowsOf,
} from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import {
  arenaPairer,
  type Entrant,
  foldTournament,
  initialTournamentState,
  standingsOf,
  TournamentCommandHandler,
  type TournamentEvent,
  type TournamentTerms,
} from '@shogi/tournament';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

const T0 = new Date(Date.now() + 60_000);
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const TERMS: TournamentTerms = {
  name: 'Store arena',
  format: 'arena',
  clock: { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 },
  minutes: 60,
  startsAt: T0.toISOString(),
  rated: true,
  position: null,
  berserkable: true,
  streakable: true,
  hasChat: true,
  description: null,
  passwordHash: null,
  conditions: {},
  botsAllowed: false,
  maxPlayers: 300,
  robinCycles: 1,
};
const entrant = (id: string, rating: number): Entrant => ({ id, name: id, rating, bot: false });

async function tableRows(id: string) {
  const tournament = await t.db.selectFrom('tournaments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const players = await standingRows(t.db, id, 0, 1000);
  const pairings = await t.db
    .selectFrom('tournament_pairings')
    .selectAll()
    .where('tournament_id', '=', id)
    .orderBy('game_id')
    .execute();
  return { tournament, players, pairings };
}

describe('tournament streams on PostgreSQL', () => {
  test('an arena played through two handlers: one wave per race, standings projected, rebuilt alike', async () => {
    let clock = new Date(Date.now());
    const now = () => clock;
    const store = createPgTournamentEventStore(t.db);
    const a = new TournamentCommandHandler({ store, now });
    const b = new TournamentCommandHandler({ store, now });
    // 1. created, eight players join, started
    await a.handle('ts1', {
      type: 'CreateTournament',
      tournamentId: 'ts1',
      createdBy: { id: 'host', name: 'host' },
      terms: TERMS,
    });
    for (let i = 0; i < 8; i++)
      await (i % 2 === 0 ? a : b).handle('ts1', {
        type: 'JoinTournament',
        player: entrant(`p${i}`, 1400 + 50 * i),
        passwordHash: null,
        ratedGames: 10,
      });
    clock = T0;
    expect((await b.handle('ts1', { type: 'StartTournament' })).kind).toBe('appended');
    // 2. both handlers pair the same wave at once: one is appended, the other refused on the state after it
    clock = at(20);
    const wave = async (h: TournamentCommandHandler, prefix: string) => {
      const state = await h.current('ts1');
      const pairings = arenaPairer.pair({ state, now: clock }).map((p, i) => ({ gameId: `${prefix}${i}`, ...p }));
      return h.handle('ts1', { type: 'PairPlayers', pairings });
    };
    const results = await Promise.all([wave(a, 'a'), wave(b, 'b')]);
    // the other one either decided on the state before (refused: its players are busy) or after
    // the first wave (nothing left to pair)
    expect(results.filter((r) => r.kind === 'appended')).toHaveLength(1);
    // 3. results: sente wins every game, one berserk win
    const state = await a.current('ts1');
    expect(state.pairings.size).toBe(4);
    const games = [...state.pairings.values()];
    await b.handle('ts1', { type: 'Berserk', gameId: games[0]?.gameId as string, playerId: games[0]?.sente as string });
    clock = at(200);
    for (const g of games) await a.handle('ts1', { type: 'ScoreGame', gameId: g.gameId, winner: 'sente', plies: 40 });
    // 4. a fresh handler (a restarted gateway) reads the same state back from the log
    const restarted = await new TournamentCommandHandler({ store, now }).current('ts1');
    expect(restarted.version).toBe((await a.current('ts1')).version);
    expect(standingsOf(restarted).map((s) => [s.player.id, s.score])).toEqual(
      standingsOf(await a.current('ts1')).map((s) => [s.player.id, s.score]),
    );
    // 5. the projection holds the standings: the berserk winner first with 3
    const live = await tableRows('ts1');
    expect(live.tournament).toMatchObject({ status: 'started', nb_players: 8, last_seq: restarted.version });
    expect(live.players[0]).toMatchObject({ player_id: games[0]?.sente, score: 3, rank: 1, sheet: '3' });
    expect(live.players.filter((p) => p.score === 2)).toHaveLength(3);
    expect(live.pairings.every((p) => p.status === 'finished' && p.winner === 'sente')).toBe(true);
    // 6. the rows equal those of the fold, and a rebuild gives them again
    const events = (await store.readStream('ts1')) as readonly TournamentEvent[];
    const folded = tournamentRowsOf(foldTournament(events, initialTournamentState())) as TournamentRows;
    // each row as the fold gives it, ranked when read as the aggregate ranks
    const byId = (rows: readonly { player_id: string }[]) =>
      [...rows].sort((a, b) => (a.player_id < b.player_id ? -1 : 1));
    expect(byId(live.players.map(({ rank: _rank, ...r }) => r))).toEqual(byId(folded.players));
    expect(live.players.map((p) => [p.player_id, p.rank])).toEqual(
      standingsOf(restarted).map((s) => [s.player.id, s.rank]),
    );
    for (const p of live.players) expect(await standingRank(t.db, 'ts1', p.player_id)).toBe(p.rank);
    expect(await standingRank(t.db, 'ts1', 'nobody')).toBeNull();
    expect(await rebuildTournaments(t.db)).toBeGreaterThanOrEqual(1);
    expect(await tableRows('ts1')).toEqual(live);
  });

  test('an append at a stale version is a conflict and writes nothing', async () => {
    const store = createPgTournamentEventStore(t.db);
    const h = new TournamentCommandHandler({ store, now: () => new Date() });
    await h.handle('ts2', {
      type: 'CreateTournament',
      tournamentId: 'ts2',
      createdBy: { id: 'host', name: 'host' },
      terms: { ...TERMS, startsAt: new Date(Date.now() + 60_000).toISOString() },
    });
    const stale = initialTournamentState();
    await expect(
      store.append('ts2', stale, [{ type: 'TournamentStarted', data: { at: new Date().toISOString() } }]),
    ).rejects.toMatchObject({ name: 'TournamentVersionConflictError' });
    expect(await store.readStream('ts2')).toHaveLength(1);
  });
});
