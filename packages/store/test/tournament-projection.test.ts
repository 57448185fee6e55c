/**
 * The tournament projection written event by event (`touchedRows`: only the rows an append's
 * events name) ends equal to the rows of the whole fold (`tournamentRowsOf`, the rebuild's), and
 * the rows' ranking keys order the players as the aggregate ranks them. An arena is played with
 * every kind of event: joins, a withdrawal and a new join before the start, waves, berserks,
 * wins, draws and losses, pauses and rejoins.
 */

import {
  arenaPairer,
  decideTournament,
  foldTournament,
  initialTournamentState,
  standingsOf,
  type TournamentCommand,
  type TournamentState,
  type TournamentTerms,
} from '@shogi/tournament';
import { describe, expect, test } from 'vitest';
import {
  type TournamentPairingRow,
  type TournamentPlayerRow,
  type TournamentRow,
  touchedRows,
  tournamentRowsOf,
} from '../src/index.js';

const T0 = new Date('2026-01-10T12:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const TERMS: TournamentTerms = {
  name: 'Projection arena',
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

/** A seeded generator (mulberry32): the same arena every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the tournament projection, event by event', () => {
  test('rows written from each append equal the rebuild, ranked as the aggregate ranks', () => {
    const rnd = random(45);
    let state: TournamentState = initialTournamentState();
    let tournament: TournamentRow | null = null;
    const players = new Map<string, TournamentPlayerRow>();
    const pairings = new Map<string, TournamentPairingRow>();
    const apply = (command: TournamentCommand) => {
      const decision = decideTournament(command, state);
      if (!decision.ok || decision.events.length === 0) return;
      state = foldTournament(decision.events, state);
      const rows = touchedRows(state, decision.events);
      if (rows === null) return;
      tournament = rows.tournament;
      for (const r of rows.players) players.set(r.player_id, r);
      for (const r of rows.pairings) pairings.set(r.game_id, r);
      for (const id of rows.removedPlayers) players.delete(id);
    };
    apply({
      type: 'CreateTournament',
      tournamentId: 'tp',
      createdBy: { id: 'host', name: 'host' },
      terms: TERMS,
      now: at(-600),
    });
    const join = (id: string, s: number) =>
      apply({
        type: 'JoinTournament',
        player: { id, name: id, rating: 1200 + Math.floor(rnd() * 800), bot: false },
        passwordHash: null,
        ratedGames: 10,
        now: at(s),
      });
    for (let i = 0; i < 24; i++) join(`p${i}`, -300 + i);
    apply({ type: 'WithdrawFromTournament', playerId: 'p3', now: at(-100) });
    join('p3', -90); // back in, now last in the join order
    apply({ type: 'StartTournament', now: T0 });
    for (let second = 20; second < 1800; second += 20) {
      const now = at(second);
      const proposed = arenaPairer.pair({ state, now });
      apply({
        type: 'PairPlayers',
        pairings: proposed.map((p, i) => ({ gameId: `g${second}-${i}`, ...p })),
        now,
      });
      for (const gameId of new Set(state.playing.values())) {
        const p = state.pairings.get(gameId);
        if (p === undefined || rnd() < 0.4) continue;
        if (rnd() < 0.2) apply({ type: 'Berserk', gameId, playerId: p.sente, now });
        const r = rnd();
        const winner = r < 0.45 ? 'sente' : r < 0.9 ? 'gote' : null;
        apply({ type: 'ScoreGame', gameId, winner, plies: Math.floor(rnd() * 120), now });
      }
      const someone = `p${Math.floor(rnd() * 25)}`;
      if (rnd() < 0.15) apply({ type: 'WithdrawFromTournament', playerId: someone, now });
      else if (rnd() < 0.3) join(someone, second);
    }
    apply({ type: 'FinishTournament', now: at(3600) });

    const rebuilt = tournamentRowsOf(state);
    expect(rebuilt).not.toBeNull();
    const byKey = <R>(rows: Iterable<R>, key: (r: R) => string) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(tournament).toEqual(rebuilt?.tournament);
    expect(byKey(players.values(), (r) => r.player_id)).toEqual(byKey(rebuilt?.players ?? [], (r) => r.player_id));
    expect(byKey(pairings.values(), (r) => r.game_id)).toEqual(byKey(rebuilt?.pairings ?? [], (r) => r.game_id));
    expect(pairings.size).toBeGreaterThan(100);
    expect([...players.values()].some((r) => r.paused)).toBe(true);
    expect([...players.values()].some((r) => r.fire)).toBe(true);

    // ranked by (score desc, tiebreak desc, entered), as the read ranks them: the aggregate's order
    const ranked = [...players.values()]
      .sort((a, b) => b.score - a.score || b.tiebreak - a.tiebreak || a.entered - b.entered)
      .map((r) => r.player_id);
    expect(ranked).toEqual(standingsOf(state).map((s) => s.player.id));
    // p3 withdrew before the start and joined again: after p23 in the join order
    expect(players.get('p3')?.entered).toBeGreaterThan(players.get('p23')?.entered ?? Number.POSITIVE_INFINITY);
  });
});
