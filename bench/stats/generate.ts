/**
 * Loads N synthetic finished games into a statistics database: `finished_games` rows by
 * COPY (psql `\copy`-style `COPY ... FROM STDIN` through the psql client, since the
 * project has no COPY stream for node-postgres), and the counters through the projector's
 * own `writeCounters` in chunks (the same code the live projector runs).
 *
 *   npx tsx --conditions=@shogi/source bench/stats/generate.ts --games 1000000
 *   npx tsx --conditions=@shogi/source bench/stats/generate.ts --log 20000   # events, for the rebuild bench
 *
 * Options: --url (postgres://postgres@localhost:5432/shogi_bench_stats; created if missing)
 *          --games N (1000000) --players P (20000) --days D (1095) --seed S (1)
 *          --log G: instead, COPY G games as events into game_events (GameCreated,
 *          MoveAccepted per ply, GameEnded) and time `rebuildStats` over them.
 * Distribution: 93 % even games, the rest lance/bishop/rook/two-piece handicaps; 95 %
 * default ruleset; half rated; time categories bullet/blitz/rapid/classical or none;
 * openings drawn (Zipf-like) from 3,000 seeded random legal 12-ply openings per start.
 * Ratings: every player has a hidden strength (normal, mean 1500, sd 300) that decides who
 * wins (Elo odds); games start in order of their index, so rated games (rated, with a time
 * category, not aborted) are rated in that order by the ratings projection's own pure fold,
 * their rows carry the ratings before/after, and `ratings`, `rating_history` and the
 * rating counters are loaded as the projector would write them.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { randomPlayout, seededRandom } from '@shogi/game/testing';
import { HANDICAP_SFENS, type Handicap, PositionHistory, parseSfen, START_SFEN, toSfen } from '@shogi/rules';
import {
  createDb,
  type Db,
  migrateToLatest,
  type PlayerRating,
  type RatedOutcome,
  ratableGame,
  rateGames,
  rebuildStats,
  withRatings,
  writeRatingCounters,
} from '@shogi/store';
import { sql } from 'kysely';
import pg from 'pg';
import { writeCounters } from '../../packages/store/src/stats/counters.js';
import type { FinishedRow } from '../../packages/store/src/stats/rows.js';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@localhost:5432/shogi_bench_stats' },
    games: { type: 'string', default: '1000000' },
    players: { type: 'string', default: '20000' },
    days: { type: 'string', default: '1095' },
    seed: { type: 'string', default: '1' },
    log: { type: 'string' },
  },
});
const N = Number(args.games);
const PLAYERS = Number(args.players);
const DAYS = Number(args.days);
const random = seededRandom(Number(args.seed));

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

const ROOTS: { handicap: Handicap | null; sfen: string; weight: number }[] = [
  { handicap: null, sfen: START_SFEN, weight: 0.93 },
  { handicap: 'lance', sfen: HANDICAP_SFENS.lance, weight: 0.02 },
  { handicap: 'bishop', sfen: HANDICAP_SFENS.bishop, weight: 0.02 },
  { handicap: 'rook', sfen: HANDICAP_SFENS.rook, weight: 0.015 },
  { handicap: 'two_piece', sfen: HANDICAP_SFENS.two_piece, weight: 0.015 },
];
const OPENINGS = ROOTS.map((r, i) =>
  Array.from(
    { length: r.handicap === null ? 3000 : 300 },
    (_, k) => randomPlayout(i * 100_000 + k + 1, 12, 'default', r.sfen).moves,
  ),
);
const CATEGORIES = ['bullet', 'blitz', 'rapid', 'classical', null] as const;
const REASONS = [
  ['resignation', 0.62],
  ['checkmate', 0.18],
  ['timeout', 0.12],
  ['sennichite', 0.02],
  ['impasse', 0.01],
  ['perpetual_check', 0.005],
  ['abort', 0.035],
] as const;
const T0 = Date.UTC(2024, 0, 1);
/** Hidden strengths: Box-Muller normal, mean 1500, sd 300. */
const STRENGTH = Array.from(
  { length: PLAYERS },
  () => 1500 + 300 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()),
);

