import { describe, expect, test } from 'vitest';
import {
  type CursorFrame,
  clampPlace,
  cursorStart,
  type Direction,
  keyAction,
  moveCursor,
  type Place,
  samePlace,
} from '../src/shogi/keyboard-cursor.js';

// the client's board index of a USI square: row 0 is rank a, col 0 is file 9
const sq = (usi: string): Place => ({
  square: '987654321'.indexOf(usi[0] ?? '') + 'abcdefghi'.indexOf(usi[1] ?? '') * 9,
});
const name = (p: Place): string =>
  'square' in p ? `${'987654321'[p.square % 9]}${'abcdefghi'[(p.square / 9) | 0]}` : `${p.stand}:${p.slot}`;

const WIDE: CursorFrame = { flipped: false, layout: 'beside', top: 2, bottom: 3 };
const PHONE: CursorFrame = { flipped: false, layout: 'stacked', top: 2, bottom: 3 };

/** Where a run of arrow keys takes the cursor, each stop named. */
function walk(from: Place, keys: string, f: CursorFrame): string[] {
  const dirs: Record<string, Direction> = { U: 'up', D: 'down', L: 'left', R: 'right' };
  const stops: string[] = [];
  let at = from;
  for (const k of keys) {
    at = moveCursor(at, dirs[k] as Direction, f);
    stops.push(name(at));
  }
  return stops;
}

describe('keys on the board', () => {
  const none = { altKey: false, ctrlKey: false, metaKey: false, shiftKey: false };
  test.each([
    ['ArrowUp', { move: 'up' }],
    ['ArrowDown', { move: 'down' }],
    ['ArrowLeft', { move: 'left' }],
    ['ArrowRight', { move: 'right' }],
    ['Enter', { press: true }],
    [' ', { press: true }],
    // left to the page: the move list's keys, flip, cancel, the tab order
    ['Home', null],
    ['End', null],
    ['f', null],
    ['Escape', null],
    ['Tab', null],
  ])('%j', (key, action) => {
    expect(keyAction(key, none)).toEqual(action);
  });

  test('a key with a modifier is not the cursor’s (the browser’s and the page’s shortcuts)', () => {
    for (const mod of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey'] as const) {
      expect(keyAction('ArrowLeft', { ...none, [mod]: true })).toBeNull();
      expect(keyAction('Enter', { ...none, [mod]: true })).toBeNull();
    }
  });
});

describe('the cursor on the board', () => {
  test('starts on the last move’s square, or on 5e before the first move', () => {
    expect(cursorStart({ to: 7 })).toBe(7);
    expect(name({ square: cursorStart(null) })).toBe('5e');
  });

  test('the arrows follow the board as drawn: sente at the bottom', () => {
    // 5e: up is toward rank a, left toward file 9
    expect(walk(sq('5e'), 'ULDDRR', WIDE)).toEqual(['5d', '6d', '6e', '6f', '5f', '4f']);
  });

  test('flipped (gote at the bottom), every arrow goes the other way on the board', () => {
    const flipped = { ...WIDE, flipped: true };
    expect(walk(sq('5e'), 'ULDDRR', flipped)).toEqual(['5f', '4f', '4e', '4d', '5d', '6d']);
    // the drawn top left square is 1i
    expect(walk(sq('1i'), 'UL', flipped)).toEqual(['1i', 'top:0']);
  });

  test('an edge with no stand beyond it stops the cursor', () => {
    expect(walk(sq('9a'), 'UU', WIDE)).toEqual(['9a', '9a']);
    expect(walk(sq('1i'), 'DD', WIDE)).toEqual(['1i', '1i']);
    expect(walk(sq('9i'), 'L', PHONE)).toEqual(['9i']);
    expect(walk(sq('1a'), 'R', PHONE)).toEqual(['1a']);
  });

  test('an empty stand is not on the path', () => {
    expect(walk(sq('9c'), 'L', { ...WIDE, top: 0 })).toEqual(['9c']);
    expect(walk(sq('5i'), 'D', { ...PHONE, bottom: 0 })).toEqual(['5i']);
  });
});

