import { describe, expect, it } from 'vitest';
import {
  arenaPairer,
  InMemoryTournamentEventStore,
  TournamentCommandHandler,
  type TournamentCommandRequest,
} from '../src/index.js';
import { ARENA_TERMS, at, entrant, T0 } from './helpers.js';

async function arenaOf(store: InMemoryTournamentEventStore, now: () => Date) {
  const h = new TournamentCommandHandler({ store, now });
  await h.handle('t1', {
    type: 'CreateTournament',
    tournamentId: 't1',
    createdBy: { id: 'host', name: 'host' },
    terms: { ...ARENA_TERMS, startsAt: T0.toISOString() },
  });
  for (const id of ['a', 'b', 'c', 'd'])
    await h.handle('t1', { type: 'JoinTournament', player: entrant(id), passwordHash: null, ratedGames: 10 });
  return h;
}

describe('the tournament command handler', () => {
  it('two pairers racing on one tournament make one wave: the second decides again and finds the players busy', async () => {
    const store = new InMemoryTournamentEventStore();
    let clock = new Date(T0.getTime() - 60_000);
    const now = () => clock;
    const first = await arenaOf(store, now);
    clock = T0;
    await first.handle('t1', { type: 'StartTournament' });
    clock = at(30);
    const second = new TournamentCommandHandler({ store, now });
    const wave = async (h: TournamentCommandHandler, prefix: string) => {
      const state = await h.current('t1');
      const pairings = arenaPairer.pair({ state, now: clock }).map((p, i) => ({ gameId: `${prefix}${i}`, ...p }));
      return h.handle('t1', { type: 'PairPlayers', pairings } satisfies TournamentCommandRequest);
    };
    const [a, b] = await Promise.all([wave(first, 'x'), wave(second, 'y')]);
    expect([a.kind, b.kind].sort()).toEqual(['appended', 'rejected']);
    const rejected = a.kind === 'rejected' ? a : b;
    expect(rejected.kind === 'rejected' && rejected.rejection.code).toBe('invalid_pairing');
    const state = await new TournamentCommandHandler({ store, now }).current('t1');
    expect(state.pairings.size).toBe(2);
    expect(state.playing.size).toBe(4);
  });

  it('catches a kept state up with what another handler appended', async () => {
    const store = new InMemoryTournamentEventStore();
    const now = () => new Date(T0.getTime() - 60_000);
    const first = await arenaOf(store, now);
    const second = new TournamentCommandHandler({ store, now });
    expect((await second.current('t1')).players.size).toBe(4);
    await first.handle('t1', { type: 'WithdrawFromTournament', playerId: 'a' });
    expect((await second.current('t1')).players.size).toBe(3);
    const again = await second.handle('t1', {
      type: 'JoinTournament',
      player: entrant('b'),
      passwordHash: null,
      ratedGames: 1,
    });
    expect(again.kind === 'rejected' && again.rejection.code).toBe('already_joined');
  });

  it('decides the commands queued meanwhile together: each answered once, in few appends', async () => {
    const store = new InMemoryTournamentEventStore();
    let appends = 0;
    const append = store.append.bind(store);
    store.append = (...args) => {
      appends++;
      return append(...args);
    };
    const now = () => new Date(T0.getTime() - 60_000);
    const h = await arenaOf(store, now);
    appends = 0;
    const ids = Array.from({ length: 50 }, (_, i) => `n${i}`);
    // n0 twice: the second of the two is refused, even though both wait for the same append
    const handled = await Promise.all(
      [...ids, 'n0'].map((id) =>
        h.handle('t1', { type: 'JoinTournament', player: entrant(id), passwordHash: null, ratedGames: 10 }),
      ),
    );
    expect(handled.filter((x) => x.kind === 'appended')).toHaveLength(50);
    const twice = handled.at(-1);
    expect(twice?.kind === 'rejected' && twice.rejection.code).toBe('already_joined');
    const joined = handled.flatMap((x) => (x.kind === 'appended' ? x.appended : []));
    expect(joined.map((e) => e.type === 'PlayerJoined' && e.data.player.id)).toEqual(ids);
    expect(new Set(joined.map((e) => e.seq)).size).toBe(50);
    expect(appends).toBeLessThanOrEqual(2);
    const state = await new TournamentCommandHandler({ store, now }).current('t1');
    expect(state.players.size).toBe(54);
  });
});