function pickWeighted<T>(items: readonly T[], weight: (t: T) => number): T {
  let r = random();
  for (const it of items) {
    r -= weight(it);
    if (r <= 0) return it;
  }
  return items.at(-1) as T;
}

function game(i: number): FinishedRow {
  const rootIndex = ROOTS.indexOf(pickWeighted(ROOTS, (r) => r.weight));
  const root = ROOTS[rootIndex] as (typeof ROOTS)[number];
  const pool = OPENINGS[rootIndex] as string[][];
  const opening = pool[Math.floor(pool.length * random() ** 3)] as string[];
  const s = Math.floor(random() * PLAYERS);
  const g = (s + 1 + Math.floor(random() * (PLAYERS - 1))) % PLAYERS;
  const reason = pickWeighted(REASONS, (r) => r[1])[0];
  const plies = reason === 'abort' ? Math.floor(random() * 4) : 30 + Math.floor(random() * random() * 200);
  const edge = (root.handicap === null ? 0.52 : 0.45) - 0.5;
  const senteOdds = 1 / (1 + 10 ** (((STRENGTH[g] as number) - (STRENGTH[s] as number)) / 400)) + edge;
  const winner = reason === 'abort' || reason === 'sennichite' ? null : random() < senteOdds ? 'sente' : 'gote';
  // in index order (plus a jitter under a game's gap), so the log order is the time order
  const started = T0 + Math.floor(((i + random() * 0.5) / N) * DAYS * 86_400_000);
  const rated = random() < 0.5;
  return {
    game_id: `b${i.toString(36).padStart(8, '0')}`,
    sente_id: `p${s}`,
    sente_name: `player ${s}`,
    gote_id: `p${g}`,
    gote_name: `player ${g}`,
    ruleset: random() < 0.95 ? 'default' : 'jsa',
    handicap: root.handicap,
    initial_sfen: root.sfen,
    rated,
    time_category: CATEGORIES[Math.floor(random() * CATEGORIES.length)] ?? null,
    sente_rating_before: null,
    sente_rating_after: null,
    gote_rating_before: null,
    gote_rating_after: null,
    result: winner ?? (reason === 'abort' ? 'none' : 'draw'),
    end_reason: reason,
    plies,
    opening: opening.slice(0, Math.min(plies, 12)),
    started_at: new Date(started).toISOString(),
    ended_at: new Date(started + plies * 20_000).toISOString(),
    imported: false,
    global_position: i + 1,
  };
}

const positionCache = new Map<string, string[]>();
/** The SFEN after each opening move (what MoveAccepted carries), computed once per opening. */
function positionsAfter(sfen: string, moves: readonly string[]): string[] {
  const key = `${sfen}|${moves.join(' ')}`;
  let out = positionCache.get(key);
  if (out === undefined) {
    const start = parseSfen(sfen);
    if (!start.ok) throw new Error(`bad start ${sfen}`);
    const game = new PositionHistory(start.value, 'default');
    out = moves.map((m) => {
      game.playUsi(m);
      return toSfen(game.position);
    });
    positionCache.set(key, out);
  }
  return out;
}

/** COPY FROM STDIN through psql; resolves when psql exits. */
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

const csv = (v: unknown): string =>
  v === null ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v);
const pgArray = (a: readonly string[]): string => `{${a.join(',')}}`;

const FINISHED_COLUMNS = [
  'game_id',
  'sente_id',
  'sente_name',
  'gote_id',
  'gote_name',
  'ruleset',
  'handicap',
  'initial_sfen',
  'rated',
  'time_category',
  'sente_rating_before',
  'sente_rating_after',
  'gote_rating_before',
  'gote_rating_after',
  'result',
  'end_reason',
  'plies',
  'opening',
  'started_at',
  'ended_at',
  'imported',
  'global_position',
] as const;

