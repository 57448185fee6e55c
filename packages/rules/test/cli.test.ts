import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { run } from '../src/cli.js';
import { FIXTURES } from './fixtures.js';

/** Runs the CLI in-process; returns stdout lines, stderr text and the exit status. */
function shogi(argv: string[], stdin = ''): { out: string[]; err: string; status: number } {
  const out: string[] = [];
  let err = '';
  const status = run(argv, { out: (l) => out.push(l), err: (l) => (err += `${l}\n`), stdin: () => stdin });
  return { out, err, status };
}

const MATSURI = 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1';

describe('shogi perft', () => {
  test('prints the count as a bare integer', () => {
    expect(shogi(['perft', '3'])).toEqual({ out: ['25470'], err: '', status: 0 });
  });

  test('--divide lists each move, sorted, and ends with the total', () => {
    const { out, status } = shogi(['perft', '2', '--sfen', MATSURI, '--divide']);
    expect(status).toBe(0);
    expect(out.at(-1)).toBe('28684');
    const rows = out.slice(0, -1);
    expect(rows).toHaveLength(207);
    expect(rows.map((r) => r.split(':')[0])).toEqual(rows.map((r) => r.split(':')[0]).sort());
    expect(rows.reduce((sum, r) => sum + Number(r.split(': ')[1]), 0)).toBe(28684);
  });

  test('--sfen - answers one count per stdin line, in order, bad lines included', () => {
    const stdin = `startpos\n${MATSURI}\nnot a sfen\n\n`;
    const { out, err, status } = shogi(['perft', '2', '--sfen', '-'], stdin);
    expect(out.slice(0, 2)).toEqual(['900', '28684']);
    expect(out[2]).toMatch(/^error /);
    expect(err).toContain('line 3');
    expect(status).toBe(2);
  });

  test.each([
    [['perft']],
    [['perft', 'x']],
    [['perft', '2', '--sfen', 'bad']],
    [['perft', '2', '--bogus']],
    [['nope']],
  ])('malformed input %j exits 2 with a message', (argv) => {
    const { out, err, status } = shogi(argv);
    expect(status).toBe(2);
    expect(out).toEqual([]);
    expect(err).toMatch(/^shogi: /);
  });
});

describe('shogi moves', () => {
  test('lists the 30 opening moves, sorted', () => {
    const { out } = shogi(['moves']);
    expect(out).toHaveLength(30);
    expect(out).toEqual([...out].sort());
    expect(out).toContain('7g7f');
  });

  test('the 593-move position', () => {
    expect(shogi(['moves', '--sfen', 'R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1']).out).toHaveLength(593);
  });
});

describe('shogi check', () => {
  test.each([
    ['7g7f', 'legal'],
    ['7g7e', 'illegal illegal_piece_move'],
    ['5a5b', 'illegal not_own_piece'],
    ['P*5e', 'illegal piece_not_in_hand'],
  ])('%s → %s', (move, verdict) => {
    expect(shogi(['check', '--sfen', 'startpos', '--move', move])).toEqual({ out: [verdict], err: '', status: 0 });
  });

  test('uchifuzume is named', () => {
    expect(shogi(['check', '--sfen', '3nkn3/9/4G4/9/9/9/9/9/4K4 b P 1', '--move', 'P*5b']).out).toEqual([
      'illegal uchifuzume',
    ]);
  });

  test.each([['7g7'], ['K*5e'], ['7g7f++'], ['']])('malformed USI %j exits 2', (move) => {
    const { status, err } = shogi(['check', '--sfen', 'startpos', '--move', move]);
    expect(status).toBe(2);
    expect(err).toContain('malformed USI');
  });

  test('--sfen - reads SFEN<TAB>USI lines', () => {
    const stdin = ['startpos\t2g2f', '4k4/9/9/9/9/9/4P4/9/4K4 b P 1\tP*5e', 'startpos 7g7f', 'startpos\tzz'].join('\n');
    const { out, status } = shogi(['check', '--sfen', '-'], stdin);
    expect(out.slice(0, 2)).toEqual(['legal', 'illegal nifu']);
    expect(out[2]).toMatch(/^error /);
    expect(out[3]).toMatch(/^error /);
    expect(status).toBe(2);
  });
});

describe('shogi replay', () => {
  test('a move list ending in perpetual check under jsa', () => {
    const moves = '3b3a 1a1b 3a3b 1b1a 3b3a 1a1b 3a3b 1b1a 3b3a 1a1b 3a3b 1b1a';
    const { out } = shogi(['replay', '--ruleset', 'jsa', '--sfen', '8k/6R2/9/9/9/9/9/9/K8 b - 1', '--moves', moves]);
    expect(out).toEqual(['plies 12', 'sfen 8k/6R2/9/9/9/9/9/9/K8 b - 13', 'status perpetual_check', 'winner gote']);
  });

  test('an illegal move list names the ply and the reason', () => {
    const { out } = shogi(['replay', '--moves', '7g7f 3c3d 8h2b+ 3a2b 2b3a']);
    expect(out.slice(2)).toEqual(['status illegal', 'illegal_ply 5 not_own_piece']);
    expect(out[0]).toBe('plies 4');
  });

  test('a real game record', () => {
    const file = `${FIXTURES}games/wcsc28/utf8_WCSC28_L1_762_KFW.csa`;
    const { out, status } = shogi(['replay', file]);
    expect(status).toBe(0);
    expect(out[0]).toBe(`file ${file}`);
    expect(out[1]).toMatch(/^plies \d+$/);
  });

  test('an unreadable file is reported and the status is 2', () => {
    const { err, status } = shogi(['replay', '/nonexistent/game.csa']);
    expect(status).toBe(2);
    expect(err).toContain('cannot read');
  });
});

describe('the installed bin', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  test('npx shogi perft runs the built CLI', () => {
    const out = execFileSync('npx', ['--no-install', 'shogi', 'perft', '2'], { cwd: root, encoding: 'utf8' });
    expect(out).toBe('900\n');
  });

  test('malformed input exits 2', () => {
    const r = spawnSync('npx', ['--no-install', 'shogi', 'check', '--sfen', 'x', '--move', '7g7f'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('invalid SFEN');
  });
});
