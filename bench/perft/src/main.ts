/**
 * Perft and move-validation benchmark: our engine (@shogi/rules) against tsshogi and shogiops.
 *
 *   npm run bench:perft [-- --quick] [--skip tsshogi,shogiops] [--runs N] [--rounds N]
 *
 * Run the compiled JS with plain node (never tsx). Env: BENCH_QUICK=1, BENCH_SKIP=tsshogi,
 * SHOGI_FIXTURES=/path/to/fixtures (default ../shared/fixtures beside the repository).
 */

import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Library } from './adapter.js';
import { loadCsaGames } from './games.js';
import { bulk, ours } from './ours.js';
import { shogiops } from './shogiops.js';
import { tsshogi } from './tsshogi.js';

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
    skip: { type: 'string', multiple: true, default: process.env.BENCH_SKIP ? [process.env.BENCH_SKIP] : [] },
    runs: { type: 'string' }, // minimum perft runs per library and position (median); see timePerft
    rounds: { type: 'string' }, // replays of every game per library (median of per-move figures)
  },
});
const quick = opts.quick === true;
const skipped = new Set(opts.skip.flatMap((s) => s.split(',')).map((s) => s.trim().toLowerCase()));
const runs = Number(opts.runs ?? 3);
const rounds = Number(opts.rounds ?? (quick ? 3 : 15));
const MIN_MS = quick ? 300 : 3_000;
const BUDGET_MS = quick ? 2_000 : 20_000;
// ../shared/fixtures beside the repository (this file runs from bench/perft/dist)
const FIXTURES = process.env.SHOGI_FIXTURES ?? fileURLToPath(new URL('../../../../shared/fixtures', import.meta.url));

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const MAX_MOVES_593 = 'R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1';
const MATSURI = 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1';
const CASES = [
  { name: 'start', sfen: START, depth: quick ? 4 : 5 },
  { name: '593 moves', sfen: MAX_MOVES_593, depth: quick ? 2 : 3 },
  { name: 'matsuri', sfen: MATSURI, depth: quick ? 2 : 3 },
];

const libraries: Library[] = [ours, tsshogi, shogiops].filter((l) => l.name === 'ours' || !skipped.has(l.name));
for (const name of skipped) {
  if (name !== 'tsshogi' && name !== 'shogiops')
    console.log(`warning: --skip ${name}: only tsshogi and shogiops can be skipped`);
}
let failures = 0;

function fail(message: string): void {
  failures++;
  console.log(`!!! MISMATCH: ${message}`);
}