const ratings = new Map<string, PlayerRating>();

/** Rates the chunk's rated games in order (the projector's fold) and fills their rows. */
function rateChunk(rows: FinishedRow[]): { rows: FinishedRow[]; rated: RatedOutcome[]; history: string[] } {
  const rated: RatedOutcome[] = [];
  const history: string[] = [];
  const out = rows.map((r) => {
    const g = ratableGame(r);
    if (g === null) return r;
    const fold = rateGames([g], ratings);
    for (const [k, v] of fold.ratings) ratings.set(k, v);
    const [sc, gc] = fold.changes as [(typeof fold.changes)[0], (typeof fold.changes)[0]];
    for (const c of fold.changes)
      history.push(
        [
          c.gameId,
          c.playerId,
          c.category,
          c.opponentId,
          c.before.rating,
          c.before.deviation,
          c.after.rating,
          c.after.deviation,
          c.after.volatility,
          c.at,
          c.globalPosition,
        ].join(','),
      );
    const row = withRatings(r, sc, gc);
    rated.push({ row, sente: sc.before, gote: gc.before });
    return row;
  });
  return { rows: out, rated, history };
}

async function loadRatings(url: string): Promise<void> {
  const copy = copyIn(
    url,
    'ratings (player_id, category, name, rating, rd, volatility, games, wins, losses, draws, updated_at)',
  );
  for (const r of ratings.values())
    await copy.write(
      `${[r.playerId, r.category, csv(r.name), r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses, r.draws, r.updatedAt].join(',')}\n`,
    );
  await copy.end();
}

async function loadFinished(db: Db, url: string): Promise<void> {
  await sql`truncate finished_games, results_counters, results_rollups, length_counters, player_results, opening_counters,
    ratings, rating_history, rating_band_rollups, player_band_results, rating_diff_counters`.execute(db);
  await sql`delete from projection_checkpoints where name = 'stats'`.execute(db);
  const t0 = performance.now();
  const copy = copyIn(url, `finished_games (${FINISHED_COLUMNS.join(', ')})`);
  const historyCopy = copyIn(
    url,
    'rating_history (game_id, player_id, category, opponent_id, rating_before, rd_before, rating_after, rd_after, volatility_after, at, global_position)',
  );
  const CHUNK = 20_000;
  let counters = 0;
  for (let i = 0; i < N; i += CHUNK) {
    const chunk = rateChunk(Array.from({ length: Math.min(CHUNK, N - i) }, (_, k) => game(i + k)));
    const rows = chunk.rows;
    for (const h of chunk.history) await historyCopy.write(`${h}\n`);
    for (const r of rows)
      await copy.write(
        `${FINISHED_COLUMNS.map((c) => (c === 'opening' ? csv(pgArray(r.opening)) : csv(r[c] ?? null))).join(',')}\n`,
      );
    const positions = new Map(rows.map((r) => [r.game_id, positionsAfter(r.initial_sfen, r.opening)]));
    const t = performance.now();
    await db.transaction().execute(async (trx) => {
      await writeCounters(trx as never, rows, positions);
      await writeRatingCounters(trx as never, chunk.rated);
    });
    counters += performance.now() - t;
    if ((i / CHUNK) % 10 === 0) console.log(`${i + rows.length} games generated`);
  }
  await copy.end();
  await historyCopy.end();
  await loadRatings(url);
  await sql`analyze`.execute(db);
  console.log(
    `loaded ${N} finished games in ${((performance.now() - t0) / 1000).toFixed(1)} s (counters: ${(counters / 1000).toFixed(1)} s)`,
  );
}

/** A time control in each category (`categoryOf` maps it back), for the log of the rebuild bench. */
const TIME_CONTROL_OF: Record<string, object> = {
  bullet: { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 10, periods: 1 },
  blitz: { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 },
  rapid: { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 },
  classical: { kind: 'byoyomi', mainSeconds: 1800, byoyomiSeconds: 60, periods: 1 },
};

