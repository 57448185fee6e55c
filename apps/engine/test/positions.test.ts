/**
 * The pieces of a position evaluated on request that need no engine: which info lines reach
 * the client (one per completed depth, scores from sente's side, none again after a resumed
 * search repeats depths), and stops that come before their job.
 */
import { describe, expect, test } from 'vitest';
import { DepthLines, sideToMoveOf } from '../src/positions/depth-lines.js';
import { PositionStops } from '../src/positions/stops.js';

const cp = (value: number, bound?: 'lower' | 'upper') =>
  ({ kind: 'cp', value, ...(bound === undefined ? {} : { bound }) }) as const;

describe('DepthLines', () => {
  test('gote to move: the score is turned to sente’s side', () => {
    const lines = new DepthLines({ sfen: '4k4/9/9/4P4/9/9/9/9/4K4 b 2G 1', moves: ['5d5c+'] });
    expect(lines.lineOf({ depth: 1, score: cp(120), pv: ['5a6a'], nodes: 10, nps: 1000, time: 1 })).toEqual({
      type: 'depth',
      depth: 1,
      multipv: 1,
      score: { cp: -120 },
      nodes: 10,
      nps: 1000,
      time: 1,
      pv: ['5a6a'],
    });
    expect(
      lines.lineOf({ depth: 2, score: { kind: 'mate', plies: 2, winning: false }, pv: ['5a6a', 'G*6b'] })?.score,
    ).toEqual({ mate: 2 });
    expect(lines.depth).toBe(2);
  });

  test.each([
    ['a bound (a depth not finished)', { depth: 3, score: cp(10, 'lower'), pv: ['7g7f'] }],
    ['no line of play', { depth: 3, score: cp(10) }],
    ['an empty line', { depth: 3, score: cp(10), pv: [] }],
    ['no score', { depth: 3, pv: ['7g7f'] }],
    ['a currmove report', { depth: 3, currmove: '7g7f', currmovenumber: 1 }],
    ['a depth already sent (a resumed search)', { depth: 2, score: cp(30), pv: ['2g2f'] }],
  ])('not sent: %s', (_name, info) => {
    const lines = new DepthLines({});
    lines.lineOf({ depth: 2, score: cp(20), pv: ['7g7f'] });
    expect(lines.lineOf(info)).toBeNull();
  });

  test('each MultiPV line has its own depths', () => {
    const lines = new DepthLines({});
    expect(lines.lineOf({ depth: 1, multipv: 1, score: cp(50), pv: ['7g7f'] })?.multipv).toBe(1);
    expect(lines.lineOf({ depth: 1, multipv: 2, score: cp(40), pv: ['2g2f'] })?.multipv).toBe(2);
    expect(lines.lineOf({ depth: 1, multipv: 2, score: cp(40), pv: ['2g2f'] })).toBeNull();
    expect(lines.depth).toBe(1);
  });

  test('the side to move after the moves', () => {
    expect(sideToMoveOf({})).toBe('sente');
    expect(sideToMoveOf({ moves: ['7g7f'] })).toBe('gote');
    expect(sideToMoveOf({ sfen: '4k4/9/9/9/9/9/9/9/4K4 w - 1', moves: ['5a5b'] })).toBe('sente');
  });
});

describe('PositionStops', () => {
  test('a stop fires a running evaluation’s signal; the others run on', () => {
    const stops = new PositionStops();
    const a = stops.begin('a');
    const b = stops.begin('b');
    stops.stop('a');
    expect(a.aborted).toBe(true);
    expect(b.aborted).toBe(false);
    stops.stopAll();
    expect(b.aborted).toBe(true);
  });

  test('a stop that comes before its job is remembered: the job begins stopped, once', () => {
    const stops = new PositionStops();
    stops.stop('early');
    expect(stops.begin('early').aborted).toBe(true);
    stops.end('early');
    expect(stops.begin('early').aborted).toBe(false);
  });

  test('early stops are forgotten after a while', () => {
    let now = 0;
    const stops = new PositionStops(() => now);
    stops.stop('old');
    now = 10 * 60_000;
    stops.stop('new');
    expect(stops.begin('old').aborted).toBe(false);
    expect(stops.begin('new').aborted).toBe(true);
  });
});
