import { describe, expect, test } from 'vitest';
import { parseSfen, perft, perftBulk } from '../src/index.js';
import { fixture, type PerftRow } from './fixtures.js';

// perft.json: published perft tables (tomori-k/ShogiLibSharp PerftTests, sugyan/yasai).
// Rows up to a million nodes run here; the deeper ones in perft.slow.ts and bench/perft.
const rows = fixture<PerftRow[]>('perft.json').filter((r) => r.nodes <= 1_000_000);

describe('perft against published counts', () => {
  test.each(rows)('$sfen depth $depth = $nodes', ({ sfen, depth, nodes }) => {
    const pos = parseSfen(sfen);
    if (!pos.ok) throw new Error(pos.error.message);
    expect(perft(pos.value, depth)).toBe(nodes);
    expect(perftBulk(pos.value, depth)).toBe(nodes);
  });
});
