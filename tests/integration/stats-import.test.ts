/**
 * Imports every record of ../shared/fixtures/games (143 CSA files) and checks the
 * statistics against counts computed here from the files' text alone: the `%` ending
 * line, the side that made the last move, and the `'summary:` line. Three records are
 * decided by the rules rather than by what the file states; they are listed with why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  catchUp,
  endingReasons,
  importRecord,
  lengthDistribution,
  openingExplorer,
  playerStats,
  readStream,
  resultsSummary,
} from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROOT = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games');
const files = readdirSync(ROOT).flatMap((d) => readdirSync(join(ROOT, d)).map((f) => join(d, f)));

type Expected = 'sente' | 'gote' | 'draw' | 'none';

/** Decided by the rules engine, not by the file's own words. */
const BY_RULES: Record<string, { result: Expected; why: string }> = {
  // fixtures README: "the perpetual-check games end at the fourth occurrence of the
  // position; the checking side loses" (the 2007-8 server wrote 'summary:sennichite draw)
  'shogi-server/test_csa_oute_sennichite.csa': { result: 'gote', why: 'perpetual check by sente' },
  'shogi-server/test_csa_oute_sennichite2.csa': { result: 'sente', why: 'perpetual check by gote' },
  // the 2006 server judged this %KACHI illegal; gote to move has 27 points and 12 pieces in
  // camp, a valid declaration under the 27-point rule the rules package implements
  'shogi-server/test_csa_jishogi_kachi.csa': { result: 'gote', why: 'valid impasse declaration by gote' },
};

/** The result a file states, from its text only. */
function stated(text: string): Expected {
  const lines = text.split(/\r?\n/);
  const moves = lines.filter((l) => /^[+-]\d{4}[A-Z]{2}/.test(l));
  const lastMover: 'sente' | 'gote' = moves.at(-1)?.startsWith('+') ? 'sente' : 'gote';
  const toMove = lastMover === 'sente' ? 'gote' : 'sente';
  const ending = lines.find((l) => l.startsWith('%'))?.trim();
  const summary = lines.find((l) => l.startsWith("'summary:"));
  switch (ending) {
    case '%TORYO':
    case '%TIME_UP':
    case '%ILLEGAL_MOVE':
      return lastMover; // the side to move resigned, ran out of time, or moved illegally
    case '%+ILLEGAL_ACTION':
      return 'gote';
    case '%-ILLEGAL_ACTION':
      return 'sente';
    case '%SENNICHITE':
      return 'draw';
    case '%KACHI':
      return toMove; // the declarer wins
    case '%CHUDAN':
      return 'none';
    case undefined: {
      if (summary === undefined) return 'none';
      const names: Record<string, 'sente' | 'gote'> = Object.fromEntries(
        lines.filter((l) => /^N[+-]/.test(l)).map((l) => [l.slice(2).trim(), l[1] === '+' ? 'sente' : 'gote']),
      );
      const win = /:(\S+) win/.exec(summary)?.[1];
      const lose = /:(\S+) lose/.exec(summary)?.[1];
      const sideOf = (name: string): 'sente' | 'gote' => {
        const side = names[name];
        if (side === undefined) throw new Error(`the summary names ${name}, who is no player of the record`);
        return side;
      };
      if (win !== undefined) return sideOf(win);
      if (lose !== undefined) return sideOf(lose) === 'sente' ? 'gote' : 'sente';
      return 'draw';
    }
    default:
      throw new Error(`unexpected ending ${ending}`);
  }
}

let t: TestDatabase;
const expected = { sente: 0, gote: 0, draw: 0, none: 0 };
/** Game id -> the move lines of its file (an %ILLEGAL_MOVE record's last one is not a move played). */
const moveLines = new Map<string, number>();
/** imported games count under source imported (or all), never under the default played */
const IMPORTED = { source: 'imported' } as const;

