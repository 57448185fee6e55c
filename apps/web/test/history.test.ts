import { START_SFEN } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { goTo, isLive, LIVE, movesSinceLeft, shownPly, step, stepForKey } from '../src/shogi/cursor.js';
import { GameHistory } from '../src/shogi/history.js';
import { boardOfSfen } from '../src/shogi/model.js';

const MOVES = ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'];
const square = (usi: string) => ('987654321'.indexOf(usi[0] ?? '') + 'abcdefghi'.indexOf(usi[1] ?? '') * 9) as number;

describe('game history', () => {
  const history = new GameHistory(START_SFEN, 'default');
  for (const usi of MOVES) history.play(usi);

  test('keeps the board after every move, replayed from the initial SFEN', () => {
    expect(history.length).toBe(5);
    expect(history.boardAt(0)).toEqual(boardOfSfen(START_SFEN));
    expect(history.boardAt(1).squares[square('7f')]).toEqual({ type: 1, gote: false });
    expect(history.boardAt(1).squares[square('7g')]).toBeNull();
    // after ▲２二角成 the bishop is promoted (horse) and sente holds gote's bishop
    expect(history.boardAt(3).squares[square('2b')]).toEqual({ type: 13, gote: false });
    expect(history.boardAt(3).hands[0]).toEqual([[5, 1]]);
    // △同銀 took it back; ▲４五角 dropped sente's
    expect(history.boardAt(4).hands[1]).toEqual([[5, 1]]);
    expect(history.boardAt(5).hands[0]).toEqual([]);
    expect(history.boardAt(5).squares[square('4e')]).toEqual({ type: 5, gote: false });
  });

  test('clamps a ply outside the game, and names the move that reached each ply', () => {
    expect(history.boardAt(-3)).toBe(history.boardAt(0));
    expect(history.boardAt(99)).toBe(history.boardAt(5));
    expect(history.moveAt(0)).toBeNull();
    expect(history.moveAt(1)).toBe('7g7f');
    expect(history.moveAt(5)).toBe('B*4e');
    // KI2: no bishop on the board reaches 4五, so the drop needs no 打
    expect(history.kifu).toEqual(['▲７六歩', '△３四歩', '▲２二角成', '△同　銀', '▲４五角']);
  });

  test('a move that does not replay changes nothing', () => {
    const h = new GameHistory(START_SFEN, 'default');
    expect(h.play('7g7f')).toBe('▲７六歩');
    expect(h.play('7f7e')).toBeNull(); // gote to move
    expect(h.length).toBe(1);
    expect(h.moves).toEqual(['7g7f']);
  });
});

describe('the shown position', () => {
  test('live follows the latest ply as moves arrive', () => {
    expect(shownPly(LIVE, 0)).toBe(0);
    expect(shownPly(LIVE, 7)).toBe(7);
    expect(movesSinceLeft(LIVE, 7)).toBe(0);
  });

  test('stepped back, it stays put while the game moves on, and counts the new moves', () => {
    const back = step(LIVE, 'back', 5);
    expect(isLive(back)).toBe(false);
    expect(shownPly(back, 5)).toBe(4);
    expect(movesSinceLeft(back, 5)).toBe(0);
    // two moves arrive: the view does not move
    expect(shownPly(back, 7)).toBe(4);
    expect(movesSinceLeft(back, 7)).toBe(2);
    // stepping on does not forget what is new
    const on = step(back, 'forward', 7);
    expect(shownPly(on, 7)).toBe(5);
    expect(movesSinceLeft(on, 7)).toBe(2);
  });

  test('reaching the latest ply, by ▶ or ⏭, follows the game again', () => {
    const back = step(LIVE, 'back', 3);
    expect(step(back, 'forward', 3)).toEqual(LIVE);
    expect(step(step(LIVE, 'first', 3), 'last', 9)).toEqual(LIVE);
    expect(goTo(back, 3, 3)).toEqual(LIVE);
  });

  test('the ends are clamped: ◀ at the start and ▶ when live stay put', () => {
    const start = step(LIVE, 'first', 4);
    expect(shownPly(start, 4)).toBe(0);
    expect(shownPly(step(start, 'back', 4), 4)).toBe(0);
    expect(step(LIVE, 'forward', 4)).toEqual(LIVE);
    expect(shownPly(goTo(LIVE, -2, 4), 4)).toBe(0);
    // a game without moves has only its live position
    expect(step(LIVE, 'back', 0)).toEqual(LIVE);
  });

  test('a click on a move shows the position after it', () => {
    const c = goTo(LIVE, 2, 6);
    expect(shownPly(c, 6)).toBe(2);
    expect(movesSinceLeft(goTo(c, 4, 8), 8)).toBe(2); // still counted from where the user left live
  });

  test('the arrow keys, Home and End', () => {
    expect(stepForKey('ArrowLeft')).toBe('back');
    expect(stepForKey('ArrowRight')).toBe('forward');
    expect(stepForKey('Home')).toBe('first');
    expect(stepForKey('End')).toBe('last');
    expect(stepForKey('ArrowUp')).toBeNull();
    expect(stepForKey('a')).toBeNull();
  });
});
