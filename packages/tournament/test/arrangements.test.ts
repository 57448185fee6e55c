import { describe, expect, it } from 'vitest';
import {
  ARRANGEMENT_TOLERANCE_MS,
  arrangementsOf,
  decideTournament,
  PAIRERS,
  proposeTime,
  standingsOf,
  type TournamentCommand,
  type TournamentState,
} from '../src/index.js';
import { at, entrant, run, startedWith, T0 } from './helpers.js';

/** An arranged robin of `n` players (p1 the best rated), two hours long, started at T0. */
const arranged = (n: number) =>
  startedWith(
    Array.from({ length: n }, (_, i) => entrant(`p${i + 1}`, 2000 - i * 10)),
    { format: 'robin', arranged: true, minutes: 120, berserkable: false, streakable: false, maxPlayers: 16 },
  );

const propose = (arrangementId: string, playerId: string, time: Date | null, now = at(10)): TournamentCommand => ({
  type: 'ProposeArrangementTime',
  arrangementId,
  playerId,
  time,
  now,
});

const rejected = (c: TournamentCommand, s: TournamentState) => {
  const d = decideTournament(c, s);
  return d.ok ? 'accepted' : d.rejection.code;
};

describe('lishogi-style time agreement', () => {
  const none = { sente: null, gote: null, scheduledAt: null };
  const t = (minutes: number) => new Date(T0.getTime() + minutes * 60_000).toISOString();

  it('a proposal within an hour of the opponent’s agrees to the opponent’s time', () => {
    const one = proposeTime(none, 'sente', t(30));
    expect(one.scheduledAt).toBeNull();
    expect(proposeTime(one, 'gote', t(80)).scheduledAt).toBe(t(30));
    expect(proposeTime(one, 'gote', t(30 + ARRANGEMENT_TOLERANCE_MS / 60_000 + 1)).scheduledAt).toBeNull();
  });

  it('taking a proposal back undoes the agreement', () => {
    const agreed = proposeTime(proposeTime(none, 'sente', t(30)), 'gote', t(30));
    expect(agreed.scheduledAt).toBe(t(30));
    expect(proposeTime(agreed, 'sente', null)).toEqual({ sente: null, gote: t(30), scheduledAt: null });
  });
});

