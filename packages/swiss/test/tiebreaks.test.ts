import { describe, expect, it } from 'vitest';
import {
  adjustedScore,
  buchholz,
  directEncounter,
  finalScore,
  gamesWon,
  sonnebornBerger,
  standings,
  tournamentAfterRound,
  wins,
} from '../src/index.js';
import { event } from './event.js';

// Four players, three rounds (points in tenths):
//   1: beat 2, drew 3, beat 4          = 2.5
//   2: lost to 1, beat 4, beat 3       = 2.0
//   3: beat 4, drew 1, lost to 2       = 1.5
//   4: lost to 3, lost to 2, lost to 1 = 0.0
const roundRobin = event(['2 w 1, 3 b =, 4 w 1', '1 b 0, 4 w 1, 3 w 1', '4 w 1, 1 w =, 2 b 0', '3 b 0, 2 b 0, 1 b 0'], {
  rounds: 3,
});
const rr = tournamentAfterRound(roundRobin, 3, 'w');

// The same with player 4 absent in round 3 (a zero-point bye) and player 1 given the
// pairing-allocated bye: unplayed rounds of opponents count as draws, one's own as a game
// against oneself.
const withByes = event(
  ['2 w 1, 3 b =, 0000 - U', '1 b 0, 4 w 1, 3 w 1', '4 w 1, 1 w =, 2 b 0', '3 b 0, 2 b 0, 0000 - Z'],
  {
    rounds: 3,
  },
);
const wb = tournamentAfterRound(withByes, 3, 'w');

describe('C.07 tie-breaks', () => {
  it('scores', () => {
    expect([0, 1, 2, 3].map((id) => finalScore(rr, id))).toEqual([25, 20, 15, 0]);
  });

  it('Buchholz: the sum of the opponents’ scores (§8.1)', () => {
    expect(buchholz(rr, 0)).toBe(20 + 15 + 0);
    expect(buchholz(rr, 3)).toBe(15 + 20 + 25);
  });

  it('Buchholz cut-1 drops the lowest opponent (§14.1)', () => {
    expect(buchholz(rr, 0, 1)).toBe(20 + 15);
  });

  it('Sonneborn-Berger: beaten opponents in full, drawn ones by half (§8.2)', () => {
    expect(sonnebornBerger(rr, 0)).toBe(20 + 15 / 2 + 0);
    expect(sonnebornBerger(rr, 1)).toBe(0 + 15);
  });

  it('wins (§7.1) and games won (§7.2)', () => {
    expect(wins(rr, 0)).toBe(2);
    expect(gamesWon(rr, 0)).toBe(2);
    expect(wins(wb, 0)).toBe(2);
    expect(gamesWon(wb, 0)).toBe(1);
  });

  it('unplayed rounds: an opponent’s count as draws, one’s own as a game against oneself (§16)', () => {
    expect(adjustedScore(wb, 3)).toBe(0 + 0 + 5);
    // Player 2 met 1 (2.5 with the bye... counted as a draw: 1 + 0.5 + 0.5 = 2.0), 4 (0.5) and 3 (1.5).
    expect(buchholz(wb, 1)).toBe(20 + 5 + 15);
    // Player 1's own bye counts as a game against a player of its own score (2.5).
    expect(buchholz(wb, 0)).toBe(20 + 15 + 25);
  });

  it('direct encounter among players tied on points (§6)', () => {
    const tied = tournamentAfterRound(
      event(['2 w 1, 3 w 0', '1 b 0, 4 w 1', '4 b 1, 1 b 1', '3 w 0, 2 b 0'], { rounds: 2 }),
      2,
      'w',
    );
    // 1, 2 and 3 have... 1: 1.0, 2: 1.0, 3: 2.0: only 1 and 2 tie, and they met: 1 beat 2.
    expect(directEncounter(tied, 0)).toBe(10);
    expect(directEncounter(tied, 1)).toBe(0);
  });

  it('standings order by score, then the tie-breaks in the order given', () => {
    const table = standings(rr, ['buchholz', 'sonneborn-berger']);
    expect(table.map((s) => s.id)).toEqual([0, 1, 2, 3]);
    expect(table[0]).toMatchObject({ rank: 1, score: 25, tieBreaks: [35, 27.5] });
  });
});
