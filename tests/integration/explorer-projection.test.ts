/**
 * The explorer's index as the projector keeps it: games played here (rated, in several
 * speeds) and imported records (the masters' tree) are counted as they end, by a projector
 * running small batches (so buckets take many runs and compact), and every position of their
 * first 50 plies answers what a scan of the log answers; a rebuild answers the same.
 * The scan's positions are the log's own SFENs (MoveAccepted's), not the index's keys.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Entry, forEachEntry, keyOf, NO_FILTER, type PositionStats, SPEEDS, summarize } from '@shogi/explorer';
import type { GameEvent } from '@shogi/game';
import { gameCreated, randomPlayout } from '@shogi/game/testing';
import { parseSfen, parseUsi, START_SFEN, toSfen } from '@shogi/rules';
import {
  appendEvents,
  type ExplorerSource,
  explorerReader,
  explorerStats,
  gamesOfRefs,
  importRecord,
  projectBatch,
  rebuildStats,
} from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';

const ROOT = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games/wcsc28');
const PREFIXES = [
  ['7g7f', '3c3d'],
  ['2g2f', '8c8d'],
  ['7g7f', '8c8d'],
];
const TIME_CONTROLS = [
  { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 10, periods: 1 }, // bullet
  { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 }, // blitz
  { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 }, // rapid
] as const;
const limits = { moves: 100, topGames: 4, recentGames: 4 };

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ max: 4 });
});
afterAll(async () => t?.drop());

/** A played game: a shared prefix then a seeded random line, with each move's SFEN as the worker records it. */
async function playGame(i: number): Promise<void> {
  const gameId = `g${i}`;
  const prefix = PREFIXES[i % PREFIXES.length] as string[];
  const start = parseSfen(START_SFEN);
  if (!start.ok) throw new Error('start');
  const pos = start.value;
  for (const usi of prefix) pos.makeMove(parseUsi(usi));
  const tail = randomPlayout(i + 1, 60, 'default', toSfen(pos)).moves;
  const moves = [...prefix, ...tail];
  const at = new Date(Date.UTC(2026, i % 3, 1 + i, 12)).toISOString();
  const sente = { id: `p${i % 4}`, name: `P${i % 4}` };
  const gote = { id: `p${(i + 1) % 4}`, name: `P${(i + 1) % 4}` };
  const events: GameEvent[] = [
    gameCreated(gameId, {
      sente,
      gote,
      createdAt: at,
      rated: i % 2 === 0,
      timeControl: TIME_CONTROLS[i % 3] as never,
    }),
  ];
  const replay = parseSfen(START_SFEN);
  if (!replay.ok) throw new Error('start');
  moves.forEach((usi, ply) => {
    const color = ply % 2 === 0 ? 'sente' : 'gote';
    replay.value.makeMove(parseUsi(usi));
    events.push(
      {
        type: 'MoveSubmitted',
        data: { playerId: (color === 'sente' ? sente : gote).id, color, usi, ply, receivedAt: at },
      },
      {
        type: 'MoveAccepted',
        data: { submittedSeq: events.length + 1, ply: ply + 1, usi, sfen: toSfen(replay.value), check: false },
      },
    );
  });
  const winner = i % 5 === 4 ? null : i % 2 === 0 ? 'sente' : 'gote';
  events.push({
    type: 'GameEnded',
    data: { winner, reason: winner === null ? 'sennichite' : 'resignation', at },
  } as GameEvent);
  await appendEvents(t.db, gameId, 0, events);
}

interface Counts {
  sente: number;
  gote: number;
  draws: number;
}

/** The scan: every game's positions (the SFEN before each of its first 50 moves) and moves, from the log. */
async function scan(): Promise<Map<string, Map<string, Counts>>> {
  const r = await sql<{
    game_id: string;
    sfen: string | null;
    usi: string | null;
    initial: string | null;
    result: string;
    imported: boolean;
  }>`
    select e.game_id, e.payload->>'sfen' as sfen, e.payload->>'usi' as usi,
      e.payload->>'initialSfen' as initial, f.result, f.imported
    from game_events e join finished_games f using (game_id)
    where f.result <> 'none' and (e.type = 'GameCreated' or (e.type = 'MoveAccepted' and (e.payload->>'ply')::int <= 50))
    order by e.game_id, e.seq`.execute(t.db);
  const out = new Map<string, Map<string, Counts>>();
  let before = '';
  for (const row of r.rows) {
    if (row.initial !== null) {
      before = row.initial;
      continue;
    }
    const at = `${row.imported ? 'imported' : 'played'}|${before.split(' ').slice(0, 3).join(' ')}`;
    const moves = out.get(at) ?? new Map<string, Counts>();
    const c = moves.get(row.usi as string) ?? { sente: 0, gote: 0, draws: 0 };
    if (row.result === 'sente') c.sente++;
    else if (row.result === 'gote') c.gote++;
    else c.draws++;
    moves.set(row.usi as string, c);
    out.set(at, moves);
    before = row.sfen as string;
  }
  return out;
}

