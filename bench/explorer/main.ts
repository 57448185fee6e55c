/**
 * The opening explorer's benchmark, every figure beside its reference measured in the same run:
 *
 * 1. a log of G games shaped as the statistics bench's (--log): GameCreated, a MoveSubmitted and
 *    a MoveAccepted (with the SFEN after it) per ply, GameEnded; openings drawn (Zipf-like) from
 *    3,000 seeded random 12-ply openings, then each game its own seeded random line to 50 plies
 *    (placeholders after, which the explorer never reads), 93 % rated-able time controls;
 * 2. build: `rebuildStats` without the explorer (the statistics rebuild, the reference), then
 *    with it; the explorer's cost is the difference, as a ratio of the statistics rebuild;
 * 3. size: the index's bytes per game (explorer_runs with its TOAST and primary key, and the
 *    finished_games index its references use);
 * 4. queries: p50/p99 of the route's work (explorerStats + the games it names) for the start
 *    position and for positions 20 plies deep, sequentially, then paced at --rate per second
 *    over --connections; beside the same answer computed by a scan of the log (a SQL scan of
 *    every game's first 50 MoveAccepted), checked equal;
 * 5. freshness: a game appended while a live projector runs (its default interval) is counted
 *    at its 20th position within how long of its end.
 *
 *   npx tsx --conditions=@shogi/source bench/explorer/main.ts [--games 20000] [--runs 300] [--rate 500]
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { keyOf, NO_FILTER, type PositionKey, type PositionStats } from '@shogi/explorer';
import { randomPlayout, seededRandom } from '@shogi/game/testing';
import { parseSfen, parseUsi, START_SFEN, toSfen } from '@shogi/rules';
import {
  appendEvents,
  createDb,
  type Db,
  type ExplorerReader,
  explorerReader,
  explorerStats,
  gamesByRef,
  migrateToLatest,
  rebuildStats,
  startProjector,
} from '@shogi/store';
import { sql } from 'kysely';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@localhost:5432/shogi_bench_explorer' },
    games: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '300' },
    rate: { type: 'string', default: '500' },
    connections: { type: 'string', default: '8' },
    seed: { type: 'string', default: '1' },
    reuse: { type: 'boolean', default: false },
    // with --reuse: the index as the last run left it, no build measured
    'no-build': { type: 'boolean', default: false },
  },
});
const GAMES = Number(args.games);
const RUNS = Number(args.runs);
const random = seededRandom(Number(args.seed));
const limits = { moves: 12, topGames: 4, recentGames: 4 };

async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  const found = await c.query('select 1 from pg_database where datname = $1', [name]);
  if (found.rowCount === 0) await c.query(`create database ${name}`);
  await c.end();
}

/** COPY FROM STDIN through psql (as bench/stats/generate.ts). */
function copyIn(url: string, statement: string): { write(line: string): Promise<void>; end(): Promise<void> } {
  const child = spawn(
    'psql',
    [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\copy ${statement} from stdin with (format csv)`],
    {
      stdio: ['pipe', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}`)))),
  );
  return {
    write: (line) =>
      new Promise((resolve) => {
        if (child.stdin.write(line)) resolve();
        else child.stdin.once('drain', () => resolve());
      }),
    end: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
const csv = (v: string): string => `"${v.replace(/"/g, '""')}"`;

const OPENINGS = Array.from({ length: 3000 }, (_, k) => randomPlayout(k + 1, 12).moves);
const TIME_CONTROLS = [
  { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 10, periods: 1 },
  { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 },
  { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 },
  { kind: 'byoyomi', mainSeconds: 1800, byoyomiSeconds: 60, periods: 1 },
];
const PLACEHOLDER_SFEN = 'ln1g3nl/1r2kgs2/p1sppp1pp/2p3p2/1p5P1/2P1P4/PPSP1PP1P/2G2S1R1/LN2KG1NL b Bb 23';
const T0 = Date.UTC(2024, 0, 1);

/** One game's moves: an opening of the pool, then its own line to 50 plies. */
function movesOf(i: number): string[] {
  const opening = OPENINGS[Math.floor(OPENINGS.length * random() ** 3)] as string[];
  const start = parseSfen(START_SFEN);
  if (!start.ok) throw new Error('start');
  for (const usi of opening) start.value.makeMove(parseUsi(usi));
  return [...opening, ...randomPlayout(1_000_000 + i, 38, 'default', toSfen(start.value)).moves];
}

/** The sample positions 20 plies deep: (game, SFEN before its 21st move) of a few games. */
const deep: { sfen: string }[] = [];

async function loadLog(db: Db, url: string): Promise<void> {
  await sql`truncate game_events, games`.execute(db);
  const copy = copyIn(url, 'game_events (game_id, seq, type, payload, recorded_at)');
  const t0 = performance.now();
  for (let i = 0; i < GAMES; i++) {
    const id = `x${i.toString(36).padStart(7, '0')}`;
    const moves = movesOf(i);
    const plies = 30 + Math.floor(random() * random() * 200);
    const started = new Date(T0 + Math.floor(((i + random() * 0.5) / GAMES) * 1095 * 86_400_000)).toISOString();
    const s = Math.floor(random() * 20_000);
    const g = (s + 1 + Math.floor(random() * 19_999)) % 20_000;
    const rated = random() < 0.5;
    const tc = random() < 0.93 ? TIME_CONTROLS[Math.floor(random() * 4)] : { kind: 'unlimited' };
    const line = (seq: number, type: string, payload: unknown) =>
      copy.write(`${id},${seq},${type},${csv(JSON.stringify(payload))},${started}\n`);
    await line(1, 'GameCreated', {
      gameId: id,
      sente: { id: `p${s}`, name: `player ${s}` },
      gote: { id: `p${g}`, name: `player ${g}` },
      ruleset: 'default',
      handicap: null,
      initialSfen: START_SFEN,
      timeControl: tc,
      rated: rated && tc?.kind !== 'unlimited',
      createdAt: started,
    });
    const pos = parseSfen(START_SFEN);
    if (!pos.ok) throw new Error('start');
    for (let p = 0; p < plies; p++) {
      const usi = moves[p] ?? '5i5h';
      let sfen = PLACEHOLDER_SFEN;
      if (moves[p] !== undefined) {
        if (p === 20 && i % 97 === 0 && deep.length < 50) deep.push({ sfen: toSfen(pos.value) });
        pos.value.makeMove(parseUsi(usi));
        sfen = toSfen(pos.value);
      }
      const color = p % 2 === 0 ? 'sente' : 'gote';
      await line(2 * p + 2, 'MoveSubmitted', {
        playerId: color === 'sente' ? `p${s}` : `p${g}`,
        color,
        usi,
        ply: p,
        receivedAt: started,
      });
      await line(2 * p + 3, 'MoveAccepted', { submittedSeq: 2 * p + 2, ply: p + 1, usi, sfen, check: false });
    }
    const r = random();
    await line(2 * plies + 2, 'GameEnded', {
      winner: r < 0.03 ? null : r < 0.53 ? 'sente' : 'gote',
      reason: r < 0.03 ? 'sennichite' : 'resignation',
      at: started,
    });
    if (i % 5000 === 4999) console.log(`${i + 1} games written`);
  }
  await copy.end();
  await sql`analyze game_events`.execute(db);
  console.log(`log: ${GAMES} games in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};
const keyOfSfen = (sfen: string): PositionKey => {
  const p = parseSfen(sfen);
  if (!p.ok) throw new Error(sfen);
  return keyOf(p.value);
};

/** The route's work: the stats, then the games it names. */
async function query(db: Db, key: PositionKey, reader?: ExplorerReader): Promise<PositionStats> {
  const stats = await (reader ?? theReader).stats(['played'], key, NO_FILTER, limits);
  await gamesByRef(
    db,
    [...stats.topGames, ...stats.recentGames].map((g) => g.ref),
  );
  return stats;
}

/** The same answer by a scan of the log: every game's first 50 moves, the position before each. */
async function scan(db: Db, sfen: string): Promise<Map<string, number>> {
  const board = sfen.split(' ').slice(0, 3).join(' ');
  const r = await sql<{ usi: string; n: string }>`
    with m as (
      select game_id, payload->>'usi' as usi, (payload->>'ply')::int as ply,
        lag(payload->>'sfen') over (partition by game_id order by seq) as before
      from game_events where type = 'MoveAccepted' and (payload->>'ply')::int <= 50)
    select m.usi, count(*)::text as n from m join finished_games f using (game_id)
    where f.result <> 'none' and case when m.ply = 1 then split_part(f.initial_sfen, ' ', 1) || ' ' || split_part(f.initial_sfen, ' ', 2) || ' ' || split_part(f.initial_sfen, ' ', 3)
      else split_part(m.before, ' ', 1) || ' ' || split_part(m.before, ' ', 2) || ' ' || split_part(m.before, ' ', 3) end = ${board}
    group by m.usi`.execute(db);
  return new Map(r.rows.map((row) => [row.usi, Number(row.n)]));
}

async function timeQueries(db: Db, keys: PositionKey[], runs: number): Promise<number[]> {
  for (const k of keys.slice(0, 20)) await query(db, k); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await query(db, keys[i % keys.length] as PositionKey);
    times.push(performance.now() - t);
  }
  return times;
}

/** Open loop: a query every 1/rate s for `ms`, over a pool; the latencies and the rate achieved. */
async function paced(
  db: Db,
  keys: PositionKey[],
  rate: number,
  ms: number,
): Promise<{ times: number[]; achieved: number }> {
  const times: number[] = [];
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  let i = 0;
  while (performance.now() - t0 < ms) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const k = keys[i++ % keys.length] as PositionKey;
    pending.push(
      (async () => {
        const t = performance.now();
        await query(db, k);
        times.push(performance.now() - t);
      })(),
    );
  }
  await Promise.all(pending);
  return { times, achieved: times.length / ((performance.now() - t0) / 1000) };
}

async function freshness(db: Db): Promise<number> {
  // a new game each run (a reused log keeps the last run's)
  const fresh = `fresh-${Date.now()}`;
  const projector = startProjector({ db, logger: { info: () => {}, error: (o) => console.error(o) } });
  const moves = movesOf(GAMES + 1);
  const pos = parseSfen(START_SFEN);
  if (!pos.ok) throw new Error('start');
  const events: Parameters<typeof appendEvents>[3][number][] = [
    {
      type: 'GameCreated',
      data: {
        gameId: fresh,
        sente: { id: 'a', name: 'a' },
        gote: { id: 'b', name: 'b' },
        ruleset: 'default',
        handicap: null,
        initialSfen: START_SFEN,
        timeControl: { kind: 'unlimited' },
        rated: false,
        createdAt: new Date().toISOString(),
      },
    } as never,
  ];
  let key20: PositionKey | null = null;
  moves.forEach((usi, p) => {
    if (p === 20) key20 = keyOf(pos.value);
    pos.value.makeMove(parseUsi(usi));
    events.push({
      type: 'MoveAccepted',
      data: { submittedSeq: 0, ply: p + 1, usi, sfen: toSfen(pos.value), check: false },
    } as never);
  });
  const at = key20 as unknown as PositionKey;
  const before = await explorerStats(db, ['played'], at, NO_FILTER, limits);
  const count = (s: PositionStats) => s.sente + s.gote + s.draws;
  await appendEvents(db, fresh, 0, events);
  await new Promise((r) => setTimeout(r, 1000)); // the projector idle again, as on a live server
  const t0 = performance.now();
  await appendEvents(db, fresh, events.length, [
    { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at: new Date().toISOString() } } as never,
  ]);
  while (count(await explorerStats(db, ['played'], at, NO_FILTER, limits)) === count(before))
    await new Promise((r) => setTimeout(r, 5));
  const ms = performance.now() - t0;
  await projector.stop();
  return ms;
}

await ensureDatabase(args.url);
let theReader: ExplorerReader;
const db = createDb(args.url, { max: Number(args.connections) + 2 });
try {
  await migrateToLatest(db);
  theReader = explorerReader(db);
  if (!args.reuse) await loadLog(db, args.url);
  else {
    // the positions 20 plies deep of the log already there
    const found = await sql<{ sfen: string }>`select payload->>'sfen' as sfen from game_events
      where type = 'MoveAccepted' and (payload->>'ply')::int = 20 and game_id in
        (select game_id from finished_games where result <> 'none' order by game_id limit 50)`.execute(db);
    deep.push(...found.rows);
  }
  if (!args['no-build']) await sql`vacuum analyze game_events`.execute(db);
  // 2. the build: the statistics rebuild alone (the reference), then with the explorer
  let t = performance.now();
  if (!args['no-build']) {
    const built = await rebuildStats(db, undefined, 'off');
    const statsMs = performance.now() - t;
    await sql`vacuum analyze`.execute(db);
    t = performance.now();
    await rebuildStats(db, undefined, 'deferred');
    const bothMs = performance.now() - t;
    const explorerMs = bothMs - statsMs;
    console.log(
      `build: statistics rebuild ${seconds(statsMs)} (reference); with the explorer ${seconds(bothMs)}: the explorer ${seconds(explorerMs)} = ${(explorerMs / statsMs).toFixed(2)} x the statistics rebuild (${built} games; per million: statistics ~${(((statsMs / built) * 1e6) / 60000).toFixed(1)} min, explorer ~${(((explorerMs / built) * 1e6) / 60000).toFixed(1)} min)`,
    );
  }
  const n = Number((await sql<{ n: string }>`select count(*)::text as n from finished_games`.execute(db)).rows[0]?.n);
  await sql`vacuum analyze`.execute(db);
  // 3. size
  const size = await sql<{
    runs: string;
    refs: string;
    rows: string;
  }>`select pg_total_relation_size('explorer_runs')::text as runs,
    pg_relation_size('finished_games_global_position')::text as refs, (select count(*) from explorer_runs)::text as rows`.execute(
    db,
  );
  const s = size.rows[0] as { runs: string; refs: string; rows: string };
  console.log(
    `size: explorer_runs ${(Number(s.runs) / 1e6).toFixed(1)} MB in ${s.rows} rows = ${(Number(s.runs) / n).toFixed(0)} bytes per game; with the references' index ${((Number(s.runs) + Number(s.refs)) / n).toFixed(0)} bytes per game`,
  );
  // 4. queries, beside the scan
  const start = keyOfSfen(START_SFEN);
  const deepKeys = deep.map((d) => keyOfSfen(d.sfen));
  for (const [name, keys, sfen] of [
    ['start position', [start], START_SFEN],
    ['20 plies deep', deepKeys, (deep[0] as { sfen: string }).sfen],
  ] as const) {
    const times = await timeQueries(db, [...keys], RUNS);
    const t1 = performance.now();
    const scanned = await scan(db, sfen);
    const scanMs = performance.now() - t1;
    const answer = await query(db, keys[0] as PositionKey);
    const indexed = new Map(answer.moves.map((m) => [m.usi, m.sente + m.gote + m.draws]));
    const top = new Map([...scanned].sort((a, b) => b[1] - a[1]).slice(0, limits.moves));
    const equal =
      [...indexed].every(([usi, c]) => scanned.get(usi) === c) && indexed.size === Math.min(scanned.size, limits.moves);
    console.log(
      `query ${name}: p50 ${pct(times, 0.5).toFixed(2)} ms, p99 ${pct(times, 0.99).toFixed(2)} ms (sequential, ${RUNS} runs); the scan of the log ${scanMs.toFixed(0)} ms = ${(scanMs / pct(times, 0.5)).toFixed(0)} x the p50; same answer: ${equal ? 'yes' : `NO ${JSON.stringify([...indexed])} vs ${JSON.stringify([...top])}`}`,
    );
    const p = await paced(db, [...keys], Number(args.rate), 3000);
    console.log(
      `query ${name} at ${args.rate}/s over ${args.connections} connections: achieved ${p.achieved.toFixed(0)}/s, p50 ${pct(p.times, 0.5).toFixed(2)} ms, p99 ${pct(p.times, 0.99).toFixed(2)} ms`,
    );
  }
  // 5. freshness
  console.log(
    `freshness: a game's 20th position counted ${(await freshness(db)).toFixed(0)} ms after its GameEnded was appended (live projector, default interval)`,
  );
} finally {
  await db.destroy();
}
