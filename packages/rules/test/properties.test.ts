import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  formatUsi,
  legalMoves,
  moveIllegality,
  type Position,
  parseSfen,
  parseUsi,
  START_SFEN,
  squareName,
  toSfen,
} from '../src/index.js';
import { SQUARES } from '../src/squares.js';
import { fixture, type PerftRow } from './fixtures.js';

const STARTS = [...new Set(fixture<PerftRow[]>('perft.json').map((r) => r.sfen))];

const load = (sfen: string): Position => {
  const pos = parseSfen(sfen);
  if (!pos.ok) throw new Error(pos.error.message);
  return pos.value;
};

/** A random game prefix: a start position and move choices (indices into the legal list). */
const walk = fc.record({
  start: fc.constantFrom(...STARTS),
  choices: fc.array(fc.nat(), { minLength: 0, maxLength: 60 }),
});

/** Plays the walk, calling `visit` on every position reached; returns the moves played. */
function play(start: string, choices: number[], visit: (pos: Position) => void): { pos: Position; moves: number[] } {
  const pos = load(start);
  const moves: number[] = [];
  visit(pos);
  for (const c of choices) {
    const legal = legalMoves(pos);
    if (legal.length === 0) break;
    const m = legal[c % legal.length] as number;
    pos.makeMove(m);
    moves.push(m);
    visit(pos);
  }
  return { pos, moves };
}

/** Every syntactically valid USI move, legal or not. */
const ALL_USI = (() => {
  const names = SQUARES.map(squareName);
  const out: string[] = [];
  for (const from of names) for (const to of names) if (from !== to) out.push(`${from}${to}`, `${from}${to}+`);
  for (const p of 'PLNSGBR') for (const to of names) out.push(`${p}*${to}`);
  return out;
})();

describe('properties over random games', () => {
  test('SFEN round trip, and incremental keys equal keys computed from scratch', () => {
    fc.assert(
      fc.property(walk, ({ start, choices }) => {
        play(start, choices, (pos) => {
          const sfen = toSfen(pos);
          const again = load(sfen);
          expect(toSfen(again)).toBe(sfen);
          expect(again.key()).toBe(pos.key());
          expect([pos.key1, pos.key2]).toEqual(pos.computeKey());
        });
      }),
      { numRuns: 100 },
    );
  });

  test('unmaking every move restores the position and its key', () => {
    fc.assert(
      fc.property(walk, ({ start, choices }) => {
        const snapshots: [string, number][] = [];
        const { pos, moves } = play(start, choices, (p) => snapshots.push([toSfen(p), p.key()]));
        snapshots.pop();
        for (let i = moves.length - 1; i >= 0; i--) {
          pos.unmakeMove(moves[i] as number);
          expect([toSfen(pos), pos.key()]).toEqual(snapshots.pop());
        }
      }),
      { numRuns: 100 },
    );
  });

  test('USI round trip of every legal move', () => {
    fc.assert(
      fc.property(walk, ({ start, choices }) => {
        play(start, choices, (pos) => {
          for (const m of legalMoves(pos)) expect(parseUsi(formatUsi(m))).toBe(m);
        });
      }),
      { numRuns: 50 },
    );
  });

  test('the single-move check accepts exactly the generated moves', () => {
    fc.assert(
      fc.property(walk, ({ start, choices }) => {
        const { pos } = play(start, choices, () => {});
        const generated = new Set(legalMoves(pos).map(formatUsi));
        const accepted = ALL_USI.filter((usi) => moveIllegality(pos, parseUsi(usi)) === null);
        expect(new Set(accepted)).toEqual(generated);
      }),
      { numRuns: 60 },
    );
  });

  test('malformed USI text is refused, never thrown on', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (text) => {
        const m = parseUsi(text);
        if (m >= 0) expect(formatUsi(m)).toBe(text);
      }),
      { numRuns: 5000 },
    );
    expect(load(START_SFEN)).toBeDefined();
  });
});

test('a game longer than the initial undo stack keeps exact keys', () => {
  // kings shuffle back and forth: 10,000 plies, far past the stack's first size
  const pos = load('4k4/9/9/9/9/9/9/9/4K4 b - 1');
  const cycle = ['5i5h', '5a5b', '5h5i', '5b5a'].map(parseUsi);
  const played: number[] = [];
  for (let i = 0; i < 10_000; i++) {
    const m = cycle[i % 4] as number;
    pos.makeMove(m);
    played.push(m);
  }
  expect([pos.key1, pos.key2]).toEqual(pos.computeKey());
  while (played.length > 0) pos.unmakeMove(played.pop() as number);
  expect(toSfen(pos)).toBe('4k4/9/9/9/9/9/9/9/4K4 b - 1');
  expect([pos.key1, pos.key2]).toEqual(pos.computeKey());
});
