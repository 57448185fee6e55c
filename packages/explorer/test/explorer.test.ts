/**
 * The explorer's core against an independent replay: every real record in the shared fixtures
 * (131 WCSC28 games, CSA) is replayed by tsshogi (MIT, an independent rules library), which
 * gives each ply's position as SFEN and the move played; the counts per (position, move) it
 * yields must equal what the packed index answers for that position, found by our own key of
 * the SFEN. Transpositions meet when tsshogi's SFENs (without move number) meet.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { moveIllegality, parseSfen, parseUsi, START_SFEN } from '@shogi/rules';
import fc from 'fast-check';
import * as untyped from 'tsshogi';
import { describe, expect, test } from 'vitest';
import { FIXTURES } from '../../rules/test/fixtures.js';
import { type TsRecord, tsOutcome } from '../../rules/test/tsshogi-reader.js';
import {
  bandIndex,
  type Entry,
  type ExplorerGame,
  entriesOfGame,
  keyOf,
  mergeEntries,
  moveCode,
  NO_FILTER,
  OPENING_LINES,
  openingOf,
  packEntries,
  parseMonth,
  RATING_BANDS,
  summarize,
  UNRATED_BAND,
  unpackEntries,
  usiOfCode,
} from '../src/index.js';

interface TsPosition {
  readonly sfen: string;
  doMove(move: object): boolean;
  clone(): TsPosition;
}
const tsshogi = untyped as unknown as {
  importCSA(text: string): (TsRecord & { initialPosition: TsPosition }) | Error;
  readonly Move: abstract new (...args: never[]) => { readonly usi: string };
};

const DIR = `${FIXTURES}games/wcsc28/`;
const withoutMoveNumber = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');

interface Replayed {
  readonly game: ExplorerGame;
  /** tsshogi's SFEN before each move and the move */
  readonly plies: readonly { sfen: string; usi: string }[];
}

