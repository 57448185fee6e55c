import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  formatTrf,
  pairDutch,
  pairingsInFile,
  parseTrf,
  roundsInFile,
  TrfError,
  tournamentAfterRound,
  tournamentForNextRound,
  trfAfterRound,
} from '../src/index.js';
import { eventText } from './event.js';
import { FIXTURES } from './fixtures.js';

const case03 = readFileSync(`${FIXTURES}case03.trf`, 'utf8');

describe('TRF reader', () => {
  it('reads CR (as bbpPairings writes), LF and CRLF line ends alike', () => {
    const cr = parseTrf(case03);
    expect(cr.players).toHaveLength(15);
    const lf = parseTrf(case03.replaceAll('\r', '\n'));
    const crlf = parseTrf(case03.replaceAll('\r', '\r\n'));
    expect(lf).toEqual(cr);
    expect(crlf).toEqual(cr);
  });

  it('reads the 001 columns: pairing number, name, rating, points and each round cell', () => {
    const file = parseTrf(case03);
    const first = file.players[0]!;
    expect(first).toMatchObject({ id: 0, name: 'Test0001 Player0001', rating: 2376, points: 65 });
    expect(first.matches[0]).toEqual({ opponent: 7, color: 'b', score: 'win', played: true, participated: true });
    const late = file.players[14]!;
    expect(late.matches[0]).toEqual({ opponent: 14, color: null, score: 'draw', played: false, participated: false });
    expect(roundsInFile(file)).toBe(7);
  });

  it('tells forfeits, the pairing-allocated bye and requested byes apart', () => {
    const file = parseTrf(eventText(['2 w +', '1 b -', '0000 - U', '0000 - H', '0000 - Z', '0000 - F'], { rounds: 3 }));
    const m = file.players.map((p) => p.matches[0]!);
    expect(m[0]).toMatchObject({ score: 'win', played: false, participated: true });
    expect(m[1]).toMatchObject({ score: 'loss', played: false, participated: true });
    expect(m[2]).toMatchObject({ score: 'win', played: false, participated: true });
    expect(m[3]).toMatchObject({ score: 'draw', participated: false });
    expect(m[4]).toMatchObject({ score: 'loss', participated: false });
    expect(m[5]).toMatchObject({ score: 'win', participated: false });
  });

  it('reads XXR, XXC, XXP and the BB point lines', () => {
    const text = `${eventText(['', '', '', ''], { rounds: 7, first: 'black1' })}XXP 1 2\nBBW  3.0\nBBD  1.0\n`;
    const file = parseTrf(text);
    expect(file.expectedRounds).toBe(7);
    expect(file.initialColor).toBe('b');
    expect(file.forbidden).toEqual([[0, 1]]);
    expect(file.points).toMatchObject({ win: 30, draw: 10, pairingAllocatedBye: 30 });
  });

  it('a cell beyond the last paired round is a bye requested for the next one', () => {
    const t = tournamentForNextRound(parseTrf(eventText(['2 w 1, 0000 - H', '1 b 0', '', ''], { rounds: 3 })));
    expect(t.playedRounds).toBe(1);
    expect(t.players[0]!.matches).toHaveLength(2);
    expect(t.players[2]!.matches).toHaveLength(1);
  });

  it.each([
    ['a short player line', '001    1      Name'],
    ['a pairing number of 0', `${eventText([''], { rounds: 3 }).replace('001    1', '001    0')}`],
    ['an unknown result', eventText(['2 w X', '1 b 0'], { rounds: 3 })],
    ['an unknown colour', eventText(['2 x 1', '1 b 0'], { rounds: 3 })],
    ['a repeated pairing number', `${eventText([''], { rounds: 3 })}${eventText([''], { rounds: 3 })}`],
    ['a missing pairing number', eventText(['', ''], { rounds: 3 }).replace('001    2', '001    3')],
  ])('rejects %s with a TrfError', (_name, text) => {
    expect(() => parseTrf(text)).toThrow(TrfError);
  });

  it('rejects games whose two entries disagree', () => {
    expect(() => tournamentForNextRound(parseTrf(eventText(['2 w 1', '1 w 0'], { rounds: 3 })))).toThrow(TrfError);
  });

  it('asks for the number of rounds to pair the next one', () => {
    expect(() => tournamentForNextRound(parseTrf(eventText(['', ''], { rounds: 3 }).replace('XXR 3\n', '')))).toThrow(
      /XXR/,
    );
  });
});

describe('TRF writer', () => {
  it('a file cut after a round reads back as the same tournament', () => {
    const file = { ...parseTrf(case03), expectedRounds: 7 };
    for (let round = 0; round < 7; round++) {
      const cut = parseTrf(trfAfterRound(file, round, 7));
      expect(cut.expectedRounds).toBe(7);
      const again = tournamentForNextRound(cut);
      const direct = tournamentAfterRound(file, round, cut.initialColor);
      expect(again.playedRounds).toBe(round);
      expect(again.players.map((p) => [p.score, p.matches])).toEqual(direct.players.map((p) => [p.score, p.matches]));
    }
  });

  it('writes each round cell as it was read', () => {
    const file = parseTrf(case03);
    const text = formatTrf({
      expectedRounds: 7,
      initialColor: 'w',
      players: file.players.map((p) => ({ ...p, rank: p.id + 1 })),
    });
    const back = parseTrf(text);
    expect(back.players.map((p) => p.matches)).toEqual(file.players.map((p) => p.matches));
    expect(back.players.map((p) => p.points)).toEqual(file.players.map((p) => p.points));
    for (let round = 0; round < 7; round++) expect(pairingsInFile(back, round)).toEqual(pairingsInFile(file, round));
  });
});

describe('TRF-2026 round lines', () => {
  const pairsOf = (text: string): string[] => {
    const t = tournamentForNextRound(parseTrf(text));
    return pairDutch(t).map((p) => `${p.white + 1}-${p.black === null ? 'bye' : p.black + 1}`);
  };
  const eight = eventText(['', '', '', '', '', '', '', ''], { rounds: 5, first: 'white1' });

  it('240: players not to be paired in the round are left out', () => {
    expect(pairsOf(`${eight}240 R  1    1    2\n`)).toEqual(['3-6', '7-4', '5-8']);
  });

  it('260 and XXP: a pair forbidden for the round is not made', () => {
    expect(pairsOf(eight)).toContain('1-5');
    for (const line of ['260   1   1    1    5', 'XXP 1 5']) {
      const pairs = pairsOf(`${eight}${line}\n`);
      expect(pairs).toHaveLength(4);
      expect(pairs.some((p) => p === '1-5' || p === '5-1')).toBe(false);
    }
  });

  it('260 outside its rounds forbids nothing', () => {
    expect(pairsOf(`${eight}260   2   3    1    5\n`)).toContain('1-5');
  });
});
