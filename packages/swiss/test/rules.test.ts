// The pairing rules case by case. Each case names the rule of the FIDE handbook it shows
// (C.04.1 basic rules, C.04.2 general handling rules, C.04.3 the Dutch system from 1 July 2025).
import { describe, expect, it } from 'vitest';
import {
  absoluteColorPreference,
  eligibleForBye,
  NoValidPairingError,
  neutralColor,
  pairDutch,
  tournamentForNextRound,
} from '../src/index.js';
import { event } from './event.js';

const pairsOf = (rows: string[], rounds: number, first?: 'white1' | 'black1'): string => {
  const t = tournamentForNextRound(event(rows, first === undefined ? { rounds } : { rounds, first }));
  return pairDutch(t)
    .map((p) => `${p.white + 1}-${p.black === null ? 'bye' : p.black + 1}`)
    .join(' ');
};

const EIGHT_NEW = ['', '', '', '', '', '', '', ''];

describe('pairings', () => {
  const cases: {
    name: string;
    source: string;
    rows: string[];
    rounds: number;
    first?: 'white1' | 'black1';
    want: string;
  }[] = [
    {
      name: 'round 1: the top half meets the bottom half, colours alternate from the first board',
      source: 'C.04.3 B.2 (S1 meets S2 in order) and E.5 (initial colour, then alternating)',
      rows: EIGHT_NEW,
      rounds: 5,
      first: 'white1',
      want: '1-5 6-2 3-7 8-4',
    },
    {
      name: 'round 1 drawn with black for the first player',
      source: 'C.04.3 E.5 (the initial colour is drawn by lot)',
      rows: EIGHT_NEW,
      rounds: 5,
      first: 'black1',
      want: '5-1 2-6 7-3 4-8',
    },
    {
      name: 'an odd number: the lowest-ranked player gets the pairing-allocated bye',
      source: 'C.04.1 c and C.04.3 C.2/C.5 (the bye to a player of the lowest scoregroup)',
      rows: ['', '', '', '', '', '', ''],
      rounds: 5,
      first: 'white1',
      want: '1-4 5-2 3-6 7-bye',
    },
    {
      name: 'every winner had white: the higher-ranked player of each pair has the preference granted',
      source: 'C.04.3 E.4 (grant the higher-ranked player’s preference)',
      rows: ['5 w 1', '6 b 0', '7 w 1', '8 b 0', '1 b 0', '2 w 1', '3 b 0', '4 w 1'],
      rounds: 5,
      want: '6-1 8-3 2-5 4-7',
    },
    {
      name: 'a player who had the pairing-allocated bye does not get it again',
      source: 'C.04.1 c (no second pairing-allocated bye) and C.04.3 C.2',
      rows: ['4 w 1', '5 b 0', '6 w 1', '1 b 0', '2 w 1', '3 b 0', '0000 - U'],
      rounds: 5,
      want: '5-1 7-3 2-4 6-bye',
    },
    {
      name: 'a half-point bye requested for the round takes the player out of the pairing',
      source: 'C.04.2 (byes requested in advance)',
      rows: ['4 w 1, 0000 - H', '5 b 0', '6 w 1', '1 b 0', '2 w 1', '3 b 0', '0000 - U'],
      rounds: 5,
      want: '7-3 2-6 4-5',
    },
    {
      name: 'a late entry joins the lowest scoregroup of its score',
      source: 'C.04.2 (late entries: absent rounds score as zero-point byes)',
      rows: ['4 w 1', '5 b 0', '6 w 1', '1 b 0', '2 w 1', '3 b 0', '0000 - U', '0000 - Z'],
      rounds: 5,
      want: '5-1 7-3 2-6 4-8',
    },
    {
      name: 'a withdrawn player is not paired; the odd one out floats down and the lowest gets the bye',
      source: 'C.04.2 (withdrawals) and C.04.3 C.5 (the bye)',
      rows: ['5 w 1', '6 b 1, 0000 - Z', '7 w 1', '8 b 0', '1 b 0', '2 w 0', '3 b 0', '4 w 1'],
      rounds: 5,
      want: '3-1 4-6 5-8 7-bye',
    },
    {
      name: 'a forfeited game is not a meeting: the two may be paired again',
      source: 'C.04.1 b (only games played count as meetings, as bbpPairings reads it)',
      rows: ['2 w +', '1 b -'],
      rounds: 3,
      want: '1-2',
    },
  ];
  it.each(cases)('$name ($source)', ({ rows, rounds, first, want }) => {
    expect(pairsOf(rows, rounds, first)).toBe(want);
  });

  it('two players who already met cannot be paired again (C.04.1 b)', () => {
    const t = tournamentForNextRound(event(['2 w 1', '1 b 0'], { rounds: 3 }));
    expect(() => pairDutch(t)).toThrow(NoValidPairingError);
  });

  it('no player meets the same opponent twice over a whole event (C.04.1 b)', () => {
    let rows = ['', '', '', '', '', '', '', '', '', ''];
    for (let round = 0; round < 5; round++) {
      const t = tournamentForNextRound(event(rows, { rounds: 5, first: 'white1' }));
      const cells = rows.map(() => '');
      for (const p of pairDutch(t)) {
        if (p.black === null) throw new Error('no bye with ten players');
        const whiteWins = (p.white + p.black + round) % 3 !== 0;
        cells[p.white] = `${p.black + 1} w ${whiteWins ? 1 : 0}`;
        cells[p.black] = `${p.white + 1} b ${whiteWins ? 0 : 1}`;
      }
      rows = rows.map((row, i) => (row === '' ? cells[i]! : `${row}, ${cells[i]}`));
    }
    const opponents = rows.map((row) => row.split(',').map((cell) => cell.trim().split(' ')[0]));
    for (const list of opponents) expect(new Set(list).size).toBe(list.length);
  });
});