const replayed: Replayed[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.csa'))
  .sort()
  .flatMap((f, i): Replayed[] => {
    const record = tsshogi.importCSA(readFileSync(DIR + f, 'utf8').replace(/^\uFEFF/, ''));
    if (record instanceof Error) throw record;
    const outcome = tsOutcome(record);
    if (outcome === 'none') return [];
    const pos = record.initialPosition.clone();
    const plies: { sfen: string; usi: string }[] = [];
    for (const node of record.moves) {
      if (!(node.move instanceof tsshogi.Move)) continue;
      plies.push({ sfen: pos.sfen, usi: (node.move as { usi: string }).usi });
      pos.doMove(node.move);
    }
    // ratings and speeds spread over the bands and speeds so that filters have work to do
    const rated = i % 4 !== 0;
    return [
      {
        plies,
        game: {
          ref: 1000 + i,
          initialSfen: record.initialPosition.sfen,
          moves: plies.map((p) => p.usi),
          result: outcome,
          speed: (['bullet', 'blitz', 'rapid', 'classical'] as const)[i % 4] ?? 'blitz',
          senteRating: rated ? 900 + ((i * 97) % 1700) : null,
          goteRating: rated ? 1000 + ((i * 61) % 1500) : null,
          month: parseMonth('2018-05') ?? 0,
        },
      },
    ];
  });

/** The index of all games: packed per bucket, as the store keeps it. */
function buildIndex(games: readonly ExplorerGame[], plies: number): Map<number, Uint8Array> {
  const byBucket = new Map<number, Entry[]>();
  for (const g of games)
    for (const { bucket, entry } of entriesOfGame(g, plies)) {
      const list = byBucket.get(bucket) ?? [];
      list.push(entry);
      byBucket.set(bucket, list);
    }
  return new Map([...byBucket].map(([b, list]) => [b, packEntries(mergeEntries(list))]));
}

const unpacked = new WeakMap<Uint8Array, Entry[]>();
function answerAt(index: Map<number, Uint8Array>, sfen: string) {
  const parsed = parseSfen(sfen);
  if (!parsed.ok) throw new Error(sfen);
  const k = keyOf(parsed.value);
  const packed = index.get(k.bucket);
  if (packed !== undefined && !unpacked.has(packed)) unpacked.set(packed, unpackEntries(packed));
  const entries = packed === undefined ? [] : (unpacked.get(packed) ?? []).filter((e) => e.rest === k.rest);
  return summarize(entries, NO_FILTER, { moves: 1000, topGames: 1000, recentGames: 1000 });
}

// CPU-bound over 131 real games: room for a loaded machine
describe('counts against tsshogi replaying the real records', { timeout: 60_000 }, () => {
  const PLIES = 50;
  const index = buildIndex(
    replayed.map((r) => r.game),
    PLIES,
  );

  test('the fixtures are real games with results', () => {
    expect(replayed.length).toBeGreaterThan(100);
  });

  test('every position and move of the first 50 plies counts as tsshogi counts it', () => {
    // 1. the independent counts: position (SFEN without move number) -> move -> results
    const expected = new Map<string, Map<string, { sente: number; gote: number; draws: number }>>();
    for (const { game, plies } of replayed)
      for (const { sfen, usi } of plies.slice(0, PLIES)) {
        const at = withoutMoveNumber(sfen);
        const moves = expected.get(at) ?? new Map();
        const c = moves.get(usi) ?? { sente: 0, gote: 0, draws: 0 };
        if (game.result === 'sente') c.sente++;
        else if (game.result === 'gote') c.gote++;
        else c.draws++;
        moves.set(usi, c);
        expected.set(at, moves);
      }
    // 2. the index answers the same for each position, found by our key of tsshogi's SFEN
    let positions = 0;
    for (const [sfen, moves] of expected) {
      const answer = answerAt(index, `${sfen} 1`);
      const got = new Map(answer.moves.map((m) => [m.usi, { sente: m.sente, gote: m.gote, draws: m.draws }]));
      expect(got, sfen).toEqual(moves);
      positions++;
    }
    // 3. and no entry the replay does not have: the index holds as many groups as positions x moves
    let groups = 0;
    for (const packed of index.values()) {
      const seen = new Set(unpackEntries(packed).map((e) => `${e.rest}:${e.move}`));
      groups += seen.size;
    }
    expect(groups).toBe([...expected.values()].reduce((n, m) => n + m.size, 0));
    expect(positions).toBeGreaterThan(3000);
  });

  test('the start position: every game, by its first move', () => {
    const start = answerAt(index, START_SFEN);
    expect(start.sente + start.gote + start.draws).toBe(replayed.length);
    const firstMoves = new Map<string, number>();
    for (const r of replayed)
      firstMoves.set(r.game.moves[0] as string, (firstMoves.get(r.game.moves[0] as string) ?? 0) + 1);
    expect(new Map(start.moves.map((m) => [m.usi, m.sente + m.gote + m.draws]))).toEqual(firstMoves);
  });

  test('filters: speeds and bands split the start position without losing a game', () => {
    const parsed = parseSfen(START_SFEN);
    if (!parsed.ok) throw new Error('start');
    const k = keyOf(parsed.value);
    const entries = unpackEntries(index.get(k.bucket) ?? new Uint8Array()).filter((e) => e.rest === k.rest);
    const limits = { moves: 100, topGames: 4, recentGames: 4 };
    const total = (s: { sente: number; gote: number; draws: number }) => s.sente + s.gote + s.draws;
    let bySpeed = 0;
    for (let s = 0; s < 6; s++) bySpeed += total(summarize(entries, { ...NO_FILTER, speeds: new Set([s]) }, limits));
    let byBand = 0;
    for (let b = 0; b <= UNRATED_BAND; b++)
      byBand += total(summarize(entries, { ...NO_FILTER, bands: new Set([b]) }, limits));
    expect(bySpeed).toBe(replayed.length);
    expect(byBand).toBe(replayed.length);
    const unrated = replayed.filter((r) => r.game.senteRating === null).length;
    expect(total(summarize(entries, { ...NO_FILTER, bands: new Set([UNRATED_BAND]) }, limits))).toBe(unrated);
    // none in a month outside the games'
    expect(total(summarize(entries, { ...NO_FILTER, since: parseMonth('2019-01') }, limits))).toBe(0);
  });

  test('averageRating is the movers’ mean pre-game rating over the rated games', () => {
    const start = answerAt(index, START_SFEN);
    const top = start.moves[0];
    if (top === undefined) throw new Error('no move');
    const rated = replayed.filter((r) => r.game.moves[0] === top.usi && r.game.senteRating !== null);
    const mean = rated.reduce((s, r) => s + (r.game.senteRating as number), 0) / rated.length;
    expect(top.averageRating).toBe(Math.round(mean));
  });

  test('top games are the highest rated, recent games the latest', () => {
    const start = answerAt(index, START_SFEN);
    const avg = (g: ExplorerGame) => Math.round(((g.senteRating as number) + (g.goteRating as number)) / 2);
    const rated = replayed.map((r) => r.game).filter((g) => g.senteRating !== null);
    const best = Math.max(...rated.map(avg));
    const topRef = start.topGames[0]?.ref;
    expect(rated.find((g) => g.ref === topRef)).toBeDefined();
    expect(avg(rated.find((g) => g.ref === topRef) as ExplorerGame)).toBe(best);
    // each group (move, speed, band, month) keeps its latest game: the newest game overall comes
    // first, then newer before older, each one through the position
    const recent = start.recentGames.map((g) => g.ref);
    expect(recent[0]).toBe(Math.max(...replayed.map((r) => r.game.ref)));
    expect(recent).toEqual([...recent].sort((a, b) => b - a));
    for (const g of start.recentGames) expect(replayed.find((r) => r.game.ref === g.ref)?.game.moves[0]).toBe(g.usi);
  });

  test('a game counts only its first plies', () => {
    const shortIndex = buildIndex(
      replayed.map((r) => r.game),
      10,
    );
    for (const { plies } of replayed.slice(0, 5)) {
      expect(answerAt(shortIndex, (plies[10] as { sfen: string }).sfen).moves).toEqual([]);
      expect(answerAt(shortIndex, (plies[9] as { sfen: string }).sfen).moves.length).toBeGreaterThan(0);
    }
  });
});

describe('the packed index', { timeout: 60_000 }, () => {
  const entry = fc.record({
    rest: fc.integer({ min: 0, max: 2 ** 48 - 1 }),
    move: fc.integer({ min: 0, max: 14_255 }),
    speed: fc.integer({ min: 0, max: 5 }),
    band: fc.integer({ min: 0, max: UNRATED_BAND }),
    month: fc.integer({ min: 0, max: 2000 }),
    sente: fc.nat(5000),
    gote: fc.nat(5000),
    draws: fc.nat(50),
    ratingSum: fc.nat(2 ** 40),
    top: fc.nat(2 ** 40),
    topRating: fc.nat(4000),
    recent: fc.nat(2 ** 40),
  });

  test('packs and unpacks any merged entries unchanged', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 60 }), (list) => {
        const merged = mergeEntries(list.map((e) => ({ ...e })));
        expect(unpackEntries(packEntries(merged))).toEqual(merged);
      }),
    );
  });

  test('a game costs at most 1 KB of index: about 20 bytes a ply', () => {
    const games = replayed.map((r) => r.game);
    const index = buildIndex(games, 50);
    const bytes = [...index.values()].reduce((n, b) => n + b.length, 0);
    expect(bytes / games.length).toBeLessThan(1024);
  });

  test('merging in any order gives the same sums (a rebuild equals the live index)', () => {
    const games = replayed.map((r) => r.game);
    const once = buildIndex(games, 50);
    const reversed = buildIndex([...games].reverse(), 50);
    expect([...reversed.keys()].sort()).toEqual([...once.keys()].sort());
    for (const [b, packed] of once) expect(reversed.get(b)).toEqual(packed);
  });
});

