import { START_SFEN } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { boardOfSfen, moveSquares, usiSquare } from '../src/shogi/model.js';
import { japaneseMoves, notatedMoves } from '../src/shogi/notation.js';

describe('Japanese move notation', () => {
  test.each([
    ['a pawn push, then the reply', START_SFEN, ['7g7f', '3c3d'], ['▲７六歩', '△３四歩']],
    [
      'a promoting capture, a recapture on the same square (同), a drop (打)',
      START_SFEN,
      ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'],
      ['▲７六歩', '△３四歩', '▲２二角成', '△同　銀', '▲４五角'],
    ],
    // both golds reach 5h: the mover's left one, as players write it (KI2), not the origin
    ['two pieces that can reach the square', START_SFEN, ['6i5h'], ['▲５八金左']],
    ['the other gold', START_SFEN, ['4i5h'], ['▲５八金右']],
    // gote's right is the high files: its gold on 4一 is on its left
    ['gote’s 左', START_SFEN, ['7g7f', '4a5b'], ['▲７六歩', '△５二金左']],
    ['gote’s 右', START_SFEN, ['7g7f', '6a5b'], ['▲７六歩', '△５二金右']],
    // 打 only where a piece on the board reaches the square too
    ['a drop beside a bishop that reaches', '4k4/9/9/9/9/9/9/9/B3K4 b B 1', ['B*5e'], ['▲５五角打']],
    ['a drop no piece on the board reaches', '4k4/9/9/9/9/9/9/9/B3K4 b B 1', ['B*5d'], ['▲５四角']],
  ])('%s', (_name, sfen, moves, expected) => {
    expect(japaneseMoves(sfen, 'default', moves)).toEqual(expected);
  });
});

describe('board model', () => {
  test('squares are numbered from 9a, row by row, as USI names them', () => {
    expect(usiSquare(0)).toBe('9a');
    expect(usiSquare(80)).toBe('1i');
    expect(moveSquares('7g7f')).toEqual({ from: 6 * 9 + 2, to: 5 * 9 + 2 });
    expect(moveSquares('P*5e')).toEqual({ from: null, to: 4 * 9 + 4 });
  });

  test('a position from its SFEN: pieces, hands, check', () => {
    const board = boardOfSfen('4k4/4G4/4P4/9/8p/2P6/9/9/4K4 w - 6');
    expect(board?.squares.filter((p) => p !== null)).toHaveLength(6);
    expect(board?.squares[4]).toEqual({ type: 8, gote: true });
    expect(board?.inCheck).toBe(true);
    expect(board?.checkedKing).toBe(4);
    expect(boardOfSfen('lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPP2/1B5R1/LNSGKGSNL b 2Pb 1')?.hands).toEqual([
      [[1, 2]],
      [[5, 1]],
    ]);
    expect(boardOfSfen('not a position')).toBeNull();
  });
});

describe('the notations a move list can be written in', () => {
  const line = ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e', '6a5b'];
  test.each([
    ['western', ['P-7f', 'P-3d', 'Bx2b+', 'Sx2b', 'B*4e', 'G6a-5b']],
    ['kif', ['７六歩(77)', '３四歩(33)', '２二角成(88)', '同　銀(31)', '４五角打', '５二金(61)']],
    ['csa', ['+7776FU', '-3334FU', '+8822UM', '-3122GI', '+0045KA', '-6152KI']],
    ['usi', line],
  ] as const)('%s', (notation, expected) => {
    expect(notatedMoves(START_SFEN, 'default', line, notation)).toEqual(expected);
  });

  test('a declined promotion is marked = in Western, 不成 in KIF', () => {
    const sfen = '4k4/9/8p/4P4/9/9/2P6/9/4K4 b G 1';
    expect(notatedMoves(sfen, 'default', ['5d5c'], 'western')).toEqual(['P-5c=']);
    expect(notatedMoves(sfen, 'default', ['5d5c'], 'kif')).toEqual(['５三歩不成(54)']);
  });
});
