import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type EngineMessage, formatEngineMessage, parseEngineLine } from '../src/index.js';
import { engineMessage, tokenSoup } from './arbitraries.js';

const parse = parseEngineLine;

describe('engine lines as Fairy-Stockfish writes them', () => {
  test('id, usiok, readyok', () => {
    expect(parse('id name Fairy-Stockfish 11.1 LB 64')).toEqual({
      type: 'id',
      key: 'name',
      value: 'Fairy-Stockfish 11.1 LB 64',
    });
    expect(parse('id author Fabian Fichter')).toEqual({ type: 'id', key: 'author', value: 'Fabian Fichter' });
    expect(parse('usiok')).toEqual({ type: 'usiok' });
    expect(parse('readyok')).toEqual({ type: 'readyok' });
  });

  test('options: spin, check, combo, button, and strings whose default is empty', () => {
    expect(parse('option name Skill Level type spin default 20 min -20 max 20')).toEqual({
      type: 'option',
      option: { name: 'Skill Level', type: 'spin', default: 20, min: -20, max: 20 },
    });
    expect(parse('option name Ponder type check default false')).toEqual({
      type: 'option',
      option: { name: 'Ponder', type: 'check', default: false },
    });
    expect(parse('option name Analysis Contempt type combo default Both var Both var Off var White var Black')).toEqual(
      {
        type: 'option',
        option: { name: 'Analysis Contempt', type: 'combo', default: 'Both', vars: ['Both', 'Off', 'White', 'Black'] },
      },
    );
    expect(parse('option name Clear Hash type button')).toEqual({
      type: 'option',
      option: { name: 'Clear Hash', type: 'button' },
    });
    expect(parse('option name Debug Log File type string default ')).toEqual({
      type: 'option',
      option: { name: 'Debug Log File', type: 'string', default: '' },
    });
    expect(parse('option name SyzygyPath type string default <empty>')).toEqual({
      type: 'option',
      option: { name: 'SyzygyPath', type: 'string', default: '' },
    });
    expect(parse('option name BookFile type filename default book/my book.db')).toEqual({
      type: 'option',
      option: { name: 'BookFile', type: 'filename', default: 'book/my book.db' },
    });
  });

  test('info with score cp, bounds and unknown keys (tbhits) skipped', () => {
    expect(
      parse(
        'info depth 12 seldepth 19 multipv 1 score cp 119 upperbound nodes 151676 nps 163796 tbhits 0 time 926 pv 7g7f 5a4b',
      ),
    ).toEqual({
      type: 'info',
      info: {
        depth: 12,
        seldepth: 19,
        multipv: 1,
        score: { kind: 'cp', value: 119, bound: 'upper' },
        nodes: 151676,
        nps: 163796,
        time: 926,
        pv: ['7g7f', '5a4b'],
      },
    });
    expect(parse('info depth 14 score cp -30 lowerbound hashfull 230 pv 2g2f')).toMatchObject({
      info: { score: { kind: 'cp', value: -30, bound: 'lower' }, hashfull: 230 },
    });
  });

  test('mate scores: plies, the side mated, the sign-only forms, and mate 0 (mated now)', () => {
    const score = (text: string) => {
      const m = parse(`info depth 3 score ${text} pv G*5b`);
      return m.type === 'info' ? m.info.score : m;
    };
    expect(score('mate 1')).toEqual({ kind: 'mate', plies: 1, winning: true });
    expect(score('mate +3')).toEqual({ kind: 'mate', plies: 3, winning: true });
    expect(score('mate -12')).toEqual({ kind: 'mate', plies: 12, winning: false });
    expect(score('mate +')).toEqual({ kind: 'mate', plies: null, winning: true });
    expect(score('mate -')).toEqual({ kind: 'mate', plies: null, winning: false });
    expect(score('mate 0')).toEqual({ kind: 'mate', plies: 0, winning: false });
    expect(score('mate -3 lowerbound')).toEqual({ kind: 'mate', plies: 3, winning: false, bound: 'lower' });
    expect(parse('info depth 0 score mate 0')).toEqual({
      type: 'info',
      info: { depth: 0, score: { kind: 'mate', plies: 0, winning: false } },
    });
  });

  test('info string and pv run to the end of the line; a pv stops at a word that is not a move', () => {
    expect(parse('info string  hello   world ')).toEqual({ type: 'info', info: { string: 'hello   world' } });
    expect(parse('info depth 3 pv 7g7f 3c3d rep_draw')).toEqual({
      type: 'info',
      info: { depth: 3, pv: ['7g7f', '3c3d'] },
    });
    expect(parse('info currmove 8h2b+ currmovenumber 4')).toEqual({
      type: 'info',
      info: { currmove: '8h2b+', currmovenumber: 4 },
    });
  });

  test('bestmove: a move with or without ponder, resign, win', () => {
    expect(parse('bestmove 7g7f ponder 3c3d')).toEqual({
      type: 'bestmove',
      bestmove: { kind: 'move', move: '7g7f' },
      ponder: '3c3d',
    });
    expect(parse('bestmove G*5b')).toEqual({ type: 'bestmove', bestmove: { kind: 'move', move: 'G*5b' } });
    expect(parse('bestmove resign')).toEqual({ type: 'bestmove', bestmove: { kind: 'resign' } });
    expect(parse('bestmove win')).toEqual({ type: 'bestmove', bestmove: { kind: 'win' } });
    // a malformed ponder is dropped: the best move stands without it
    expect(parse('bestmove 7g7f ponder zz')).toEqual({ type: 'bestmove', bestmove: { kind: 'move', move: '7g7f' } });
  });
});

