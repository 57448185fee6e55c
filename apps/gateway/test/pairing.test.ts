import { isRealTime, type TimeControl } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import {
  colorsConflict,
  compatible,
  poolKeyOf,
  rankCandidates,
  rematchSide,
  type SeekTerms,
  sideOf,
  timeControlKey,
} from '../src/domain/lobby/pairing.js';

const blitz: TimeControl = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 };
let n = 0;
const seek = (over: Partial<SeekTerms> = {}): SeekTerms => {
  n++;
  return {
    id: `s${String(n).padStart(3, '0')}`,
    playerId: `p${n}`,
    rating: 1500,
    timeControl: blitz,
    rated: true,
    ruleset: 'default',
    handicap: null,
    color: 'random',
    ratingRange: null,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, n)),
    ...over,
  };
};
const never = () => {
  throw new Error('the coin is only for two open preferences');
};

describe('compatible', () => {
  test.each([
    ['another time control', { timeControl: { kind: 'fischer', mainSeconds: 300, incrementSeconds: 10 } }],
    ['another byoyomi', { timeControl: { ...blitz, byoyomiSeconds: 30 } }],
    ['casual against rated', { rated: false }],
    ['another ruleset', { ruleset: 'jsa' }],
    ['a handicap against an even game', { handicap: 'bishop' }],
  ] as [string, Partial<SeekTerms>][])('not with %s', (_, over) => {
    expect(compatible(seek(), seek(over))).toBe(false);
  });

  test('the same time control written in another field order is the same', () => {
    const reordered = { periods: 1, byoyomiSeconds: 10, mainSeconds: 300, kind: 'byoyomi' } as TimeControl;
    expect(timeControlKey(reordered)).toBe(timeControlKey(blitz));
    expect(compatible(seek(), seek({ timeControl: reordered }))).toBe(true);
  });

  test('never with your own seek', () => {
    const mine = seek();
    expect(compatible(mine, seek({ playerId: mine.playerId }))).toBe(false);
  });

  test('ranges hold both ways', () => {
    const narrow = seek({ rating: 1500, ratingRange: { min: 1400, max: 1600 } });
    expect(compatible(narrow, seek({ rating: 1600 }))).toBe(true);
    expect(compatible(narrow, seek({ rating: 1601 }))).toBe(false);
    // the other's range must include me too
    expect(compatible(narrow, seek({ rating: 1550, ratingRange: { min: 1501, max: 2000 } }))).toBe(false);
    expect(compatible(seek({ rating: 1550, ratingRange: { min: 1501, max: 2000 } }), narrow)).toBe(false);
    expect(compatible(narrow, seek({ rating: 1550, ratingRange: { min: 1500, max: 2000 } }))).toBe(true);
  });

  test.each([
    ['sente', 'sente', false],
    ['gote', 'gote', false],
    ['sente', 'gote', true],
    ['random', 'sente', true],
    ['random', 'random', true],
  ] as const)('colours %s and %s: compatible %s', (a, b, ok) => {
    expect(colorsConflict(a, b)).toBe(!ok);
    expect(compatible(seek({ color: a }), seek({ color: b }))).toBe(ok);
  });
});

describe('rankCandidates', () => {
  test('the closest rating first, then the oldest, and only compatible ones', () => {
    const me = seek({ rating: 1500 });
    const far = seek({ rating: 1800 });
    const closeOld = seek({ rating: 1450 });
    const closeNew = seek({ rating: 1550 });
    const closest = seek({ rating: 1520 });
    const excluded = seek({ rating: 1500, ratingRange: { min: 1600, max: 1700 } });
    const ranked = rankCandidates(me, [far, closeNew, excluded, closeOld, closest]);
    expect(ranked.map((s) => s.id)).toEqual([closest.id, closeOld.id, closeNew.id, far.id]);
  });

  test('nothing when none is compatible', () => {
    const me = seek({ color: 'sente' });
    expect(rankCandidates(me, [seek({ color: 'sente' }), seek({ playerId: me.playerId })])).toEqual([]);
  });
});

describe('sides', () => {
  test('a stated preference wins, the other gets the other side', () => {
    expect(sideOf('sente', 'random', never)).toBe('sente');
    expect(sideOf('random', 'sente', never)).toBe('gote');
    expect(sideOf('gote', 'sente', never)).toBe('gote');
  });

  test('two open preferences toss the coin', () => {
    expect(sideOf('random', 'random', () => true)).toBe('sente');
    expect(sideOf('random', 'random', () => false)).toBe('gote');
  });

  test('handicap roles: gote gives the handicap, so a giver asks for gote and pairs with a receiver', () => {
    const giver = seek({ handicap: 'bishop', color: 'gote' });
    const receiver = seek({ handicap: 'bishop', color: 'sente' });
    const anotherGiver = seek({ handicap: 'bishop', color: 'gote' });
    expect(compatible(giver, receiver)).toBe(true);
    expect(compatible(giver, anotherGiver)).toBe(false);
    expect(sideOf(receiver.color, giver.color, never)).toBe('sente');
  });

  test('a rematch swaps colours, but the handicap giver stays the giver', () => {
    expect(rematchSide('sente', null)).toBe('gote');
    expect(rematchSide('gote', null)).toBe('sente');
    expect(rematchSide('gote', 'rook')).toBe('gote');
    expect(rematchSide('sente', 'rook')).toBe('sente');
  });
});

test('a pool is the terms seeks pair on', () => {
  expect(poolKeyOf(seek())).toBe(poolKeyOf(seek({ color: 'sente', rating: 1900 })));
  expect(poolKeyOf(seek())).not.toBe(poolKeyOf(seek({ rated: false })));
  expect(poolKeyOf(seek())).not.toBe(poolKeyOf(seek({ handicap: 'lance' })));
  expect(poolKeyOf(seek())).not.toBe(poolKeyOf(seek({ ruleset: 'jsa' })));
});

test('byoyomi and Fischer games are real-time (one at a time); correspondence and unlimited are not', () => {
  expect(isRealTime(blitz)).toBe(true);
  const fischer = { kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 } as const;
  const correspondence = { kind: 'correspondence', daysPerMove: 3 } as const;
  expect(isRealTime(fischer)).toBe(true);
  expect(isRealTime(correspondence)).toBe(false);
  expect(isRealTime({ kind: 'unlimited' })).toBe(false);
});