describe('colour preferences (C.04.3 A.6)', () => {
  const cases: { history: string; preference: 'w' | 'b' | null; kind: string; source: string }[] = [
    { history: '', preference: null, kind: 'none', source: 'A.6: no game played yet' },
    { history: 'w', preference: 'b', kind: 'strong', source: 'A.6.b: colour difference +1' },
    { history: 'w b', preference: 'w', kind: 'mild', source: 'A.6.c: difference 0, alternate from the last game' },
    { history: 'w w', preference: 'b', kind: 'absolute', source: 'A.6.a: the same colour in the two last games' },
    { history: 'w b w', preference: 'b', kind: 'strong', source: 'A.6.b: colour difference +1' },
    { history: 'b w w b', preference: 'w', kind: 'mild', source: 'A.6.c: difference 0' },
    { history: 'w b w w', preference: 'b', kind: 'absolute', source: 'A.6.a: colour difference +2' },
  ];
  it.each(cases)('$history → $preference, $kind ($source)', ({ history, preference, kind }) => {
    const colours = history === '' ? [] : history.split(' ');
    // Player 1 plays players 2, 3, ... with the colours given; they play nobody else.
    const rows = [colours.map((c, r) => `${r + 2} ${c} =`).join(', ')];
    colours.forEach((c, r) => {
      const cells = colours.map((_, q) => (q === r ? `1 ${c === 'w' ? 'b' : 'w'} =` : '0000 - Z'));
      rows.push(cells.join(', '));
    });
    const t = tournamentForNextRound(event(rows, { rounds: colours.length + 1, first: 'white1' }));
    const player = t.players[0]!;
    expect(player.colorPreference).toBe(preference);
    const actual =
      player.colorPreference === null
        ? 'none'
        : absoluteColorPreference(player)
          ? 'absolute'
          : player.strongColorPreference
            ? 'strong'
            : 'mild';
    expect(actual).toBe(kind);
  });
});

describe('colour allocation (C.04.3 E)', () => {
  it('compatible preferences are both granted (E.1)', () => {
    const t = tournamentForNextRound(event(['2 w 1', '1 b 0', '4 b 1', '3 w 0'], { rounds: 3 }));
    expect(neutralColor(t.players[0]!, t.players[2]!)).toBe('b');
    expect(neutralColor(t.players[2]!, t.players[0]!)).toBe('w');
  });
  it('of two players due the same colour, the absolute preference wins over the strong (E.2)', () => {
    const t = tournamentForNextRound(
      event(['2 w 1, 3 w 1', '1 b 0, 0000 - Z', '0000 - Z, 1 b 0', '5 w 1, 0000 - Z', '4 b 0, 0000 - Z'], {
        rounds: 4,
      }),
    );
    expect(neutralColor(t.players[3]!, t.players[0]!)).toBe('w');
  });
});

describe('the pairing-allocated bye', () => {
  it('a forfeit win or a full-point bye makes a player ineligible, a half-point bye does not (C.04.1 c)', () => {
    const t = tournamentForNextRound(
      event(['2 w +', '1 b -', '0000 - F', '0000 - H', '6 w 1', '5 b 0'], { rounds: 4, first: 'white1' }),
    );
    expect(t.players.map((p) => eligibleForBye(t, p))).toEqual([false, true, false, true, true, true]);
  });
});