function ms(from: bigint, to: bigint): number {
  return Number(to - from) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function table(head: string[], rows: string[][], right: number[]): void {
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (right.includes(i) ? c.padStart(width[i] ?? 0) : c.padEnd(width[i] ?? 0))).join('  ');
  console.log(line(head));
  console.log(width.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log();
}

const fmt = (x: number, digits = 2) => x.toFixed(digits);
const fmtMs = (x: number) => fmt(x, x >= 100 ? 0 : x >= 1 ? 2 : 3);
const mnps = (nodes: number, msec: number) => nodes / msec / 1e3; // million nodes per second

/**
 * Times a perft thunk: at least `runs` runs and at least MIN_MS of runs (so fast ones get many
 * samples), but no new run once BUDGET_MS is spent (slow ones may get a single run); median ms.
 */
function timePerft(run: () => number): { nodes: number; ms: number; runs: number } {
  const times: number[] = [];
  let nodes = 0;
  let spent = 0;
  while (times.length === 0 || ((times.length < runs || spent < MIN_MS) && spent < BUDGET_MS && times.length < 200)) {
    const t0 = process.hrtime.bigint();
    nodes = run();
    const t = ms(t0, process.hrtime.bigint());
    times.push(t);
    spent += t;
  }
  return { nodes, ms: median(times), runs: times.length };
}

function expectedNodes(sfen: string, depth: number): number | undefined {
  const fixtures = JSON.parse(readFileSync(join(FIXTURES, 'perft.json'), 'utf8')) as {
    sfen: string;
    depth: number;
    nodes: number;
  }[];
  return fixtures.find((f) => f.sfen === sfen && f.depth === depth)?.nodes;
}

function perftSection(): void {
  console.log(
    `## Perft (leaves counted by playing them). Median time of >= ${runs} runs and >= ${MIN_MS / 1000} s of runs,`,
  );
  console.log(`## but no new run after ${BUDGET_MS / 1000} s: the slowest get one or two runs.\n`);
  const rows: string[][] = [];
  const bulkRows: string[][] = [];
  let unlisted = false;
  for (const c of CASES) {
    const results: { lib: Library; nodes: number; ms: number; runs: number }[] = [];
    for (const lib of libraries) {
      lib.perft(c.sfen, c.depth - 1)(); // warm-up (JIT)
      results.push({ lib, ...timePerft(lib.perft(c.sfen, c.depth)) });
    }
    bulk(c.sfen, c.depth - 1)();
    const b = timePerft(bulk(c.sfen, c.depth));
    // The reference is perft.json; a depth it lacks is checked by all libraries agreeing.
    const listed = expectedNodes(c.sfen, c.depth);
    const expected = listed ?? (results[0] as { nodes: number }).nodes;
    if (listed === undefined) unlisted = true;
    const check = (who: string, nodes: number): string => {
      if (nodes === expected) return listed === undefined ? 'agree*' : 'ok';
      fail(
        `${who} ${c.name} depth ${c.depth}: ${nodes} nodes, expected ${expected}${listed === undefined ? ' (ours)' : ''}`,
      );
      return 'MISMATCH';
    };
    const oursSpeed = mnps((results[0] as { nodes: number; ms: number }).nodes, (results[0] as { ms: number }).ms);
    for (const r of results) {
      const speed = mnps(r.nodes, r.ms);
      rows.push([
        c.name,
        String(c.depth),
        r.lib.name,
        String(r.nodes),
        check(r.lib.name, r.nodes),
        `${fmtMs(r.ms)} (${r.runs})`,
        fmt(speed, 3),
        fmt(oursSpeed / speed, 2),
      ]);
    }
    bulkRows.push([
      c.name,
      String(c.depth),
      String(b.nodes),
      check('ours bulk', b.nodes),
      `${fmtMs(b.ms)} (${b.runs})`,
      fmt(mnps(b.nodes, b.ms), 3),
    ]);
  }
  table(
    ['position', 'depth', 'library', 'nodes', 'check', 'ms (runs)', 'Mnodes/s', 'ours faster ×'],
    rows,
    [1, 3, 5, 6, 7],
  );
  if (unlisted) console.log('* depth not in perft.json: checked only by all libraries agreeing with ours.\n');
  console.log('Ours, bulk-counted (last ply counted, not played; not comparable with the table above):\n');
  table(['position', 'depth', 'nodes', 'check', 'ms (runs)', 'Mnodes/s'], bulkRows, [1, 2, 4, 5]);
}

function movesSection(): void {
  const dir = join(FIXTURES, 'games', 'wcsc28');
  const games = loadCsaGames(dir);
  const plies = games.reduce((n, g) => n + g.moves.length, 0);
  console.log(`## Validate + apply one USI move (${games.length} games, ${plies} plies from ${dir})`);
  console.log(
    `Each game replayed ${rounds} times per library, timed whole and divided by its plies; median of the per-move figures.\n`,
  );
  const replays = libraries.flatMap((l) => l.replays);
  const perMove = new Map<string, number[]>(replays.map((r) => [r.name, []]));
  const reported = new Set<string>();
  for (let round = -1; round < rounds; round++) {
    for (const replay of replays) {
      for (const g of games) {
        if (g.moves.length === 0) continue;
        const run = replay.prepare(g.sfen, g.moves);
        const t0 = process.hrtime.bigint();
        const played = run();
        const t = ms(t0, process.hrtime.bigint());
        if (played !== g.moves.length && !reported.has(replay.name + g.file)) {
          reported.add(replay.name + g.file);
          fail(`${replay.name} rejected ply ${played + 1} (${g.moves[played]}) of ${g.file}`);
        }
        if (round >= 0) perMove.get(replay.name)?.push((t * 1000) / g.moves.length); // round -1 is warm-up
      }
    }
  }
  const oursUs = median(perMove.get('ours') ?? []);
  table(
    ['library', 'median µs/move', 'p10', 'p90', '× ours time'],
    replays.map((r) => {
      const xs = (perMove.get(r.name) ?? []).sort((a, b) => a - b);
      const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;
      const us = median(xs);
      return [r.name, fmt(us, 3), fmt(at(0.1), 3), fmt(at(0.9), 3), `${fmt(us / oursUs, 2)}×`];
    }),
    [1, 2, 3, 4],
  );
  for (const r of replays) console.log(`${r.name}: ${r.calls}`);
  console.log();
}

const load0 = loadavg();
const cpu0 = process.cpuUsage();
const wall0 = process.hrtime.bigint();
console.log('# Shogi perft / move-validation benchmark');
console.log(`node ${process.version}  ${new Date().toISOString()}  ${cpus().length}× ${cpus()[0]?.model ?? '?'}`);
console.log(
  `mode: ${quick ? 'quick' : 'full'}; libraries: ${libraries.map((l) => l.name).join(', ')}${libraries.length < 3 ? ' (others skipped)' : ''}`,
);
console.log(`load average at start: ${load0.map((x) => fmt(x)).join(' ')}\n`);
perftSection();
movesSection();
const cpu = process.cpuUsage(cpu0);
const share = (cpu.user + cpu.system) / 1e3 / ms(wall0, process.hrtime.bigint());
console.log(
  `load average at end: ${loadavg()
    .map((x) => fmt(x))
    .join(' ')} (includes this benchmark's own ~1.0; 2+ means competing work)`,
);
console.log(`this process's CPU time / wall time: ${fmt(share)} (well below 1 means it was kept waiting for a core)`);
if (failures) {
  console.log(`\n!!! ${failures} MISMATCH(ES) — see above`);
  console.error(`!!! ${failures} MISMATCH(ES) in the benchmark — see its output`);
  process.exitCode = 1;
}
