import { HANDICAP_SFENS } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { type Bestmove, checkBestmove, checkPosition } from '../src/index.js';

const move = (m: string): Bestmove => ({ kind: 'move', move: m });
const MATE_IN_ONE = '4k4/9/4P4/9/9/9/9/9/4K4 b G 1';

describe('checking what an engine answers', () => {
  test('a legal move, with the outcome it leads to', () => {
    expect(checkBestmove({}, move('7g7f'))).toEqual({ verdict: 'move', move: '7g7f', outcome: { status: 'ongoing' } });
    expect(checkBestmove({ sfen: HANDICAP_SFENS.bishop }, move('5a4b'))).toMatchObject({ verdict: 'move' });
    expect(checkBestmove({ sfen: MATE_IN_ONE }, move('G*5b'))).toEqual({
      verdict: 'move',
      move: 'G*5b',
      outcome: { status: 'checkmate', winner: 0 },
    });
  });

  test.each([
    [{}, '5e5d', 'no_piece'],
    [{}, '3c3d', 'not_own_piece'],
    [{}, '7g7e', 'illegal_piece_move'],
    [{ sfen: '4k4/8P/9/9/9/9/9/9/4K4 b - 1' }, '1b1a', 'must_promote'],
    [{ moves: ['7g7f', '3c3d'] }, '7f7e+', 'cannot_promote'],
    [{ sfen: MATE_IN_ONE }, 'P*5b', 'piece_not_in_hand'],
    [{ sfen: '4k4/9/4P4/9/9/9/9/9/4K4 b P 1' }, 'P*5b', 'nifu'],
    [{ sfen: '4k4/9/9/9/9/9/9/9/4K4 b N 1' }, 'N*5b', 'dead_drop'],
    [{ sfen: '4k4/9/4P4/9/9/9/9/9/4K4 w G 1', moves: ['5a4a'] }, '5i5h', 'ok'],
    [{ sfen: '4k4/9/4P4/9/9/9/9/9/4K4 w G 1', moves: ['5a4a'] }, '4a3a', 'not_own_piece'],
    [{}, 'zz', 'malformed_usi'],
  ])('in %j, %s is %s', (position, m, reason) => {
    const check = checkBestmove(position, move(m));
    if (reason === 'ok') expect(check.verdict).toBe('move');
    else expect(check).toEqual({ verdict: 'illegal_move', move: m, reason });
  });

  test('resign is always an answer; win counts only when the rules grant the impasse declaration', () => {
    expect(checkBestmove({}, { kind: 'resign' })).toEqual({ verdict: 'resign' });
    expect(checkBestmove({ sfen: 'RRBBGGGG1/4K4/SSSS5/9/9/9/9/9/k8 b - 1' }, { kind: 'win' })).toMatchObject({
      verdict: 'win',
      declaration: { valid: true, points: 28 },
    });
    expect(checkBestmove({ sfen: 'RRBGGGGS1/4K4/SSSPPPP2/9/9/9/9/9/k8 b - 1' }, { kind: 'win' })).toMatchObject({
      verdict: 'invalid_declaration',
      declaration: { valid: false, points: 27 },
    });
    expect(checkBestmove({}, { kind: 'win' })).toMatchObject({ verdict: 'invalid_declaration' });
  });

  test('a position that cannot be searched: bad SFEN, an illegal move in the list, a game already over', () => {
    expect(checkBestmove({ sfen: 'nonsense' }, move('7g7f'))).toMatchObject({
      verdict: 'bad_position',
      problem: { code: 'bad_sfen', error: { code: 'bad_format' } },
    });
    expect(checkPosition({ moves: ['7g7f', '3c3d', '7f7e', '3d3c'] })).toEqual({
      ok: false,
      problem: { code: 'illegal_move', ply: 4, move: '3d3c', reason: 'illegal_piece_move' },
    });
    expect(checkPosition({ sfen: MATE_IN_ONE, moves: ['G*5b'] })).toMatchObject({
      ok: false,
      problem: { code: 'game_over', outcome: { status: 'checkmate' } },
    });
    const fine = checkPosition({ sfen: HANDICAP_SFENS.rook, moves: ['5a4b'] });
    expect(fine.ok && fine.game.ply).toBe(1);
  });
});
