import { START_SFEN } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { commentEvaluations, evaluationOfComment, parseEngineComment } from '../src/engine-comment.js';

const AFTER_7G7F = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';

describe('parseEngineComment', () => {
  test.each([
    ['* 30 -3334FU +2726FU', { score: 30, line: ['-3334FU', '+2726FU'] }],
    ['* -5000', { score: -5000, line: [] }],
    ['*+12 -3334FU', { score: 12, line: ['-3334FU'] }],
    // shogi-server's own records write a client's comment as `'**`
    ['** 56 -8384FU', { score: 56, line: ['-8384FU'] }],
    // free text after the line ends the line
    ['* 30 -3334FU (depth 20) +2726FU', { score: 30, line: ['-3334FU'] }],
  ])('%s', (text, expected) => {
    expect(parseEngineComment(text)).toEqual(expected);
  });

  test.each(['', 'good game', '*', '* thirty -3334FU', '30 -3334FU', '* 1234567890 -3334FU', "'* 30"])(
    'not an evaluation: %j',
    (text) => {
      expect(parseEngineComment(text)).toBeNull();
    },
  );
});

describe('evaluationOfComment', () => {
  test('the score turned to the side to move, the line as USI moves', () => {
    // after sente's 7g7f gote is to move: sente's +30 is gote's -30
    expect(evaluationOfComment(AFTER_7G7F, '* 30 -3334FU +2726FU')).toEqual({
      score: { kind: 'cp', value: -30 },
      pv: ['3c3d', '2g2f'],
    });
    expect(evaluationOfComment(START_SFEN, '* -40 +7776FU')).toEqual({
      score: { kind: 'cp', value: -40 },
      pv: ['7g7f'],
    });
  });

  test('the line stops at its first move that cannot be played', () => {
    // +2726FU after -3334FU is fine; -3334FU again is not (the pawn has moved)
    expect(evaluationOfComment(AFTER_7G7F, '* 0 -3334FU +2726FU -3334FU +2625FU')?.pv).toEqual(['3c3d', '2g2f']);
    // a move of the wrong side first: the commented move itself, which some clients repeat, is dropped
    expect(evaluationOfComment(AFTER_7G7F, '* 0 +7776FU -3334FU')?.pv).toEqual(['3c3d']);
    // nonsense moves: a score with no line
    expect(evaluationOfComment(AFTER_7G7F, '* 10 -9999FU')?.pv).toEqual([]);
  });

  test('no evaluation: null', () => {
    expect(evaluationOfComment(AFTER_7G7F, 'thanks for the game')).toBeNull();
    expect(evaluationOfComment('not a sfen', '* 10')).toBeNull();
  });
});

describe('commentEvaluations', () => {
  test('each evaluating comment on the position after its move, in ply order', () => {
    const found = commentEvaluations(
      START_SFEN,
      ['7g7f', '3c3d', '2g2f'],
      [
        { ply: 1, text: '* 30 -3334FU' },
        { ply: 2, text: 'hello' },
        { ply: 3, text: '* 45 -8384FU' },
      ],
    );
    expect(found).toEqual([
      { ply: 1, evaluation: { score: { kind: 'cp', value: -30 }, pv: ['3c3d'] } },
      { ply: 3, evaluation: { score: { kind: 'cp', value: -45 }, pv: ['8c8d'] } },
    ]);
  });

  test('nothing after a move the rules refuse', () => {
    const found = commentEvaluations(
      START_SFEN,
      ['7g7f', '7g7f', '2g2f'],
      [
        { ply: 1, text: '* 1' },
        { ply: 3, text: '* 3' },
      ],
    );
    expect(found.map((f) => f.ply)).toEqual([1]);
  });
});