describe('onto the stands and back, beside the board (a wide screen)', () => {
  test('left of file 9 is the top stand, its pieces hanging from rank a down', () => {
    expect(walk(sq('9a'), 'L', WIDE)).toEqual(['top:0']);
    expect(walk(sq('9b'), 'L', WIDE)).toEqual(['top:1']);
    // below its last piece: the last piece
    expect(walk(sq('9g'), 'L', WIDE)).toEqual(['top:1']);
    // down and up the column, stopping at its ends; right goes back to the board level with the piece
    expect(walk(sq('9a'), 'LDDUUUR', WIDE)).toEqual(['top:0', 'top:1', 'top:1', 'top:0', 'top:0', 'top:0', '9a']);
    expect(walk(sq('9b'), 'LR', WIDE)).toEqual(['top:1', '9b']);
    // left of the stand is nothing
    expect(walk(sq('9a'), 'LL', WIDE)).toEqual(['top:0', 'top:0']);
  });

  test('right of file 1 is the bottom stand, its pieces standing on rank i', () => {
    expect(walk(sq('1i'), 'R', WIDE)).toEqual(['bottom:2']);
    expect(walk(sq('1h'), 'R', WIDE)).toEqual(['bottom:1']);
    expect(walk(sq('1g'), 'R', WIDE)).toEqual(['bottom:0']);
    expect(walk(sq('1a'), 'R', WIDE)).toEqual(['bottom:0']);
    expect(walk(sq('1i'), 'RUUL', WIDE)).toEqual(['bottom:2', 'bottom:1', 'bottom:0', '1g']);
    expect(walk(sq('1i'), 'RDRL', WIDE)).toEqual(['bottom:2', 'bottom:2', 'bottom:2', '1i']);
  });
});

describe('onto the stands and back, above and below the board (a phone)', () => {
  test('above rank a is the top stand, each piece over a file from the left', () => {
    expect(walk(sq('9a'), 'U', PHONE)).toEqual(['top:0']);
    expect(walk(sq('8a'), 'U', PHONE)).toEqual(['top:1']);
    expect(walk(sq('3a'), 'U', PHONE)).toEqual(['top:1']);
    expect(walk(sq('9a'), 'URRLD', PHONE)).toEqual(['top:0', 'top:1', 'top:1', 'top:0', '9a']);
    expect(walk(sq('8a'), 'UUD', PHONE)).toEqual(['top:1', 'top:1', '8a']);
  });

  test('below rank i is the bottom stand', () => {
    expect(walk(sq('7i'), 'D', PHONE)).toEqual(['bottom:2']);
    expect(walk(sq('9i'), 'DRRRU', PHONE)).toEqual(['bottom:0', 'bottom:1', 'bottom:2', 'bottom:2', '7i']);
  });

  test('flipped, the bottom stand is still the one drawn below', () => {
    const flipped = { ...PHONE, flipped: true };
    // the drawn bottom left square is 1a
    expect(walk(sq('1a'), 'DU', flipped)).toEqual(['bottom:0', '1a']);
    // the drawn top left square is 1i, the top right 9i
    expect(walk(sq('1i'), 'U', flipped)).toEqual(['top:0']);
    expect(walk(sq('9i'), 'U', flipped)).toEqual(['top:1']);
  });
});

describe('a place that went away', () => {
  test('a slot past the stand’s end is its last piece; an emptied stand gives the square beside it', () => {
    expect(clampPlace({ stand: 'bottom', slot: 5 }, WIDE)).toEqual({ stand: 'bottom', slot: 2 });
    expect(name(clampPlace({ stand: 'bottom', slot: 0 }, { ...WIDE, bottom: 0 }))).toBe('1i');
    expect(name(clampPlace({ stand: 'top', slot: 1 }, { ...PHONE, top: 0 }))).toBe('8a');
    // and an arrow from there starts from the place that is still there
    expect(walk({ stand: 'bottom', slot: 5 }, 'L', WIDE)).toEqual(['1i']);
  });

  test('places compare by what they are', () => {
    expect(samePlace(sq('5e'), sq('5e'))).toBe(true);
    expect(samePlace(sq('5e'), { stand: 'top', slot: 0 })).toBe(false);
    expect(samePlace({ stand: 'top', slot: 0 }, { stand: 'top', slot: 0 })).toBe(true);
    expect(samePlace({ stand: 'top', slot: 0 }, { stand: 'bottom', slot: 0 })).toBe(false);
  });
});
