import { formatUsi, parseUsi, START_SFEN } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { newGame } from '../src/shogi/model.js';
import { judgmentCounts, scoreText, winningChance } from '../src/views/analysis/eval.js';
import { MoveTree } from '../src/views/analysis/tree.js';
import { countdownSecond, countdownSound } from '../src/views/game/countdown.js';
import { asIfOtherToMove, boardAfter, premoveVerdict } from '../src/views/game/pending-moves.js';
import { noDropReason } from '../src/views/game/selection.js';
import { DEFAULT_SETTINGS, settingsOf } from '../src/views/settings-store.js';

describe('the analysis tree', () => {
  test('a move off the game line branches; the same move again follows it; back to the game line', () => {
    const tree = new MoveTree(START_SFEN, ['7g7f', '3c3d', '2g2f']);
    const one = tree.mainlineAt(1);
    expect(one.usi).toBe('7g7f');
    const branch = tree.play(one, '8c8d');
    expect(branch?.mainline).toBe(false);
    expect(tree.play(one, '8c8d')).toBe(branch);
    expect(tree.play(one, '3c3d')).toBe(tree.mainlineAt(2)); // the game's own move follows the line
    expect(one.children.map((c) => c.usi)).toEqual(['3c3d', '8c8d']);
    const deeper = branch ? tree.play(branch, '2g2f') : null;
    expect(deeper?.japanese).toBe('▲２六歩');
    expect(deeper ? tree.mainlineAncestor(deeper) : null).toBe(one);
    expect(tree.play(one, '5a5a')).toBeNull();
    expect(tree.lineEnd(tree.root).ply).toBe(3);
  });
});

describe('the engine verdicts', () => {
  test('scores as players write them, winning chances, judgments by side', () => {
    expect(scoreText({ cp: 35 }, 'sente')).toBe('+0.35');
    expect(scoreText({ cp: -120 }, 'gote')).toBe('−1.20');
    expect(scoreText({ mate: -3 }, 'sente')).toBe('Mate in 3 for gote');
    expect(scoreText({ mate: 0 }, 'gote')).toBe('Gote is mated');
    expect(winningChance({ cp: 0 })).toBe(0);
    expect(winningChance({ mate: 5 })).toBe(1);
    expect(winningChance({ cp: 99_999 })).toBeCloseTo(winningChance({ cp: 5500 }));
    const plies = [1, 2, 3].map((ply) => ({
      ply,
      score: { cp: 0 },
      best: null,
      pv: [],
      judgment: ply === 2 ? ('blunder' as const) : null,
    }));
    expect(judgmentCounts(plies, 'sente').gote.blunder).toBe(1);
    expect(judgmentCounts(plies, 'gote').sente.blunder).toBe(1); // a handicap game: gote moves first
  });
});

describe('moves not yet sent', () => {
  test('a premove is picked as if it were the player to move, and played only when legal then', () => {
    const game = newGame(START_SFEN, 'default');
    game.playUsi('7g7f');
    const other = asIfOtherToMove(game);
    expect(other?.position.side).toBe(0);
    expect(premoveVerdict(game, parseUsi('3c3d'))).toEqual({ play: true });
    expect(premoveVerdict(game, parseUsi('7f7e'))).toMatchObject({ play: false });
    const after = boardAfter(game, parseUsi('3c3d'));
    expect(after?.squares[3 * 9 + 6]).toEqual({ type: 1, gote: true }); // 3d
    expect(formatUsi(parseUsi('8h2b+'))).toBe('8h2b+');
  });

  test('a hand piece with nowhere to go says why', () => {
    const game = newGame('4k4/9/8p/9/9/9/PPPPPPPPP/9/4K4 b P 1', 'default');
    expect(noDropReason(game, 1)).toBe(
      'No legal drop for the pawn: you have a pawn on every file with room (two pawns on a file, nifu).',
    );
  });
});

test('the byoyomi countdown beeps the last ten seconds of a period, higher for the last three', () => {
  const face = (ms: number, byoyomi: boolean) => ({ text: '', periods: 1, byoyomi, low: true, ms });
  expect(countdownSecond(face(9_200, true))).toBe(10);
  expect(countdownSecond(face(10_200, true))).toBeNull();
  expect(countdownSecond(face(5_000, false))).toBeNull(); // main time does not beep
  expect(countdownSound(3)).toBe('last-beep');
  expect(countdownSound(4)).toBe('beep');
});

test('settings read back with a default for anything missing or mangled', () => {
  expect(settingsOf(null, 'kanji')).toEqual(DEFAULT_SETTINGS);
  expect(settingsOf({ boardTheme: 'walnut', sound: false, premoves: 'yes', pieceTheme: 'plastic' }, 'latin')).toEqual({
    ...DEFAULT_SETTINGS,
    pieceSet: 'latin',
    boardTheme: 'walnut',
    sound: false,
  });
});
