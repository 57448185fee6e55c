import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  HANDICAP_SFENS,
  HANDICAPS,
  parseSfen,
  perft,
  type SfenErrorCode,
  START_SFEN,
  sideOfSfen,
  toSfen,
} from '../src/index.js';
import { fixture, type PerftRow } from './fixtures.js';

describe('SFEN round trip', () => {
  const sfens = [...new Set(fixture<PerftRow[]>('perft.json').map((r) => r.sfen)), ...Object.values(HANDICAP_SFENS)];
  test.each(sfens)('%s', (sfen) => {
    const pos = parseSfen(sfen);
    expect(pos.ok && toSfen(pos.value)).toBe(sfen);
  });

  test('the move number is optional and defaults to 1', () => {
    const pos = parseSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -');
    expect(pos.ok && toSfen(pos.value)).toBe(START_SFEN);
  });
});

// Each malformed or impossible position is refused with its code, never a throw.
const REJECTED: [string, string, SfenErrorCode][] = [
  ['too few fields', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b', 'bad_format'],
  ['eight rows', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 'bad_row_count'],
  ['short row', 'lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 'bad_row_length'],
  ['long row', 'lnsgkgsnl/1r5b2/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 'bad_row_length'],
  ['unknown piece', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1', 'unknown_piece'],
  ['promoted gold', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1', 'bad_promotion'],
  ['dangling plus', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL+ b - 1', 'bad_promotion'],
  ['bad side', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1', 'bad_side'],
  ['king in hand', '4k4/9/9/9/9/9/9/9/4K4 b K 1', 'bad_hand'],
  ['zero count', '4k4/9/9/9/9/9/9/9/4K4 b 0P 1', 'bad_hand'],
  ['repeated hand piece', '4k4/9/9/9/9/9/9/9/4K4 b PP 1', 'bad_hand'],
  ['garbage hand', '4k4/9/9/9/9/9/9/9/4K4 b 2 1', 'bad_hand'],
  ['bad move number', '4k4/9/9/9/9/9/9/9/4K4 b - 0', 'bad_move_number'],
  ['two sente kings', '4k4/9/9/9/9/9/9/9/3KK4 b - 1', 'too_many_kings'],
  ['two gote kings', '3kk4/9/9/9/9/9/9/9/4K4 b - 1', 'too_many_kings'],
  ['sente pawn on rank a', 'P3k4/9/9/9/9/9/9/9/4K4 b - 1', 'dead_piece'],
  ['sente lance on rank a', 'L3k4/9/9/9/9/9/9/9/4K4 b - 1', 'dead_piece'],
  ['sente knight on rank b', '4k4/N8/9/9/9/9/9/9/4K4 b - 1', 'dead_piece'],
  ['gote pawn on rank i', '4k4/9/9/9/9/9/9/9/p3K4 b - 1', 'dead_piece'],
  ['gote knight on rank h', '4k4/9/9/9/9/9/9/n8/4K4 b - 1', 'dead_piece'],
  ['nifu on the board', '4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1', 'nifu'],
  ['19 pawns', '4k4/9/9/9/9/9/4P4/9/4K4 b 18P 1', 'too_many_pieces'],
  ['three rooks', '4k4/9/9/9/9/9/9/9/4K4 b 2Rr 1', 'too_many_pieces'],
  ['five golds', '4k4/9/9/9/9/9/9/9/4K4 b 3G2g 1', 'too_many_pieces'],
  ['five silvers counting promoted ones', '4k4/9/9/9/9/9/9/+S+S+S+S+S4/4K4 b - 1', 'too_many_pieces'],
  ['side not to move in check', '4k4/9/9/9/9/9/9/4r4/4K4 w - 1', 'opponent_in_check'],
  ['too long', `${'1'.repeat(300)} b - 1`, 'too_long'],
];

describe('SFEN rejections', () => {
  test.each(REJECTED)('%s', (_name, sfen, code) => {
    const pos = parseSfen(sfen);
    expect(pos.ok ? 'accepted' : pos.error.code).toBe(code);
  });

  test('a promoted pawn does not count for nifu; a piece count at the limit is fine', () => {
    expect(parseSfen('4k4/9/9/4+P4/9/9/4P4/9/4K4 b 16P 1').ok).toBe(true);
  });

  test('random text never throws', () => {
    const alphabet = fc.constantFrom(...'lnsgkrbpLNSGKRBP+123456789/ bw-0'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: alphabet, maxLength: 120 })), (text) => {
        const r = parseSfen(text);
        if (r.ok) expect(parseSfen(toSfen(r.value)).ok).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('handicap start positions', () => {
  // gote (the stronger side) moves first; each removes pieces from gote's camp only
  test.each(HANDICAPS)('%s', (name) => {
    const pos = parseSfen(HANDICAP_SFENS[name]);
    if (!pos.ok) throw new Error(pos.error.message);
    expect(pos.value.side).toBe(1);
    expect(HANDICAP_SFENS[name].split('/').slice(2).join('/')).toBe(
      START_SFEN.split('/').slice(2).join('/').replace(' b ', ' w '),
    );
    expect(perft(pos.value, 1)).toBeGreaterThan(0);
  });
});

describe('sideOfSfen', () => {
  test('agrees with the parsed position on every handicap start and on positions after random moves', () => {
    for (const sfen of [START_SFEN, ...Object.values(HANDICAP_SFENS)]) {
      const parsed = parseSfen(sfen);
      if (!parsed.ok) throw new Error(sfen);
      expect(sideOfSfen(sfen)).toBe(parsed.value.side === 0 ? 'sente' : 'gote');
    }
  });

  test.each([
    ['lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL w - 1', 'gote'],
    ['lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL b - 1', 'sente'],
    ['9/9/9/9/9/9/9/9/9 w', 'gote'],
    ['9/9/9/9/9/9/9/9/9 wb - 1', 'sente'],
    ['9/9/9/9/9/9/9/9/9  w - 1', 'sente'],
    ['no-space-at-all', 'sente'],
    ['', 'sente'],
  ] as const)('%j is %s to move (the second field exactly `w` is gote)', (sfen, side) => {
    expect(sideOfSfen(sfen)).toBe(side);
  });
});
