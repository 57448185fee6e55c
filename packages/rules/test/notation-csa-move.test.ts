/**
 * CSA move statements read and written against a position (the record format's moves, which
 * the CSA server protocol uses too: computer-shogi.org/protocol/record_v22.html, 2.4).
 */
import { describe, expect, it } from 'vitest';
import { csaOfUsiMove, csaPositionLines, usiOfCsaMove } from '../src/notation/csa-move.js';
import { START_SFEN } from '../src/sfen.js';

// after +7776FU -3334FU: sente's bishop sees gote's
const OPENED = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3';
// after +8822UM -3122GI: sente holds a bishop
const TRADED = 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5';

describe('CSA moves on a position', () => {
  it.each([
    [START_SFEN, '+7776FU', '7g7f'],
    [OPENED, '+8822UM', '8h2b+'],
    [OPENED, '+8822KA', '8h2b'],
    [TRADED, '+0055KA', 'B*5e'],
  ])('%s: %s is %s, and back', (sfen, csa, usi) => {
    expect(usiOfCsaMove(sfen, csa)).toEqual({ ok: true, value: usi });
    expect(csaOfUsiMove(sfen, usi)).toBe(csa);
  });

  it.each([
    [START_SFEN, '-3334FU', 'wrong_turn'],
    [START_SFEN, '+7776KA', 'piece_mismatch'],
    [START_SFEN, '+5554FU', 'no_piece'],
    [START_SFEN, '+0055UM', 'bad_move'],
    [START_SFEN, '+7776XX', 'unknown_piece'],
    [START_SFEN, '+77', 'bad_move'],
  ])('%s: %s cannot be read (%s)', (sfen, csa, code) => {
    expect(usiOfCsaMove(sfen, csa)).toMatchObject({ ok: false, error: { code } });
  });

  it('writes a position as rank lines, the hands that hold pieces, then the side to move', () => {
    const lines = csaPositionLines(TRADED) ?? [];
    expect(lines[0]).toBe('P1-KY-KE-GI-KI-OU-KI * -KE-KY');
    expect(lines.slice(9)).toEqual(['P+00KA', '+']);
  });
});
