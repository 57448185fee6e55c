/** fast-check generators for USI text: moves, info lines, options, whole engine messages. */
import fc from 'fast-check';
import type { Bestmove, EngineMessage, UsiInfo, UsiOption, UsiScore } from '../src/index.js';

const file = fc.integer({ min: 1, max: 9 }).map(String);
const rank = fc.constantFrom(...'abcdefghi');
const square = fc.tuple(file, rank).map(([f, r]) => f + r);

/** Any well-formed USI move (legal or not). */
export const usiMove: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(square, square, fc.boolean())
    .filter(([from, to]) => from !== to)
    .map(([from, to, promote]) => `${from}${to}${promote ? '+' : ''}`),
  fc.tuple(fc.constantFrom(...'PLNSGBR'), square).map(([piece, to]) => `${piece}*${to}`),
);

/** Free text as the rest of a line: no line breaks, nothing to trim. */
export const restText: fc.Arbitrary<string> = fc
  .string({ maxLength: 40 })
  .filter((s) => s === s.trim() && !/[\r\n]/.test(s));

const KEYWORDS = new Set(['default', 'min', 'max', 'var', 'type', 'name', 'value']);
const word = fc.stringMatching(/^[A-Za-z0-9_<>.-]{1,10}$/).filter((w) => !KEYWORDS.has(w));
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '));

const bound = fc.constantFrom<'lower' | 'upper'>('lower', 'upper');
const withBound = <T extends UsiScore>(score: T, b: 'lower' | 'upper' | undefined): UsiScore =>
  b === undefined ? score : { ...score, bound: b };

export const usiScore: fc.Arbitrary<UsiScore> = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: -100_000, max: 100_000 }).map((value) => ({ kind: 'cp' as const, value })),
      fc
        .tuple(fc.integer({ min: 1, max: 999 }), fc.boolean())
        .map(([plies, winning]) => ({ kind: 'mate' as const, plies, winning })),
      fc.boolean().map((winning) => ({ kind: 'mate' as const, plies: null, winning })),
      fc.constant({ kind: 'mate' as const, plies: 0, winning: false }),
    ),
    fc.option(bound, { nil: undefined }),
  )
  .map(([score, b]) => withBound(score, b));

const count = fc.nat({ max: Number.MAX_SAFE_INTEGER });

export const usiInfo: fc.Arbitrary<UsiInfo> = fc.record(
  {
    depth: count,
    seldepth: count,
    time: count,
    nodes: count,
    nps: count,
    hashfull: fc.nat({ max: 1000 }),
    multipv: fc.integer({ min: 1, max: 500 }),
    currmove: usiMove,
    currmovenumber: count,
    score: usiScore,
    pv: fc.array(usiMove, { maxLength: 12 }),
    string: restText,
  },
  { requiredKeys: [] },
);

export const usiOption: fc.Arbitrary<UsiOption> = fc.oneof(
  fc.record(
    { name: words, type: fc.constant('check' as const), default: fc.boolean() },
    { requiredKeys: ['name', 'type'] },
  ),
  fc.record(
    {
      name: words,
      type: fc.constant('spin' as const),
      default: fc.integer(),
      min: fc.integer(),
      max: fc.integer(),
    },
    { requiredKeys: ['name', 'type'] },
  ),
  fc.record(
    { name: words, type: fc.constant('combo' as const), default: words, vars: fc.array(words, { maxLength: 5 }) },
    { requiredKeys: ['name', 'type', 'vars'] },
  ),
  fc.record({ name: words, type: fc.constant('button' as const) }),
  fc.record(
    {
      name: words,
      type: fc.constantFrom('string' as const, 'filename' as const),
      default: restText.filter((s) => s !== '<empty>'),
    },
    { requiredKeys: ['name', 'type'] },
  ),
);

export const bestmove: fc.Arbitrary<{ bestmove: Bestmove; ponder?: string }> = fc.oneof(
  usiMove.map((move) => ({ bestmove: { kind: 'move' as const, move } })),
  fc.tuple(usiMove, usiMove).map(([move, ponder]) => ({ bestmove: { kind: 'move' as const, move }, ponder })),
  fc.constantFrom<Bestmove>({ kind: 'resign' }, { kind: 'win' }).map((b) => ({ bestmove: b })),
);

/** Every engine message that has a canonical line (not `unknown` or `invalid`). */
export const engineMessage: fc.Arbitrary<EngineMessage> = fc.oneof(
  fc.record({
    type: fc.constant('id' as const),
    key: fc.constantFrom('name' as const, 'author' as const),
    value: restText,
  }),
  usiOption.map((option) => ({ type: 'option' as const, option })),
  fc.constantFrom<EngineMessage>({ type: 'usiok' }, { type: 'readyok' }),
  bestmove.map((b) => ({ type: 'bestmove' as const, ...b })),
  usiInfo.map((info) => ({ type: 'info' as const, info })),
);

const SOUP = [
  ...'info bestmove option id usiok readyok name type default min max var score cp mate'.split(' '),
  ...'lowerbound upperbound pv string depth multipv currmove ponder resign win spin check combo'.split(' '),
  ...['button', '+', '-', '-0', '<empty>', '\t', ''],
];

/** Lines built from USI words, numbers, moves and junk: closer to the parser's edges than random text. */
export const tokenSoup: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(...SOUP),
      usiMove,
      fc.integer().map(String),
      fc.double().map(String),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 16 },
  )
  .map((ws) => ws.join(' '));