describe('moves, bands and months', () => {
  test.each(['7g7f', '8h2b+', 'P*5e', 'R*1a', '1i9a', '9a1i+', 'G*9i'])('%s survives its code', (usi) => {
    expect(usiOfCode(moveCode(usi))).toBe(usi);
  });
  test.each(['', '7g7g', '7g7f=', 'K*5e', 'P*0a', '7z7f'])('%s is no move', (usi) => {
    expect(moveCode(usi)).toBe(-1);
  });
  test('every move of the records has a distinct code', () => {
    const usis = new Set(replayed.flatMap((r) => r.game.moves));
    const codes = new Set([...usis].map(moveCode));
    expect(codes.size).toBe(usis.size);
    expect(codes.has(-1)).toBe(false);
  });
  // lichess's rating groups (lila-openingexplorer RatingGroup): each floor up to the next
  test.each([
    [null, UNRATED_BAND],
    [0, 0],
    [999, 0],
    [1000, 1],
    [1599.5, 3],
    [1600, 4],
    [2499, 7],
    [2500, 8],
    [3200, 8],
  ])('average %s is in band %s', (avg, band) => {
    expect(bandIndex(avg)).toBe(band);
    if (band !== UNRATED_BAND) expect(RATING_BANDS[band]).toBeLessThanOrEqual(avg as number);
  });
  test.each(['2024-13', '2024-00', '24-01', '2024-1', 'x'])('%s is no month', (m) => {
    expect(parseMonth(m)).toBeNull();
  });
});

