/**
 * p50/p99 of every statistics query on a database loaded by bench/stats/generate.ts
 * (run that first). Queries are the store's own functions, called as the routes call
 * them, with varied filters; one connection, sequential, after a warm-up.
 *
 *   npx tsx --conditions=@shogi/source bench/stats/main.ts [--url URL] [--runs 300]
 */
import { parseArgs } from 'node:util';
import { replayMoves, START_SFEN } from '@shogi/rules';
import {
  createDb,
  endingReasons,
  leaderboard,
  lengthDistribution,
  openingExplorer,
  openingsAtPosition,
  playerGames,
  playerProfile,
  playerResultsByOpponentBand,
  playerStats,
  ratingHistory,
  resultsSummary,
  type StatsFilter,
  scoreByRatingDifference,
} from '@shogi/store';
import { sql } from 'kysely';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@localhost:5432/shogi_bench_stats' },
    runs: { type: 'string', default: '300' },
  },
});
const RUNS = Number(args.runs);
// the statistics routes' settings (analytic, see createDb)
const db = createDb(args.url, { max: 1, analytic: true });

const FILTERS: StatsFilter[] = [
  {},
  { rated: true },
  { ruleset: 'default', handicap: 'even', timeCategory: 'blitz' },
  { from: '2025-03-01', to: '2025-03-31' },
  { from: '2024-02-10', to: '2026-11-20', rated: false },
  { handicap: 'bishop', from: '2024-06-01', to: '2024-12-31' },
];
let k = 0;
const nextFilter = () => FILTERS[k++ % FILTERS.length] as StatsFilter;

async function time(name: string, run: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const q = (p: number) => (samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] as number).toFixed(2);
  console.log(`${name.padEnd(34)} p50 ${q(0.5).padStart(7)} ms   p99 ${q(0.99).padStart(7)} ms`);
}

const { n } = (await sql<{ n: string }>`select count(*) as n from finished_games`.execute(db)).rows[0] ?? { n: '0' };
console.log(`${n} finished games; ${RUNS} runs per query, filters rotating over ${FILTERS.length} sets`);
const openingPaths: string[][] = [[]];
const first = await openingExplorer(db, []);
for (const m of first.moves.slice(0, 3)) {
  const second = await openingExplorer(db, [m.usi]);
  openingPaths.push([m.usi], ...second.moves.slice(0, 2).map((s) => [m.usi, s.usi]));
}

await time('results (GET /api/stats/results)', () => resultsSummary(db, nextFilter()));
await time('endings (GET /api/stats/endings)', () => endingReasons(db, nextFilter()));
await time('lengths (GET /api/stats/lengths)', () => lengthDistribution(db, nextFilter()));
await time('player (GET /api/stats/players/:id)', (i) => playerStats(db, `p${(i * 7919) % 20000}`));
await time('openings (GET /api/stats/openings)', (i) =>
  openingExplorer(db, openingPaths[i % openingPaths.length] ?? []),
);
const sfens = openingPaths.map((moves) => replayMoves(START_SFEN, moves).sfen);
await time('openings by SFEN (?sfen=)', (i) => openingsAtPosition(db, sfens[i % sfens.length] ?? START_SFEN));
await time('player games, first 100 (NDJSON)', async (i) => {
  let c = 0;
  for await (const _ of playerGames(db, `p${(i * 104729) % 20000}`, { pageSize: 100 })) if (++c >= 100) break;
});
const BANDS: StatsFilter[] = [
  { ratingMin: 1400, ratingMax: 1600 },
  { ratingMin: 1800 },
  { ratingMax: 1200, timeCategory: 'blitz' },
  { ratingMin: 1500, ratingMax: 1700, from: '2025-03-01', to: '2025-08-31' },
];
const CATS = ['bullet', 'blitz', 'rapid', 'classical'] as const;
const cat = (i: number) => CATS[i % CATS.length] as string;
await time('results by rating band (?ratingMin=)', (i) => resultsSummary(db, BANDS[i % BANDS.length] as StatsFilter));
await time('player by opponent band', (i) =>
  playerResultsByOpponentBand(db, `p${(i * 7919) % 20000}`, i % 2 ? cat(i) : undefined),
);
await time('score by rating difference', (i) =>
  scoreByRatingDifference(db, i % 3 === 0 ? {} : { category: cat(i), ...(i % 3 === 2 ? { higherColor: 'gote' } : {}) }),
);
await time('leaderboard (top 50)', (i) => leaderboard(db, cat(i), 50));
await time('player profile (GET /api/players/:id)', (i) => playerProfile(db, `p${(i * 104729) % 20000}`));
await time('rating history', (i) => ratingHistory(db, `p${(i * 7919) % 20000}`, cat(i)));
await db.destroy();
