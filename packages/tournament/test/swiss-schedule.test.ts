/**
 * The organiser's date for the next Swiss round (`ScheduleSwissRound`), and the withdrawal of a
 * player after the event's number of forfeits (`forfeitsToWithdraw`).
 */
import { describe, expect, it } from 'vitest';
import {
  decideTournament,
  nextSwissRoundAt,
  pairSwissRound,
  swissPairer,
  swissTrf,
  type TournamentState,
  type TournamentTerms,
} from '../src/index.js';
import { at, entrant, run, startedWith } from './helpers.js';

const swissTerms = (
  forfeitsToWithdraw: number,
  roundIntervalSeconds: number | null = 60,
): Partial<TournamentTerms> => ({
  format: 'swiss',
  berserkable: false,
  streakable: false,
  swiss: { nbRounds: 5, roundIntervalSeconds, forbiddenPairings: [], forfeitsToWithdraw },
});

/** Pairs the next round now; `noShow` never moves (scored as lost without a move), the others' sente wins. */
function round(s: TournamentState, now: Date, noShow: string | null): TournamentState {
  const pairings = pairSwissRound(s).map((p, i) => ({ ...p, gameId: `g${p.round}-${i}` }));
  expect(pairings.length).toBeGreaterThan(0);
  let state = run([{ type: 'PairPlayers', pairings, now }], s).state;
  for (const p of pairings) {
    const absent = p.sente === noShow ? 'sente' : p.gote === noShow ? 'gote' : null;
    const winner = absent === 'sente' ? 'gote' : 'sente';
    state = run(
      [
        {
          type: 'ScoreGame',
          gameId: p.gameId,
          winner,
          plies: absent === null ? 40 : 0,
          ...(absent === null ? {} : { noStartBy: absent }),
          now: new Date(now.getTime() + 1000),
        },
      ],
      state,
    ).state;
  }
  return state;
}

const players = ['a', 'b', 'c', 'd'].map((id, i) => entrant(id, 2000 - i * 100));

describe('forfeits in a Swiss', () => {
  it('one who never moves loses by forfeit and is withdrawn at the event’s count', () => {
    let s = startedWith(players, swissTerms(2));
    s = round(s, at(0), 'd');
    expect(s.players.get('d')?.paused).toBe(false);
    expect(swissTrf(s).text).toMatch(/ [wb] -/);
    s = round(s, at(100), 'd');
    expect(s.players.get('d')?.paused).toBe(true);
    // not paired from then on: the next round's TRF says so
    expect(swissTrf(s, { nextRound: true }).text).toMatch(/0000 - Z/);
    expect(pairSwissRound(s).flatMap((p) => [p.sente, p.gote])).not.toContain('d');
  });

  it('0: never withdrawn; 1 (the default of the API): at the first', () => {
    let never = startedWith(players, swissTerms(0));
    never = round(round(never, at(0), 'c'), at(100), 'c');
    expect(never.players.get('c')?.paused).toBe(false);
    const once = round(startedWith(players, swissTerms(1)), at(0), 'c');
    expect(once.players.get('c')?.paused).toBe(true);
    // a ForfeitGame counts the same
    const s = startedWith(players, swissTerms(1));
    const pairings = pairSwissRound(s).map((p, i) => ({ ...p, gameId: `f${i}` }));
    const paired = run([{ type: 'PairPlayers', pairings, now: at(0) }], s).state;
    const d = decideTournament({ type: 'ForfeitGame', gameId: 'f0', absent: 'gote', now: at(5) }, paired);
    expect(d.ok && d.events.map((e) => e.type)).toEqual(['GameScored', 'PlayerPaused']);
  });

  it('terms: forfeitsToWithdraw is 0 to 100', () => {
    const created = () => startedWith(players, swissTerms(-1));
    expect(created).toThrow(/forfeitsToWithdraw/);
  });
});

describe('the next round at the organiser’s date', () => {
  it('is paired at that date, not on the interval, and every later round waits for the organiser', () => {
    let s = startedWith(players, swissTerms(0, 30));
    s = round(s, at(0), null);
    // the interval would pair round 2 at 31 s
    expect(nextSwissRoundAt(s)?.toISOString()).toBe(at(31).toISOString());
    const schedule = (when: Date, now = at(10), by = 'host') =>
      decideTournament({ type: 'ScheduleSwissRound', by, roundAt: when, now }, s);
    expect(schedule(at(5)).ok).toBe(false);
    expect(schedule(at(600), at(10), 'a').ok).toBe(false);
    const d = schedule(at(600));
    if (!d.ok) throw new Error(d.rejection.message);
    s = run([{ type: 'ScheduleSwissRound', by: 'host', roundAt: at(600), now: at(10) }], s).state;
    expect(nextSwissRoundAt(s)?.toISOString()).toBe(at(600).toISOString());
    expect(swissPairer.pair({ state: s, now: at(599) })).toEqual([]);
    expect(swissPairer.pair({ state: s, now: at(600) }).length).toBe(2);
    s = round(s, at(600), null);
    // the schedule is spent; the organiser starts each round from now on
    expect(nextSwissRoundAt(s)).toBeNull();
  });

  it('is refused while a round is played', () => {
    const s = startedWith(players, swissTerms(0, null));
    const pairings = pairSwissRound(s).map((p, i) => ({ ...p, gameId: `p${i}` }));
    const playing = run([{ type: 'PairPlayers', pairings, now: at(0) }], s).state;
    const d = decideTournament({ type: 'ScheduleSwissRound', by: 'host', roundAt: at(900), now: at(10) }, playing);
    expect(d.ok ? 'ok' : d.rejection.message).toBe('the last round is not over');
  });
});