describe('malformed and hostile lines', () => {
  test('not USI at all: unknown, echoed for logs', () => {
    expect(parse('Fairy-Stockfish 11.1 LB 64 by Fabian Fichter')).toEqual({
      type: 'unknown',
      line: 'Fairy-Stockfish 11.1 LB 64 by Fabian Fichter',
    });
    expect(parse('No such option: Nope')).toMatchObject({ type: 'unknown' });
    expect(parse('')).toEqual({ type: 'unknown', line: '' });
    expect(parse('   ')).toMatchObject({ type: 'unknown' });
  });

  test.each([
    ['bestmove', 'bestmove'],
    ['bestmove 9z9z', 'bestmove'],
    ['bestmove 7g7f7f', 'bestmove'],
    ['bestmove P*5a5b', 'bestmove'],
    ['info depth x', 'info'],
    ['info depth -1', 'info'],
    ['info nodes 1e9', 'info'],
    ['info nodes 99999999999999999999', 'info'],
    ['info score', 'info'],
    ['info score cp', 'info'],
    ['info score cp 1.5', 'info'],
    ['info score mate x', 'info'],
    ['info score wdl 1 2 3', 'info'],
    ['info currmove 0a0a', 'info'],
    ['option', 'option'],
    ['option name', 'option'],
    ['option name Hash', 'option'],
    ['option name Hash type', 'option'],
    ['option name Hash type int default 3', 'option'],
    ['option name Hash type spin default big', 'option'],
    ['option name Hash type spin min 1.5', 'option'],
    ['option name Ponder type check default maybe', 'option'],
    ['option name X type combo junk var a', 'option'],
    ['id', 'id'],
    ['id version 3', 'id'],
    ['usiok now', 'usiok'],
  ])('%j is invalid (%s)', (line, command) => {
    const m = parse(line);
    expect(m).toMatchObject({ type: 'invalid', command });
    expect(m.type === 'invalid' && m.reason.length > 0).toBe(true);
  });

  test('a long line is echoed cut short', () => {
    const m = parse(`junk ${'x'.repeat(100_000)}`);
    expect(m.type === 'unknown' && m.line.length <= 201).toBe(true);
  });

  test('no line of any shape throws, and every result is a message', () => {
    const types = new Set(['id', 'option', 'usiok', 'readyok', 'bestmove', 'info', 'unknown', 'invalid']);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), tokenSoup), (line) => {
        expect(types.has(parse(line).type)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('formatting engine lines', () => {
  test('parse(format(m)) is m for every message with a canonical line', () => {
    fc.assert(
      fc.property(engineMessage, (message: EngineMessage) => {
        expect(parse(formatEngineMessage(message))).toEqual(message);
      }),
      { numRuns: 2000 },
    );
  });

  test('examples', () => {
    expect(
      formatEngineMessage({
        type: 'info',
        info: { depth: 5, multipv: 1, score: { kind: 'mate', plies: 3, winning: false }, nodes: 9, pv: ['7g7f'] },
      }),
    ).toBe('info depth 5 multipv 1 score mate -3 nodes 9 pv 7g7f');
    // mated now, as engines write it
    expect(
      formatEngineMessage({ type: 'info', info: { depth: 0, score: { kind: 'mate', plies: 0, winning: false } } }),
    ).toBe('info depth 0 score mate 0');
    expect(formatEngineMessage({ type: 'option', option: { name: 'Path', type: 'string', default: '' } })).toBe(
      'option name Path type string default <empty>',
    );
    expect(formatEngineMessage({ type: 'bestmove', bestmove: { kind: 'move', move: '7g7f' }, ponder: '3c3d' })).toBe(
      'bestmove 7g7f ponder 3c3d',
    );
  });
});
