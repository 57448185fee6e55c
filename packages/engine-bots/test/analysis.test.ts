import { AnalysisResponse } from '@shogi/protocol';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { analysisPlies, type PositionEvaluation } from '../src/index.js';

const cp = (value: number, pv: string[]): PositionEvaluation => ({ score: { kind: 'cp', value }, pv });

describe('analysisPlies', () => {
  // a game from the start: each score is from the side to move, as the engine gives it
  const evaluations: PositionEvaluation[] = [
    cp(50, ['7g7f', '3c3d']),
    cp(-30, ['3c3d', '2g2f']), // gote to move: sente +30, a fine first move
    cp(700, ['8h2b+', '3a2b']), // sente to move: +700, gote dropped from -30 to -700
    { score: { kind: 'mate', plies: 3, winning: true }, pv: ['B*5h', '6i5h', 'G*4i'] }, // gote mates: sente allowed it
    { score: { kind: 'mate', plies: 0, winning: false }, pv: [] }, // sente mated
  ];

  it("turns scores to sente's side and judges each move from the scores around it", () => {
    expect(analysisPlies('sente', evaluations)).toEqual([
      { ply: 0, score: { cp: 50 }, best: '7g7f', pv: ['7g7f', '3c3d'], judgment: null },
      { ply: 1, score: { cp: 30 }, best: '3c3d', pv: ['3c3d', '2g2f'], judgment: null },
      { ply: 2, score: { cp: 700 }, best: '8h2b+', pv: ['8h2b+', '3a2b'], judgment: 'blunder' },
      { ply: 3, score: { mate: -3 }, best: 'B*5h', pv: ['B*5h', '6i5h', 'G*4i'], judgment: 'blunder' },
      { ply: 4, score: { mate: 0 }, best: null, pv: [], judgment: null },
    ]);
  });

  it('starts at any ply with either side to move; the first position is not judged', () => {
    const plies = analysisPlies('gote', [cp(100, ['3c3d']), cp(-100, ['2g2f'])], 41);
    expect(plies).toEqual([
      { ply: 41, score: { cp: -100 }, best: '3c3d', pv: ['3c3d'], judgment: null },
      { ply: 42, score: { cp: -100 }, best: '2g2f', pv: ['2g2f'], judgment: null },
    ]);
  });

  it('is empty for no positions', () => {
    expect(analysisPlies('sente', [])).toEqual([]);
  });
});

describe('the wire shape of GET /api/games/{id}/analysis', () => {
  const check = Compile(AnalysisResponse);
  const plies = analysisPlies('sente', [cp(50, ['7g7f']), cp(-30, ['3c3d'])]);

  it('accepts an analysis by depth or by movetime, in any status', () => {
    for (const status of ['queued', 'running', 'done', 'failed'])
      expect(check.Check({ status, engine: { name: 'Fairy-Stockfish 11.1 LB 64', depth: 18 }, plies })).toBe(true);
    expect(check.Check({ status: 'done', engine: { name: 'Fairy-Stockfish', movetime: 1000 }, plies: [] })).toBe(true);
  });

  it('refuses what is not of the shape: unknown fields, a bad status, a score with both cp and mate', () => {
    const engine = { name: 'Fairy-Stockfish', depth: 18 };
    expect(check.Check({ status: 'done', engine, plies, extra: 1 })).toBe(false);
    expect(check.Check({ status: 'paused', engine, plies })).toBe(false);
    expect(check.Check({ status: 'done', engine: { name: 'x', depth: 18, movetime: 5 }, plies })).toBe(false);
    const both = { ply: 0, score: { cp: 1, mate: 2 }, best: null, pv: [], judgment: null };
    expect(check.Check({ status: 'done', engine, plies: [both] })).toBe(false);
    const badMove = { ply: 0, score: { cp: 1 }, best: 'e2e4', pv: [], judgment: 'dubious' };
    expect(check.Check({ status: 'done', engine, plies: [badMove] })).toBe(false);
  });
});