describe('an arranged robin', () => {
  it('opens the whole Berger table at the start, each game with its id', () => {
    const s = arranged(4);
    const all = arrangementsOf(s);
    expect(all.map((a) => a.id)).toEqual(['1-1', '1-2', '2-1', '2-2', '3-1', '3-2']);
    const pairs = new Set(all.map((a) => [a.sente, a.gote].sort().join('-')));
    expect(pairs.size).toBe(6);
    // nothing is paired before a time is agreed
    expect(PAIRERS.robin.pair({ state: s, now: at(3600) })).toEqual([]);
  });

  it('pairs a game once its agreed time has come, not before, and one game a player at a time', () => {
    let s = arranged(4);
    const [a, b] = arrangementsOf(s);
    if (a === undefined || b === undefined) throw new Error('no arrangements');
    s = run(
      [
        propose(a.id, a.sente, at(600)),
        propose(a.id, a.gote, at(900)),
        propose(b.id, b.sente, at(600)),
        propose(b.id, b.gote, at(600)),
      ],
      s,
    ).state;
    expect(arrangementsOf(s)[0]?.times.scheduledAt).toBe(at(600).toISOString());
    expect(PAIRERS.robin.pair({ state: s, now: at(599) })).toEqual([]);
    const due = PAIRERS.robin.pair({ state: s, now: at(600) });
    expect(due).toEqual([
      { sente: a.sente, gote: a.gote, round: 1 },
      { sente: b.sente, gote: b.gote, round: 1 },
    ]);
    // a pairing of a game not agreed is refused
    const early = { type: 'PairPlayers' as const, pairings: [{ gameId: 'x', ...due[0]! }], now: at(500) };
    expect(rejected(early, s)).toBe('invalid_pairing');
    s = run([{ type: 'PairPlayers', pairings: due.map((p, i) => ({ gameId: `g${i}`, ...p })), now: at(600) }], s).state;
    expect(arrangementsOf(s)[0]?.pairing?.gameId).toBe('g0');
    expect(rejected(propose(a.id, a.sente, at(1200)), s)).toBe('arrangement_played');
  });

  it('refuses a time outside the window, a stranger, an unknown game, and a robin of rounds', () => {
    const s = arranged(4);
    const [a] = arrangementsOf(s);
    if (a === undefined) throw new Error('no arrangement');
    expect(rejected(propose(a.id, a.sente, at(121 * 60)), s)).toBe('invalid_arrangement_time');
    expect(rejected(propose(a.id, a.sente, at(-3600)), s)).toBe('invalid_arrangement_time');
    const stranger = ['p1', 'p2', 'p3', 'p4'].find((p) => p !== a.sente && p !== a.gote) ?? '';
    expect(rejected(propose(a.id, stranger, at(600)), s)).toBe('not_in_arrangement');
    expect(rejected(propose('9-9', a.sente, at(600)), s)).toBe('unknown_arrangement');
    const rounds = startedWith(['p1', 'p2'], { format: 'robin', minutes: 120, maxPlayers: 16 });
    expect(rejected(propose('1-1', 'p1', at(600)), rounds)).toBe('invalid_arrangement_time');
  });

  it('at the end, a game never played is lost by the one who never proposed a time, or by both', () => {
    let s = arranged(4);
    const [a, b, c] = arrangementsOf(s);
    if (a === undefined || b === undefined || c === undefined) throw new Error('no arrangements');
    // a: played and won by sente; b: only gote proposed; c: nobody proposed
    s = run(
      [
        propose(a.id, a.sente, at(60)),
        propose(a.id, a.gote, at(60)),
        {
          type: 'PairPlayers',
          pairings: [{ gameId: 'ga', sente: a.sente, gote: a.gote, round: a.round }],
          now: at(60),
        },
        { type: 'ScoreGame', gameId: 'ga', winner: 'sente', plies: 80, now: at(1800) },
        propose(b.id, b.gote, at(7000)),
      ],
      s,
    ).state;
    expect(rejected({ type: 'ForfeitArrangements', now: at(119 * 60) }, s)).toBe('not_started');
    expect(rejected({ type: 'FinishTournament', now: at(119 * 60) }, s)).toBe('not_started');
    const end = at(120 * 60);
    s = run([{ type: 'ForfeitArrangements', now: end }], s).state;
    const byId = new Map(arrangementsOf(s).map((x) => [x.id, x]));
    expect(byId.get(b.id)?.pairing?.result).toMatchObject({ winner: 'gote', forfeit: true });
    expect(byId.get(c.id)?.pairing?.result).toMatchObject({ winner: null, forfeit: true });
    expect(byId.get(a.id)?.pairing?.result).toMatchObject({ winner: 'sente', forfeit: false });
    expect([...byId.values()].every((x) => x.pairing?.result !== undefined)).toBe(true);
    expect(s.playing.size).toBe(0);
    // standings recomputed from the results: a win 2, a forfeit win 2, any loss (a double forfeit too) 0
    const points = new Map<string, number>();
    for (const x of byId.values()) {
      const r = x.pairing?.result;
      if (r === undefined) continue;
      points.set(x.sente, (points.get(x.sente) ?? 0) + (r.winner === 'sente' ? 2 : 0));
      points.set(x.gote, (points.get(x.gote) ?? 0) + (r.winner === 'gote' ? 2 : 0));
    }
    for (const st of standingsOf(s)) expect(st.score).toBe(points.get(st.player.id) ?? 0);
    const cSente = standingsOf(s).find((st) => st.player.id === c.sente);
    expect(cSente?.losses).toBeGreaterThanOrEqual(1);
    expect(run([{ type: 'FinishTournament', now: end }], s).state.status).toBe('finished');
  });

  it('a player who never moved in an arranged game loses it by forfeit', () => {
    let s = arranged(2);
    s = run(
      [
        propose('1-1', 'p1', at(60)),
        propose('1-1', 'p2', at(60)),
        { type: 'PairPlayers', pairings: [{ gameId: 'g', sente: 'p2', gote: 'p1', round: 1 }], now: at(60) },
        { type: 'ScoreGame', gameId: 'g', winner: 'gote', plies: 0, noStartBy: 'sente', now: at(95) },
      ],
      s,
    ).state;
    expect(s.pairings.get('g')?.result).toMatchObject({ winner: 'gote', forfeit: true });
    // every game of the table is played: it may finish before its window ends
    expect(run([{ type: 'FinishTournament', now: at(100) }], s).state.status).toBe('finished');
  });

  it('keeps its table as drawn at the start', () => {
    const s = arranged(4);
    expect(s.seeds).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('only a robin is arranged', () => {
    const d = decideTournament(
      {
        type: 'CreateTournament',
        tournamentId: 't',
        createdBy: { id: 'h', name: 'h' },
        terms: { ...arranged(2).terms!, format: 'arena', arranged: true },
        now: new Date(T0.getTime() - 60_000),
      },
      { ...arranged(2), status: 'none' },
    );
    expect(d.ok ? 'accepted' : d.rejection.code).toBe('invalid_terms');
  });
});