describe('the openings table', () => {
  const keysOf = (moves: string[]) => {
    const parsed = parseSfen(START_SFEN);
    if (!parsed.ok) throw new Error('start');
    const pos = parsed.value;
    const path = [keyOf(pos)];
    for (const usi of moves) {
      const m = parseUsiStrict(usi);
      pos.makeMove(m);
      path.push(keyOf(pos));
    }
    return path;
  };
  test.each([
    ['7g7f 3c3d 6g6f 8c8d 2h6h', '四間飛車'],
    ['7g7f 3c3d 6g6f 8c8d 2h6h 7a6b', '四間飛車'],
    ['2g2f 8c8d 2f2e 8d8e', '相掛かり'],
    // a transposition: the same position by another order
    ['2g2f 8c8d 7g7f 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g', '角換わり'],
    ['7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d', '横歩取り'],
    ['7g7f 3c3d 7f7e 8c8d 2h7h', '早石田'],
    ['7g7f 3c3d 2g2f 5c5d 2f2e 8b5b', 'ゴキゲン中飛車'],
  ])('%s is %s', (line, ja) => {
    expect(openingOf(keysOf(line.split(' ')))?.ja).toBe(ja);
  });
  test('the start is no opening', () => {
    expect(openingOf(keysOf([]))).toBeNull();
  });
});

/** A legal move or a thrown error: the table's lines must be legal from the start. */
function parseUsiStrict(usi: string): number {
  const m = parseUsi(usi);
  if (m < 0) throw new Error(usi);
  return m;
}

test('every line of the openings table is legal', () => {
  for (const [, , line] of OPENING_LINES) {
    const parsed = parseSfen(START_SFEN);
    if (!parsed.ok) throw new Error('start');
    const pos = parsed.value;
    for (const usi of line.split(' ')) {
      const m = parseUsiStrict(usi);
      expect(moveIllegality(pos, m), `${line}: ${usi}`).toBeNull();
      pos.makeMove(m);
    }
  }
});
