/**
 * The partitioned log's plans, as PostgreSQL ran them for the store's own calls: a game's reads
 * and appends scan the one partition that holds it, the whole-log readers (the read-all
 * horizon, readAll, the games and statistics rebuilds) scan every partition.
 *
 * The plans come from auto_explain, loaded into every new session of the test database and
 * sent to the client as notices: so they are the plans of the statements the store really
 * sends, the prepared ones with their generic plans (pruned when the executor starts, with the
 * game id known) included. A scan node counts when it ran (`Actual Loops` > 0); a partition
 * pruned at run time in a LATERAL probe stays in the plan but never runs.
 */

import { GOTE, gameCreated, moveSubmitted, SENTE } from '@shogi/game/testing';
import {
  appendEvents,
  appendMany,
  compareGamesWithLog,
  createDb,
  createPgEventStore,
  type Database,
  type Db,
  poolOf,
  readAll,
  readAllHorizon,
  readStream,
  readStreams,
  rebuildGamesTable,
  rebuildStats,
} from '@shogi/store';
import {
  createTestDatabase,
  gamesInDistinctPartitions,
  logPartitions,
  partitionOf,
  type TestDatabase,
} from '@shogi/store/testing';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playLoggedGame } from './logged-games.js';

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Actual Loops'?: number;
  readonly Plans?: readonly PlanNode[];
}
interface LoggedPlan {
  readonly 'Query Text': string;
  readonly Plan: PlanNode;
}

const AUTO_EXPLAIN: Record<string, string> = {
  session_preload_libraries: 'auto_explain',
  'auto_explain.log_min_duration': '0',
  'auto_explain.log_analyze': 'on',
  'auto_explain.log_timing': 'off',
  'auto_explain.log_format': 'json',
  'auto_explain.log_level': 'notice',
  'auto_explain.log_nested_statements': 'on',
};

let t: TestDatabase;
/** A createDb Kysely: the prepared statements on its own pool, whose notices are captured. */
let server: Db;
/** A Kysely without prepared statements (as in a transaction): kysely's statements. */
let plain: Db;
let plainPool: pg.Pool;
const logged: LoggedPlan[] = [];
let partitions: string[];
let ended = 0;

function capture(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.on('notice', (m) => {
      const text = m.message ?? '';
      const json = text.indexOf('{');
      if (text.startsWith('duration:') && json >= 0) logged.push(JSON.parse(text.slice(json)) as LoggedPlan);
    });
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  // games written as the server writes them, spread over the partitions, most of them ended
  const store = createPgEventStore(t.db);
  await Promise.all(
    Array.from({ length: 32 }, (_, i) => {
      const resign = i % 4 !== 3;
      if (resign) ended++;
      return playLoggedGame(store, `plan-${i}`, { seed: i + 1, plies: 4 + (i % 3) * 2, resign });
    }),
  );
  await sql`analyze game_events`.execute(t.db);
  partitions = await logPartitions(t.db);
  for (const [name, value] of Object.entries(AUTO_EXPLAIN))
    await sql.raw(`alter database ${t.name} set ${name} = '${value}'`).execute(t.db);
  server = createDb(t.url, { max: 2 });
  const statements = poolOf(server);
  if (statements === undefined) throw new Error('createDb gives a statements pool');
  capture(statements);
  plainPool = new pg.Pool({ connectionString: t.url, max: 2 });
  capture(plainPool);
  plain = new Kysely<Database>({ dialect: new PostgresDialect({ pool: plainPool }) });
});
afterAll(async () => {
  await server?.destroy();
  await plain?.destroy();
  await t?.drop();
});

/** The plans of the statements `run` sent that read the log. */
async function plansOf(run: () => Promise<unknown>): Promise<LoggedPlan[]> {
  const from = logged.length;
  await run();
  return logged.slice(from).filter((p) => /\bgame_events\b/.test(p['Query Text']));
}

