import type { GameAnalysisPlyRow, GameAnalysisRow } from '@shogi/store';
import { describe, expect, it } from 'vitest';
import { analysisResponseOf } from '../src/domain/analysis.js';
import { presenceOf } from '../src/plugins/analysis.js';

const ENGINE = { name: 'Fairy-Stockfish 11.1 LB 64', depth: 6 };
const row = (over: Partial<GameAnalysisRow> = {}): GameAnalysisRow => ({
  game_id: 'g1',
  setting: `${ENGINE.name}|depth=6`,
  status: 'done',
  engine: ENGINE,
  first_side: 'sente',
  requested_at: new Date(0),
  updated_at: new Date(0),
  error: null,
  ...over,
});
const ply = (n: number, score: string, pv: string[]): GameAnalysisPlyRow => ({
  game_id: 'g1',
  setting: `${ENGINE.name}|depth=6`,
  ply: n,
  score,
  pv,
});

describe('analysisResponseOf', () => {
  // a mate in 3 for sente, played out: the engine's scores are from the side to move
  const plies = [
    ply(0, 'mate 3', ['5d5c+', '5a6a', 'G*6b']),
    ply(1, 'mate -2', ['5a6a', 'G*6b']),
    ply(2, 'mate 1', ['G*6b']),
    ply(3, 'mate 0', []),
  ];

  it("turns the stored scores to sente's side and derives the best move and judgments", () => {
    expect(analysisResponseOf(row(), plies)).toEqual({
      status: 'done',
      engine: ENGINE,
      plies: [
        { ply: 0, score: { mate: 3 }, best: '5d5c+', pv: ['5d5c+', '5a6a', 'G*6b'], judgment: null },
        { ply: 1, score: { mate: 2 }, best: '5a6a', pv: ['5a6a', 'G*6b'], judgment: null },
        { ply: 2, score: { mate: 1 }, best: 'G*6b', pv: ['G*6b'], judgment: null },
        { ply: 3, score: { mate: 0 }, best: null, pv: [], judgment: null },
      ],
    });
  });

  it('starts from the side to move of the game’s start', () => {
    const fromGote = analysisResponseOf(row({ first_side: 'gote' }), [ply(0, 'cp 200', ['3c3d'])]);
    expect(fromGote.plies[0]?.score).toEqual({ cp: -200 });
  });

  it('answers the plies from the start without a gap, and stops at one it cannot read', () => {
    expect(
      analysisResponseOf(row({ status: 'running' }), [plies[0], plies[2]] as GameAnalysisPlyRow[]).plies,
    ).toHaveLength(1);
    expect(analysisResponseOf(row(), [plies[0], ply(1, 'nonsense', [])] as GameAnalysisPlyRow[]).plies).toHaveLength(1);
    expect(analysisResponseOf(row({ status: 'queued' }), []).plies).toEqual([]);
  });
});

describe('presenceOf', () => {
  it.each([
    [null, null],
    ['not json', null],
    ['{}', null],
    [JSON.stringify({ engineName: 'FSF', workers: 1, analysisDepth: 0 }), null],
    [
      JSON.stringify({ engineName: 'FSF', workers: 1, analysisDepth: 12 }),
      { engineName: 'FSF', workers: 1, analysisDepth: 12 },
    ],
  ])('%j -> %j', (raw, expected) => {
    expect(presenceOf(raw)).toEqual(expected);
  });
});
