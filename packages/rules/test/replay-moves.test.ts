/**
 * replayMoves / replayRecord on small, hand-checked games: where a replay stops and why,
 * what a move after the end is, and how a recorded impasse declaration is judged.
 */
import { describe, expect, test } from 'vitest';
import { type Ending, type GameRecord, newDraft } from '../src/notation/record.js';
import { replayMoves, replayRecord } from '../src/replay.js';
import { START_SFEN } from '../src/sfen.js';

// Gote's king on 5a, a sente pawn on 5c, a gold in hand: G*5b mates (the pawn guards 5b).
const MATE_IN_ONE = '4k4/9/4P4/9/9/9/9/9/4K4 b G 1';
// Sente's rook checks along rank a, then rank b, while gote's king steps 9a <-> 9b.
const ROOK_CHASE = 'k8/9/9/9/9/9/9/9/4K3R b - 1';
const CHASE = ['1i1a', '9a9b', '1a1b', '9b9a', '1b1a', '9a9b', '1a1b', '9b9a', '1b1a', '9a9b', '1a1b', '9b9a', '1b1a'];

describe('replayMoves', () => {
  test('a legal opening stays ongoing, with the position reached', () => {
    expect(replayMoves(START_SFEN, ['7g7f', '3c3d'])).toEqual({
      plies: 2,
      sfen: 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3',
      status: 'ongoing',
    });
  });

  test.each([
    ['a malformed move', ['7g7f', '7g7f+x'], 2, 'malformed_usi'],
    ['a pawn moving two squares', ['7g7f', '3c3d', '2g2e'], 3, 'illegal_piece_move'],
    ['an empty origin', ['5e5d'], 1, 'no_piece'],
    ['moving the opponent’s piece', ['3c3d'], 1, 'not_own_piece'],
    ['a drop of a piece not in hand', ['B*5e'], 1, 'piece_not_in_hand'],
  ])('%s stops the replay at its ply', (_, moves, ply, reason) => {
    expect(replayMoves(START_SFEN, moves)).toMatchObject({
      plies: ply - 1,
      status: 'illegal',
      illegal: { ply, reason },
    });
  });

  test('checkmate, then any move is game_over', () => {
    expect(replayMoves(MATE_IN_ONE, ['G*5b'])).toMatchObject({ plies: 1, status: 'checkmate', winner: 0 });
    expect(replayMoves(MATE_IN_ONE, ['G*5b', '5a4a'])).toMatchObject({
      plies: 1,
      status: 'illegal',
      illegal: { ply: 2, reason: 'game_over' },
    });
  });

  test('perpetual check: rejected under default, the checker loses under jsa', () => {
    // the position after 1i1a occurs for the fourth time at ply 13, by the checker's move
    expect(replayMoves(ROOK_CHASE, CHASE.slice(0, 12))).toMatchObject({ plies: 12, status: 'ongoing' });
    expect(replayMoves(ROOK_CHASE, CHASE, 'default')).toMatchObject({
      plies: 12,
      status: 'illegal',
      illegal: { ply: 13, reason: 'perpetual_check' },
    });
    expect(replayMoves(ROOK_CHASE, CHASE, 'jsa')).toMatchObject({ plies: 13, status: 'perpetual_check', winner: 1 });
    expect(replayMoves(ROOK_CHASE, [...CHASE, '9a9b'], 'jsa')).toMatchObject({
      illegal: { ply: 14, reason: 'game_over' },
    });
  });

  test('a start that is not a valid position is reported at ply 0', () => {
    expect(replayMoves('not a position', ['7g7f'])).toEqual({
      plies: 0,
      sfen: 'not a position',
      status: 'illegal',
      illegal: { ply: 0, reason: 'bad_position' },
    });
  });
});

const recordOf = (sfen: string, moves: string[], kind: Ending['kind']): GameRecord => ({
  ...newDraft(sfen),
  moves,
  times: moves.map(() => null),
  ending: { kind, raw: '', seconds: null },
});

describe('replayRecord', () => {
  test('a stated resignation does not end the game by rule', () => {
    expect(replayRecord(recordOf(START_SFEN, ['7g7f'], 'toryo'))).toMatchObject({ plies: 1, status: 'ongoing' });
  });

  test('%KACHI that does not meet the rule loses for the declarer (the side to move)', () => {
    expect(replayRecord(recordOf(START_SFEN, ['7g7f'], 'kachi'))).toMatchObject({
      plies: 1,
      status: 'impasse',
      winner: 0,
    });
  });

  test('%KACHI after a mate leaves the mate', () => {
    expect(replayRecord(recordOf(MATE_IN_ONE, ['G*5b'], 'kachi'))).toMatchObject({ status: 'checkmate', winner: 0 });
  });
});