/** The partitions of the log that the plans' scans read, sorted. */
function scanned(plans: readonly LoggedPlan[]): string[] {
  const out = new Set<string>();
  const walk = (n: PlanNode) => {
    const relation = n['Relation Name'];
    if (relation?.startsWith('game_events') && n['Node Type'].endsWith('Scan') && (n['Actual Loops'] ?? 0) > 0)
      out.add(relation);
    for (const child of n.Plans ?? []) walk(child);
  };
  for (const p of plans) walk(p.Plan);
  return [...out].sort();
}

describe('a game reads and appends in its own partition', () => {
  it('reads a stream through the prepared statement (a generic plan) and through kysely', async () => {
    expect(partitions.length).toBe(8);
    const where = await partitionOf(t.db, 'plan-5');
    const prepared = await plansOf(() => readStream(server, 'plan-5'));
    expect(prepared.length).toBe(1);
    expect(scanned(prepared)).toEqual([where]);
    const kysely = await plansOf(() => readStream(plain, 'plan-5', 2));
    expect(kysely.length).toBe(1);
    expect(scanned(kysely)).toEqual([where]);
  });

  it('reads several streams in one LATERAL query, each in its partition', async () => {
    const games = await gamesInDistinctPartitions(t.db, 'plan-', 3);
    const plans = await plansOf(() =>
      readStreams(
        server,
        games.map((gameId) => ({ gameId, afterSeq: 1 })),
      ),
    );
    expect(plans.length).toBe(1);
    expect(scanned(plans)).toEqual((await Promise.all(games.map((g) => partitionOf(t.db, g)))).sort());
  });

  it('appends with the expected-seq guard probing the game partition only', async () => {
    await appendEvents(plain, 'append-a', 0, [gameCreated('append-a')]);
    const where = await partitionOf(t.db, 'append-a');
    const prepared = await plansOf(() => appendEvents(server, 'append-a', 1, [moveSubmitted('7g7f', 0, SENTE)]));
    expect(prepared.length).toBe(1);
    expect(scanned(prepared)).toEqual([where]);
    const kysely = await plansOf(() => appendEvents(plain, 'append-a', 2, [moveSubmitted('3c3d', 1, GOTE)]));
    expect(kysely.length).toBe(1);
    expect(scanned(kysely)).toEqual([where]);
  });

  it('appends to games of two partitions in one statement, probing those two', async () => {
    const games = await gamesInDistinctPartitions(t.db, 'plan-', 2);
    const seqs = await Promise.all(games.map(async (g) => (await readStream(t.db, g)).length));
    // the games are over: a move appended to them here is only for the plan
    const plans = await plansOf(() =>
      appendMany(
        server,
        games.map((gameId, i) => ({ gameId, expectedSeq: seqs[i] ?? 0, events: [moveSubmitted('1g1f', 99)] })),
      ),
    );
    expect(plans.length).toBe(1);
    expect(scanned(plans)).toEqual((await Promise.all(games.map((g) => partitionOf(t.db, g)))).sort());
  });
});

describe('the whole-log readers read every partition', () => {
  it('takes the read-all horizon and reads all events in global order', async () => {
    expect(scanned(await plansOf(() => readAllHorizon(plain)))).toEqual(partitions);
    let events: Awaited<ReturnType<typeof readAll>> = [];
    const plans = await plansOf(async () => {
      events = await readAll(plain, 0, 1_000_000);
    });
    expect(scanned(plans)).toEqual(partitions);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from game_events`.execute(t.db);
    expect(events.length).toBe(rows[0]?.n);
  });

  it('rebuilds the games table and the statistics from every partition', async () => {
    const games = await plansOf(() => rebuildGamesTable(plain));
    expect(scanned(games)).toEqual(partitions);
    expect((await compareGamesWithLog(t.db)).differences).toEqual([]);
    let finished = 0;
    const stats = await plansOf(async () => {
      finished = await rebuildStats(plain);
    });
    expect(scanned(stats)).toEqual(partitions);
    expect(finished).toBe(ended);
  });
});
