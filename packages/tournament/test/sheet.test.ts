import { describe, expect, it } from 'vitest';
import { type ScoringRules, type SheetGame, sheetOf, sheetScoresString } from '../src/index.js';

// Each row is a player's games in order ('W' win, 'D' draw, 'L' loss; a number after it is the
// game's plies, 40 when absent; 'b' before it: the player berserked) and the points each game
// scores, by lila's and lishogi's arena/ArenaSheet.scala (lishogi V2).
const ARENA: ScoringRules = { streakable: true, berserkable: true, drawRules: true };

function games(spec: string): SheetGame[] {
  return spec.split(' ').map((g) => {
    const m = /^(b?)([WDL])(\d*)$/.exec(g);
    if (m === null) throw new Error(`bad game ${g}`);
    const result = m[2] === 'W' ? 'win' : m[2] === 'D' ? 'draw' : 'loss';
    return { result, plies: m[3] === '' ? 40 : Number(m[3]), berserk: m[1] === 'b' } as const;
  });
}

const points = (spec: string, rules = ARENA) => sheetOf(games(spec), rules).scores.map((s) => s.value);

describe('arena sheet: points per game (lila/lishogi ArenaSheet)', () => {
  it.each([
    // win 2, draw 1, loss 0 (Score.value: ResWin 2, ResDraw 1, else 0)
    ['W', [2]],
    ['D', [1]],
    ['L', [0]],
    // the fire: after two wins in a row (isOnFire), a win is 4 and a draw 2 (Flag Double)
    ['W W W', [2, 2, 4]],
    ['W W W W', [2, 2, 4, 4]],
    ['W W D', [2, 2, 2]],
    // ... until a non-win: the draw ends it, the next win is 2 again
    ['W W D W', [2, 2, 2, 2]],
    ['W W L W W W', [2, 2, 0, 2, 2, 4]],
    ['W L W W', [2, 0, 2, 2]],
    // berserk: +1 on a win of at least 14 plies (notSoQuickFinish), nothing on a loss or a draw
    ['bW', [3]],
    ['bW13', [2]],
    ['bW14', [3]],
    ['bL', [0]],
    ['bD', [1]],
    // berserk on fire: 4 + 1
    ['W W bW', [2, 2, 5]],
    // a quick draw (under 20 plies, Pairing.quickDraw) scores 0, also on fire
    ['D19', [0]],
    ['D20', [1]],
    ['W W D10', [2, 2, 0]],
    // lishogi V2: a draw after a draw with no win between scores 0 (Flag Null), losses between do not break it
    ['D D', [1, 0]],
    ['D L D', [1, 0, 0]],
    ['D W D', [1, 2, 1]],
    // ... unless the draw is a long game (60 plies or more, Pairing.longGame)
    ['D D60', [1, 1]],
    ['D D59', [1, 0]],
    // a quick draw counts as a draw for the draw streak (ResDQ is neither a win nor a loss)
    ['D10 D', [0, 0]],
  ])('%s scores %j', (spec, expected) => {
    expect(points(spec)).toEqual(expected);
  });

  it('totals the points and reports the fire after the last two wins', () => {
    const sheet = sheetOf(games('W bW W'), ARENA);
    expect(sheet.total).toBe(2 + 3 + 4);
    expect(sheet.fire).toBe(true);
    expect(sheetOf(games('W W L'), ARENA).fire).toBe(false);
  });

  it("writes lichess's scores string, the most recent game first", () => {
    expect(sheetScoresString(sheetOf(games('W W W L'), ARENA))).toBe('0422');
  });

  it('marks a win that starts or continues a streak, as lila flags StreakStarter', () => {
    const flags = sheetOf(games('W W W L W L'), ARENA).scores.map((s) => s.flag);
    expect(flags).toEqual(['streak', 'streak', 'double', 'normal', 'normal', 'normal']);
    // the last game so far may start a streak
    expect(sheetOf(games('L W'), ARENA).scores.map((s) => s.flag)).toEqual(['normal', 'streak']);
  });
});

describe('arena sheet: the switches of an event', () => {
  it('streakable off: no fire, every win 2', () => {
    const rules = { ...ARENA, streakable: false };
    expect(points('W W W D', rules)).toEqual([2, 2, 2, 1]);
    expect(sheetOf(games('W W'), rules).fire).toBe(false);
  });
  it('berserkable off: a berserk win is a win', () => {
    expect(points('bW W', { ...ARENA, berserkable: false })).toEqual([2, 2]);
  });
  it('draw rules off (a robin): every draw 1, however short or repeated', () => {
    expect(points('D10 D D', { streakable: false, berserkable: false, drawRules: false })).toEqual([1, 1, 1]);
  });
});
