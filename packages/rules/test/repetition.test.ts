import { describe, expect, test } from 'vitest';
import { COLORS, type Outcome, PositionHistory, parseSfen, RULESETS, type Ruleset } from '../src/index.js';
import { fixture, type RepetitionCase } from './fixtures.js';

const newGame = (sfen: string, ruleset: Ruleset): PositionHistory => {
  const pos = parseSfen(sfen);
  if (!pos.ok) throw new Error(pos.error.message);
  return new PositionHistory(pos.value, ruleset);
};

/** Plays moves until the game ends or a move is refused. */
function playOut(
  game: PositionHistory,
  moves: string[],
): { ended?: { ply: number; outcome: Outcome }; refused?: { ply: number; reason: string } } {
  for (const usi of moves) {
    const r = game.playUsi(usi);
    if (!r.ok) return { refused: { ply: game.ply + 1, reason: r.error } };
    if (r.value.status !== 'ongoing') return { ended: { ply: game.ply, outcome: r.value } };
  }
  return {};
}

// repetition-cases.json: written from RULES.md, cross-checked (fixtures README).
const cases = fixture<RepetitionCase[]>('repetition-cases.json');
const table = cases.flatMap((c) => RULESETS.map((ruleset) => ({ ...c, ruleset })));

describe('repetition cases under both rulesets', () => {
  test.each(table)('$id under $ruleset', (c) => {
    const { ended, refused } = playOut(newGame(c.sfen, c.ruleset), c.moves.split(' '));
    expect(refused).toBeUndefined();
    const { sennichite_at_ply: at, perpetual_check_by: checker } = c.expect;
    if (at === null) return expect(ended).toBeUndefined();
    expect(ended?.ply).toBe(at);
    if (checker === null) expect(ended?.outcome).toEqual({ status: 'sennichite' });
    // the checked side completes these repetitions, so both rulesets score the checker's loss
    else expect(ended?.outcome).toEqual({ status: 'perpetual_check', winner: COLORS.indexOf(checker) === 0 ? 1 : 0 });
  });
});

describe('perpetual check completed by the checker', () => {
  // Gote to move in check from rook 3a; the start position recurs after every 4 plies, and
  // the 12th ply (sente's 3b3a, a check like all sente's moves) is its fourth occurrence.
  const sfen = '6R1k/9/9/9/9/9/9/9/K8 w - 1';
  const moves = '1a1b 3a3b 1b1a 3b3a 1a1b 3a3b 1b1a 3b3a 1a1b 3a3b 1b1a 3b3a'.split(' ');

  test('default: the completing check is illegal and the checker must play another move', () => {
    const game = newGame(sfen, 'default');
    expect(playOut(game, moves)).toEqual({ refused: { ply: 12, reason: 'perpetual_check' } });
    expect(game.ply).toBe(11);
    expect(game.outcome.status).toBe('ongoing');
    expect(game.playUsi('3b4b').ok).toBe(true); // a quiet move is fine
  });

  test('jsa: the move stands and the checker loses', () => {
    const { ended } = playOut(newGame(sfen, 'jsa'), moves);
    expect(ended).toEqual({ ply: 12, outcome: { status: 'perpetual_check', winner: 1 } });
  });

  test('checks interrupted once make it plain sennichite', () => {
    // The start recurs at plies 4, 8, 12; sente's 3b3c in the first cycle was no check, so
    // not every sente move since the first occurrence was a check: a draw, not a loss.
    const game = newGame('8k/6R2/9/9/9/9/9/9/K8 b - 1', 'jsa');
    const quiet = '3b3c 1a1b 3c3b 1b1a'.split(' ');
    const checks = '3b3a 1a1b 3a3b 1b1a'.split(' ');
    const { ended } = playOut(game, [...quiet, ...checks, ...checks]);
    expect(ended).toEqual({ ply: 12, outcome: { status: 'sennichite' } });
  });
});

describe('game ends', () => {
  test('checkmate is detected and later moves are refused', () => {
    // fool's-mate-like: gold drop mate at 5b supported by the pawn on 5c
    const game = newGame('4k4/9/4P4/9/9/9/9/9/4K4 b G 1', 'default');
    expect(game.playUsi('G*5b').ok && game.outcome).toEqual({ status: 'checkmate', winner: 0 });
    expect(game.playUsi('5a4a')).toEqual({ ok: false, error: 'game_over' });
  });

  test.each([
    ['default', null],
    ['jsa', 0],
  ] as const)('stalemate under %s: winner %s', (ruleset, winner) => {
    // gote's lone king on 1a, nothing in hand; after 2d2c the gold covers 2b and 1b, the
    // silver 3b covers 2a, and nothing attacks 1a: no legal move without being in check
    const game = newGame('8k/6S2/9/7G1/9/9/9/9/K8 b - 1', ruleset);
    expect(game.playUsi('2d2c')).toEqual({ ok: true, value: { status: 'stalemate', winner } });
  });
});
