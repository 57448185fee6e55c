import { HANDICAP_SFENS, START_SFEN } from '@shogi/rules';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_TIMEOUTS,
  type EngineConfig,
  engineConfigProblem,
  formatCommand,
  searchBudgetMs,
  searchDeadlineMs,
  sideToMove,
  type UsiCommand,
} from '../src/index.js';
import { usiMove } from './arbitraries.js';

const line = (command: UsiCommand): string => {
  const r = formatCommand(command);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};
const errorOf = (command: unknown): string | undefined => {
  const r = formatCommand(command as UsiCommand);
  return r.ok ? undefined : r.error.code;
};

describe('commands to the engine', () => {
  test('the bare commands', () => {
    for (const type of ['usi', 'isready', 'usinewgame', 'stop', 'quit'] as const) expect(line({ type })).toBe(type);
    expect(line({ type: 'gameover', result: 'win' })).toBe('gameover win');
    expect(line({ type: 'gameover', result: 'draw' })).toBe('gameover draw');
  });

  test('setoption: names with spaces, every value type, the empty string as <empty>, buttons without value', () => {
    expect(line({ type: 'setoption', name: 'Skill Level', value: -5 })).toBe('setoption name Skill Level value -5');
    expect(line({ type: 'setoption', name: 'Ponder', value: false })).toBe('setoption name Ponder value false');
    expect(line({ type: 'setoption', name: 'UCI_Variant', value: 'shogi' })).toBe(
      'setoption name UCI_Variant value shogi',
    );
    expect(line({ type: 'setoption', name: 'EvalDir', value: 'my evals/x' })).toBe(
      'setoption name EvalDir value my evals/x',
    );
    expect(line({ type: 'setoption', name: 'SyzygyPath', value: '' })).toBe('setoption name SyzygyPath value <empty>');
    expect(line({ type: 'setoption', name: 'Clear Hash' })).toBe('setoption name Clear Hash');
  });

  test('position: startpos, an SFEN, with and without moves', () => {
    expect(line({ type: 'position', position: {} })).toBe('position startpos');
    expect(line({ type: 'position', position: { moves: ['7g7f', '3c3d', '8h2b+', 'B*4e'] } })).toBe(
      'position startpos moves 7g7f 3c3d 8h2b+ B*4e',
    );
    expect(line({ type: 'position', position: { sfen: START_SFEN } })).toBe(`position sfen ${START_SFEN}`);
    const sfen = HANDICAP_SFENS.two_piece;
    expect(line({ type: 'position', position: { sfen, moves: ['5a4b'] } })).toBe(`position sfen ${sfen} moves 5a4b`);
    expect(line({ type: 'position', position: { sfen: '4k4/9/4P4/9/9/9/9/9/4K4 b G2p' } })).toBe(
      'position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G2p',
    );
  });

  test('go: a clock with byoyomi or increments, a fixed budget, infinite', () => {
    expect(line({ type: 'go', limits: { kind: 'clock', btime: 60000, wtime: 50000, byoyomi: 10000 } })).toBe(
      'go btime 60000 wtime 50000 byoyomi 10000',
    );
    expect(line({ type: 'go', limits: { kind: 'clock', btime: 0, wtime: 0, binc: 5000, winc: 5000 } })).toBe(
      'go btime 0 wtime 0 binc 5000 winc 5000',
    );
    expect(line({ type: 'go', limits: { kind: 'fixed', depth: 8 } })).toBe('go depth 8');
    expect(line({ type: 'go', limits: { kind: 'fixed', movetime: 300 } })).toBe('go movetime 300');
    expect(line({ type: 'go', limits: { kind: 'fixed', depth: 8, nodes: 10000, movetime: 300 } })).toBe(
      'go depth 8 nodes 10000 movetime 300',
    );
    expect(line({ type: 'go', limits: { kind: 'infinite' } })).toBe('go infinite');
  });

  test.each([
    [{ type: 'position', position: { sfen: `${START_SFEN}\nquit` } }, 'bad_sfen'],
    [{ type: 'position', position: { sfen: 'lnsgkgsnl/1r5b1  b - 1' } }, 'bad_sfen'],
    [{ type: 'position', position: { sfen: START_SFEN.replace(' b ', '  b ') } }, 'bad_sfen'],
    [{ type: 'position', position: { sfen: 42 } }, 'bad_sfen'],
    [{ type: 'position', position: { moves: ['7g7f', '7g7f\nquit'] } }, 'bad_move'],
    [{ type: 'position', position: { moves: ['7g7f', 'resign'] } }, 'bad_move'],
    [{ type: 'position', position: { moves: [7] } }, 'bad_move'],
    [{ type: 'position', position: { moves: '7g7f' } }, 'bad_move'],
    [{ type: 'setoption', name: 'Hash\nquit', value: 1 }, 'bad_option'],
    [{ type: 'setoption', name: 'Hash', value: '1\nquit' }, 'bad_option'],
    [{ type: 'setoption', name: 'My value X', value: 1 }, 'bad_option'],
    [{ type: 'setoption', name: ' Hash', value: 1 }, 'bad_option'],
    [{ type: 'setoption', name: '', value: 1 }, 'bad_option'],
    [{ type: 'setoption', name: 'Hash', value: 1.5 }, 'bad_option'],
    [{ type: 'setoption', name: 'Hash', value: null }, 'bad_option'],
    [{ type: 'go', limits: { kind: 'clock', btime: 1000 } }, 'bad_limits'],
    [{ type: 'go', limits: { kind: 'clock', btime: -1, wtime: 0 } }, 'bad_limits'],
    [{ type: 'go', limits: { kind: 'clock', btime: 1, wtime: 1, byoyomi: Number.NaN } }, 'bad_limits'],
    [{ type: 'go', limits: { kind: 'fixed' } }, 'bad_limits'],
    [{ type: 'go', limits: { kind: 'fixed', depth: 0 } }, 'bad_limits'],
    [{ type: 'go', limits: { kind: 'fixed', movetime: '300' } }, 'bad_limits'],
    [{ type: 'go', limits: { kind: 'ponder' } }, 'bad_limits'],
    [{ type: 'go' }, 'bad_limits'],
    [{ type: 'gameover', result: 'lost' }, 'bad_command'],
    [{ type: 'ucinewgame' }, 'bad_command'],
    [null, 'bad_command'],
  ])('%j is refused (%s)', (command, code) => {
    expect(errorOf(command)).toBe(code);
  });

  test('whatever it is given, it never throws and never writes a control character (no smuggled command)', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('a\nb', 'x\ry', '\u0000', 'value'));
    const number = fc.oneof(fc.integer(), fc.double(), fc.constant(-0), text);
    const command = fc.record(
      {
        type: fc.constantFrom('usi', 'setoption', 'position', 'go', 'gameover', 'stop', 'other'),
        name: text,
        value: fc.oneof(text, number, fc.boolean(), fc.constant(undefined)),
        result: fc.oneof(fc.constantFrom('win', 'lose', 'draw'), text),
        position: fc.record(
          {
            sfen: fc.oneof(fc.constantFrom(START_SFEN, HANDICAP_SFENS.bishop), text),
            moves: fc.array(fc.oneof(usiMove, text), { maxLength: 5 }),
          },
          { requiredKeys: [] },
        ),
        limits: fc.record(
          {
            kind: fc.constantFrom('clock', 'fixed', 'infinite', 'other'),
            btime: number,
            wtime: number,
            byoyomi: number,
            depth: number,
            movetime: number,
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(command, (c) => {
        const r = formatCommand(c as unknown as UsiCommand);
        if (r.ok) expect(r.value).not.toMatch(/\p{Cc}/u);
        else expect(r.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('search budgets', () => {
  test('the side to move follows the SFEN and the number of moves', () => {
    expect(sideToMove({})).toBe('b');
    expect(sideToMove({ moves: ['7g7f'] })).toBe('w');
    expect(sideToMove({ sfen: HANDICAP_SFENS.rook })).toBe('w');
    expect(sideToMove({ sfen: HANDICAP_SFENS.rook, moves: ['5a4b'] })).toBe('b');
  });

  test("a clock allows the mover's main time, byoyomi and increment; movetime allows itself; depth alone, nothing", () => {
    const clock = { kind: 'clock', btime: 60_000, wtime: 5_000, byoyomi: 1_000, winc: 300 } as const;
    expect(searchBudgetMs(clock, 'b')).toBe(61_000);
    expect(searchBudgetMs(clock, 'w')).toBe(6_300);
    expect(searchBudgetMs({ kind: 'fixed', movetime: 250, depth: 30 }, 'b')).toBe(250);
    expect(searchBudgetMs({ kind: 'fixed', depth: 30 }, 'b')).toBeNull();
    expect(searchBudgetMs({ kind: 'infinite' }, 'w')).toBeNull();
  });

  test("the deadline: the request's timeout as given, else the budget plus the margin, else the unbounded deadline", () => {
    const t = { ...DEFAULT_TIMEOUTS, marginMs: 500, unboundedSearchMs: 9_000 };
    const fixed = { kind: 'fixed', depth: 10 } as const;
    expect(searchDeadlineMs({ position: {}, limits: fixed, timeoutMs: 1_234 }, t)).toBe(1_234);
    expect(searchDeadlineMs({ position: {}, limits: { kind: 'fixed', movetime: 300 } }, t)).toBe(800);
    expect(searchDeadlineMs({ position: { moves: ['7g7f'] }, limits: { kind: 'clock', btime: 5, wtime: 7 } }, t)).toBe(
      507,
    );
    expect(searchDeadlineMs({ position: {}, limits: fixed }, t)).toBe(9_000);
    expect(searchDeadlineMs({ position: {}, limits: { kind: 'infinite' } }, t)).toBeNull();
    expect(() => searchDeadlineMs({ position: {}, limits: fixed, timeoutMs: 0 }, t)).toThrow(/timeoutMs/);
  });
});

describe('engine configurations', () => {
  test.each([
    [{ path: '/usr/games/fairy-stockfish' }, null],
    [{ path: 'node', args: ['engine.js'], maxLineLength: 100, timeouts: { marginMs: 5 } }, null],
    [{ path: '' }, 'path'],
    [{}, 'path'],
    [{ path: 'x', args: 'a b' }, 'args'],
    [{ path: 'x', maxLineLength: 0 }, 'maxLineLength'],
    [{ path: 'x', timeouts: { stopGraceMs: -1 } }, 'timeouts.stopGraceMs'],
    [{ path: 'x', timeouts: { readyMs: Number.POSITIVE_INFINITY } }, 'timeouts.readyMs'],
  ])('%j: %s', (config, problem) => {
    const found = engineConfigProblem(config as unknown as EngineConfig);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});