beforeAll(async () => {
  t = await createTestDatabase({ max: 4 });
  for (const f of files) {
    const bytes = readFileSync(join(ROOT, f));
    expected[BY_RULES[f]?.result ?? stated(new TextDecoder('latin1').decode(bytes))]++;
    const r = await importRecord(t.db, bytes, f);
    if (!r.ok) throw new Error(`${r.file} ply ${r.ply}: ${r.message}`);
    const text = new TextDecoder('latin1').decode(bytes);
    if (!text.includes('%ILLEGAL_MOVE'))
      moveLines.set(r.gameId, text.split(/\r?\n/).filter((l) => /^[+-]\d{4}[A-Z]{2}/.test(l)).length);
  }
  await catchUp(t.db);
});
afterAll(async () => t?.drop());

describe('importing ../shared/fixtures/games', () => {
  test('all 143 records are imported, one finished game each', async () => {
    expect(files).toHaveLength(143);
    const s = await resultsSummary(t.db, IMPORTED);
    expect(s.games + s.noResult).toBe(143);
    expect(await resultsSummary(t.db, { source: 'all' })).toEqual(s);
    // no game was played here: the site's statistics are empty
    const played = await resultsSummary(t.db);
    expect(played.games + played.noResult).toBe(0);
    expect((await openingExplorer(t.db, [])).games).toBe(0);
    expect((await playerStats(t.db, 'imported:elmo')).total).toEqual({ wins: 0, losses: 0, draws: 0, noResult: 0 });
  });

  test('results equal the counts computed from the files', async () => {
    const s = await resultsSummary(t.db, IMPORTED);
    expect({ sente: s.senteWins, gote: s.goteWins, draw: s.draws, none: s.noResult }).toEqual(expected);
    expect(s.sentePct + s.gotePct + s.drawPct).toBeCloseTo(100, 1);
  });

  test("each game's length equals the move lines of its file", async () => {
    const rows = await t.db
      .withTables<{ finished_games: { game_id: string; plies: number } }>()
      .selectFrom('finished_games')
      .select(['game_id', 'plies'])
      .execute();
    const lengths = new Map(rows.map((r) => [r.game_id, r.plies]));
    expect(moveLines.size).toBeGreaterThan(100);
    for (const [gameId, n] of moveLines) expect({ gameId, plies: lengths.get(gameId) }).toEqual({ gameId, plies: n });
  });

  test('filters: the date range of WCSC28 (May 2018) holds its 131 games', async () => {
    const s = await resultsSummary(t.db, { ...IMPORTED, from: '2018-05-01', to: '2018-05-31' });
    expect(s.games + s.noResult).toBe(131);
    const none = await resultsSummary(t.db, { ...IMPORTED, ruleset: 'jsa' });
    expect(none.games).toBe(0);
  });

  test.each([
    [{ from: '2018-05-03', to: '2018-05-04' }],
    [{ from: '2018-05-04', to: '2018-05-04' }],
    [{ from: '2007-01-01' }],
    [{ to: '2018-05-03' }],
    [{ from: '2008-02-15', to: '2020-06-30' }],
    [{ from: '2006-04-28', to: '2018-12-31', handicap: 'even' }],
  ])('a range summed from rollups equals a count of finished_games: %o', async (range) => {
    const filter = { ...IMPORTED, ...range };
    let q = t.db
      .withTables<{ finished_games: { result: string; ended_at: Date; handicap: string | null } }>()
      .selectFrom('finished_games')
      .select(['result', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('result');
    if ('from' in filter) q = q.where('ended_at', '>=', new Date(`${filter.from}T00:00:00Z`));
    if ('to' in filter) q = q.where('ended_at', '<', new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000));
    if ('handicap' in filter) q = q.where('handicap', 'is', null);
    const direct = Object.fromEntries((await q.execute()).map((r) => [r.result, Number(r.n)]));
    const s = await resultsSummary(t.db, filter);
    expect({ sente: s.senteWins, gote: s.goteWins, draw: s.draws, none: s.noResult }).toEqual({
      sente: direct.sente ?? 0,
      gote: direct.gote ?? 0,
      draw: direct.draw ?? 0,
      none: direct.none ?? 0,
    });
    const reasons = await endingReasons(t.db, filter);
    expect(reasons.reduce((n, r) => n + r.games + r.noResult, 0)).toBe(s.games + s.noResult);
    const lengths = await lengthDistribution(t.db, filter);
    expect(lengths.buckets.reduce((n, b) => n + b.games, 0)).toBe(s.games + s.noResult);
  });

  test('ending reasons, lengths, a player and the opening explorer add up', async () => {
    const reasons = await endingReasons(t.db, IMPORTED);
    expect(reasons.reduce((n, r) => n + r.games + r.noResult, 0)).toBe(143);
    expect(reasons.find((r) => r.reason === 'perpetual_check')?.games).toBe(2);
    const lengths = await lengthDistribution(t.db, IMPORTED);
    expect(lengths.buckets.reduce((n, b) => n + b.games, 0)).toBe(143);
    const elmo = await playerStats(t.db, 'imported:elmo', 'imported');
    expect(elmo.total.wins + elmo.total.losses + elmo.total.draws + elmo.total.noResult).toBeGreaterThan(0);
    const root = await openingExplorer(t.db, [], '', 'imported');
    const decided = expected.sente + expected.gote + expected.draw;
    expect(root.games).toBe(decided);
    const first = root.moves[0];
    expect(first).toBeDefined();
    const next = await openingExplorer(t.db, [first?.usi ?? ''], '', 'imported');
    expect(next.games).toBe(first?.games);
  });

  test('an illegal record is reported with its file and ply and leaves nothing behind', async () => {
    const before = await resultsSummary(t.db, IMPORTED);
    const bad = 'V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n+8822KA\n-2288UM\n+0055KA\n-0055KA\n%TORYO\n';
    const r = await importRecord(t.db, new TextEncoder().encode(bad), 'bad.csa');
    // ply 4: gote moves sente's bishop (8822KA took on 22)
    expect(r).toMatchObject({ ok: false, file: 'bad.csa', ply: 4 });
    const rows = await t.db
      .selectFrom('game_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const again = await importRecord(t.db, readFileSync(join(ROOT, files[0] as string)), files[0] as string);
    expect(again).toMatchObject({ ok: true, duplicate: true });
    await catchUp(t.db);
    expect(await resultsSummary(t.db, IMPORTED)).toEqual(before);
    const after = await t.db
      .selectFrom('game_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(rows.n);
  });
});

describe('importing records with damaged headers', () => {
  const now = new Date('2026-11-30T00:00:00.000Z');
  const created = async (text: string, file: string) => {
    const r = await importRecord(t.db, new TextEncoder().encode(text), file, { now });
    if (!r.ok) throw new Error(`${file}: ${r.message}`);
    const [first] = await readStream(t.db, r.gameId, 0);
    return first?.data as { sente: { name: string }; createdAt: string };
  };

  test('a start time that is no date is no start time (the import time stands in)', async () => {
    for (const [file, text] of [
      ['zero.csa', 'V2.2\nN+zero-a\nN-zero-b\n$START_TIME:0000/00/00 00:00:00\nPI\n+\n+7776FU\n%TORYO\n'],
      ['feb30.csa', 'V2.2\nN+feb-a\nN-feb-b\n$START_TIME:2026/02/30 10:00:00\nPI\n+\n+7776FU\n%TORYO\n'],
      [
        'nines.kif',
        '開始日時：9999/99/99 99:99:99\n先手：nines-a\n後手：nines-b\n手合割：平手\n手数----\n   1 ７六歩(77)\n   2 投了\n',
      ],
    ])
      expect((await created(text as string, file as string)).createdAt, file).toBe(now.toISOString());
    const real = await created(
      'V2.2\nN+real-a\nN-real-b\n$START_TIME:2026/02/28 10:00:00\nPI\n+\n+7776FU\n%TORYO\n',
      'real.csa',
    );
    expect(real.createdAt).toBe('2026-02-28T01:00:00.000Z'); // Japan time
  });

  test('control characters are taken out of names (PostgreSQL text cannot hold NUL)', async () => {
    const g = await created('V2.2\nN+nul\u0000name\nN-other\nPI\n+\n+7776FU\n%TORYO\n', 'nul.csa');
    expect(g.sente.name).toBe('nulname');
  });
});