async function answer(source: ExplorerSource, sfen: string): Promise<PositionStats> {
  const parsed = parseSfen(`${sfen} 1`);
  if (!parsed.ok) throw new Error(sfen);
  return explorerStats(t.db, [source], keyOf(parsed.value), NO_FILTER, limits);
}

const byMove = (s: PositionStats) =>
  new Map(s.moves.map((m) => [m.usi, { sente: m.sente, gote: m.gote, draws: m.draws }]));

/**
 * Every scanned position against the index: the whole table read once and decoded (each
 * position's entries summed as a query sums them), and a sample through explorerStats itself.
 */
const reader = () => cachedReader;
let cachedReader: ReturnType<typeof explorerReader>;

async function expectScanned(expected: Map<string, Map<string, Counts>>): Promise<void> {
  const rows = await sql<{
    source: string;
    bucket: number;
    data: Uint8Array;
  }>`select source, bucket, data from explorer_runs`.execute(t.db);
  const runs = new Map<string, Uint8Array[]>();
  for (const r of rows.rows)
    runs.set(`${r.source}:${r.bucket}`, [...(runs.get(`${r.source}:${r.bucket}`) ?? []), r.data]);
  let i = 0;
  for (const [at, moves] of expected) {
    const [source, sfen] = at.split('|') as [ExplorerSource, string];
    const parsed = parseSfen(`${sfen} 1`);
    if (!parsed.ok) throw new Error(sfen);
    const key = keyOf(parsed.value);
    const entries: Entry[] = [];
    for (const data of runs.get(`${source}:${key.bucket}`) ?? []) forEachEntry(data, (e) => entries.push(e), key.rest);
    // limits.moves is above any position's move count here: every move is listed
    expect(byMove(summarize(entries, NO_FILTER, limits)), at).toEqual(moves);
    if (i++ % 50 === 0) {
      expect(byMove(await answer(source, sfen)), at).toEqual(moves);
      // the caching reader, asked twice (the second from its decoded runs)
      for (let twice = 0; twice < 2; twice++)
        expect(byMove(await reader().stats([source], key, NO_FILTER, limits)), at).toEqual(moves);
    }
  }
}

test('the index counts what a scan of the log counts, live and rebuilt', async () => {
  // 1. games played here and imported records, projected in small batches as they end
  cachedReader = explorerReader(t.db, { maxEntries: 5000 });
  for (let i = 0; i < 15; i++) await playGame(i);
  const files = readdirSync(ROOT)
    .filter((f) => f.endsWith('.csa'))
    .slice(0, 8);
  for (const f of files) expect((await importRecord(t.db, readFileSync(join(ROOT, f)), f)).ok).toBe(true);
  for (;;) {
    const r = await projectBatch(t.db, 150);
    if (r.caughtUp) break;
  }
  // small batches gave the hot buckets many runs, which were compacted down
  const runs = await sql<{
    n: string;
  }>`select max(c)::text as n from (select count(*) as c from explorer_runs group by source, bucket) x`.execute(t.db);
  expect(Number(runs.rows[0]?.n)).toBeLessThanOrEqual(9);

  // 2. every position of the scan answers alike
  const expected = await scan();
  expect(expected.size).toBeGreaterThan(700);
  await expectScanned(expected);

  // 3. the start position: each source its own games; the filters split them
  const played = await answer('played', START_SFEN.split(' ').slice(0, 3).join(' '));
  const drawn = [...Array(15).keys()].filter((i) => i % 5 === 4).length;
  expect([played.sente, played.gote, played.draws]).toEqual([
    [...Array(15).keys()].filter((i) => i % 5 !== 4 && i % 2 === 0).length,
    [...Array(15).keys()].filter((i) => i % 5 !== 4 && i % 2 === 1).length,
    drawn,
  ]);
  const parsed = parseSfen(START_SFEN);
  if (!parsed.ok) throw new Error('start');
  const key = keyOf(parsed.value);
  const total = (s: PositionStats) => s.sente + s.gote + s.draws;
  const blitz = await explorerStats(
    t.db,
    ['played'],
    key,
    { ...NO_FILTER, speeds: new Set([SPEEDS.indexOf('blitz')]) },
    limits,
  );
  expect(total(blitz)).toBe(5);
  // rated games only have ratings: a band filter leaves the casual ones out
  const banded = await explorerStats(
    t.db,
    ['played'],
    key,
    { ...NO_FILTER, bands: new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]) },
    limits,
  );
  expect(total(banded)).toBe(8);

  // 4. the games it names are there, the latest first
  const recent = await gamesOfRefs(t.db, played.recentGames);
  expect(recent.length).toBe(4);
  expect(recent[0]?.id).toBe('g14');
  const masters = await answer('imported', START_SFEN.split(' ').slice(0, 3).join(' '));
  expect(total(masters)).toBeGreaterThan(5);

  // 5. a rebuild (runs merged once at the end) answers the same
  await rebuildStats(t.db);
  const rebuiltRuns = await sql<{
    n: string;
  }>`select max(c)::text as n from (select count(*) as c from explorer_runs group by source, bucket) x`.execute(t.db);
  expect(Number(rebuiltRuns.rows[0]?.n)).toBe(1);
  await expectScanned(expected);
});
