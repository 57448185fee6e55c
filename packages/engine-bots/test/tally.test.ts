import { describe, expect, it } from 'vitest';
import { formatTally, type MatchResult, pointsOf } from '../src/index.js';

const game = (sente: string, gote: string, winner: 'sente' | 'gote' | null): MatchResult => ({
  sente,
  gote,
  winner,
  ending: winner === null ? 'max_plies' : 'checkmate',
  sfen: '',
  moves: [],
});

describe('tallies', () => {
  it('"level 1 vs level 8: 0–10", whichever side each played', () => {
    const results = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0 ? game('level 1', 'level 8', 'gote') : game('level 8', 'level 1', 'sente'),
    );
    expect(formatTally('level 1', 'level 8', results)).toBe('level 1 vs level 8: 0–10');
    expect(formatTally('level 8', 'level 1', results)).toBe('level 8 vs level 1: 10–0');
  });

  it('draws are half a point each', () => {
    const results = [game('a', 'b', 'sente'), game('b', 'a', null), game('a', 'b', 'gote'), game('b', 'a', 'sente')];
    expect(pointsOf('a', results)).toBe(1.5);
    expect(pointsOf('b', results)).toBe(2.5);
    expect(formatTally('a', 'b', results)).toBe('a vs b: 1½–2½');
    expect(formatTally('a', 'b', [game('a', 'b', null)])).toBe('a vs b: ½–½');
  });

  it('leaves out games with anyone else', () => {
    const results = [game('a', 'b', 'sente'), game('a', 'c', 'gote'), game('c', 'b', 'sente')];
    expect(formatTally('a', 'b', results)).toBe('a vs b: 1–0');
    expect(formatTally('a', 'd', results)).toBe('a vs d: 0–0');
  });
});