/** A middle-game position: the size of the SFEN a MoveAccepted carries. */
const PLACEHOLDER_SFEN = 'ln1g3nl/1r2kgs2/p1sppp1pp/2p3p2/1p5P1/2P1P4/PPSP1PP1P/2G2S1R1/LN2KG1NL b Bb 23';

/**
 * G games as events (GameCreated, then MoveSubmitted and MoveAccepted per ply, GameEnded),
 * then a timed rebuild.
 */
async function loadLogAndRebuild(db: Db, url: string, games: number): Promise<void> {
  await sql`truncate game_events, games`.execute(db);
  const copy = copyIn(url, 'game_events (game_id, seq, type, payload, recorded_at)');
  let events = 0;
  for (let i = 0; i < games; i++) {
    const r = game(i);
    const id = r.game_id;
    const ev = (seq: number, type: string, payload: unknown) => {
      events++;
      return copy.write(`${id},${seq},${type},${csv(JSON.stringify(payload))},${r.ended_at}\n`);
    };
    await ev(1, 'GameCreated', {
      gameId: id,
      sente: { id: r.sente_id, name: r.sente_name },
      gote: { id: r.gote_id, name: r.gote_name },
      ruleset: r.ruleset,
      handicap: r.handicap,
      initialSfen: r.initial_sfen,
      timeControl: TIME_CONTROL_OF[r.time_category ?? ''] ?? { kind: 'unlimited' },
      rated: r.rated && r.time_category !== null,
      createdAt: r.started_at,
    });
    // as a live game logs them: each move a MoveSubmitted, then its MoveAccepted with the
    // position and, in a timed game, the clocks; beyond the opening the moves are
    // placeholders of a real move's size (the projector only counts them)
    const sfens = positionsAfter(r.initial_sfen, r.opening);
    const timed = TIME_CONTROL_OF[r.time_category ?? ''] !== undefined;
    const side = { mainMs: 283_000, periodsLeft: 1, periodMs: 30_000 };
    for (let p = 0; p < r.plies; p++) {
      const color = p % 2 === 0 ? 'sente' : 'gote';
      const usi = r.opening[p] ?? '5i5h';
      await ev(2 * p + 2, 'MoveSubmitted', {
        playerId: color === 'sente' ? r.sente_id : r.gote_id,
        color,
        usi,
        ply: p,
        receivedAt: r.ended_at,
      });
      await ev(2 * p + 3, 'MoveAccepted', {
        submittedSeq: 2 * p + 2,
        ply: p + 1,
        usi,
        sfen: sfens[p] ?? PLACEHOLDER_SFEN,
        check: false,
        ...(timed ? { clock: { sente: side, gote: side, movedAt: r.ended_at, deadlineAt: r.ended_at } } : {}),
      });
    }
    await ev(2 * r.plies + 2, 'GameEnded', {
      winner: r.result === 'sente' || r.result === 'gote' ? r.result : null,
      reason: r.end_reason,
      at: r.ended_at,
    });
  }
  await copy.end();
  await sql`analyze game_events`.execute(db);
  const t0 = performance.now();
  const n = await rebuildStats(db);
  const s = (performance.now() - t0) / 1000;
  console.log(
    `rebuild: ${n} games (${events} events) in ${s.toFixed(1)} s = ${(n / s).toFixed(0)} games/s, ${(events / s).toFixed(0)} events/s; ` +
      `1,000,000 games of this shape: ~${(1_000_000 / (n / s) / 60).toFixed(1)} min`,
  );
}

await ensureDatabase(args.url);
const db = createDb(args.url, { max: 2, analytic: true });
try {
  await migrateToLatest(db);
  if (args.log !== undefined) await loadLogAndRebuild(db, args.url, Number(args.log));
  else await loadFinished(db, args.url);
} finally {
  await db.destroy();
}
