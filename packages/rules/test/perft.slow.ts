import { expect, test } from 'vitest';
import { parseSfen, perft } from '../src/index.js';
import { fixture, type PerftRow } from './fixtures.js';

// The deeper published rows (perft.json), minutes in all: `npm run test:slow`.
const rows = fixture<PerftRow[]>('perft.json').filter((r) => r.nodes > 1_000_000);

test.each(rows)('$sfen depth $depth = $nodes', ({ sfen, depth, nodes }) => {
  const pos = parseSfen(sfen);
  if (!pos.ok) throw new Error(pos.error.message);
  expect(perft(pos.value, depth)).toBe(nodes);
});
