import { metrics } from '@shogi/metrics';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database, Db } from './schema.js';

export interface CreateDbOptions {
  /** Pool size (default 10). */
  readonly max?: number;
  readonly applicationName?: string;
  /** Errors of idle pooled connections (a server restart, a terminated backend); default: ignored, the pool reconnects. */
  readonly onIdleError?: (err: Error) => void;
  /**
   * Let PostgreSQL JIT-compile and parallelize this pool's queries (default false). The
   * server's queries are short and share two cores with the moves: the statistics
   * projector's read, costed far above its real cost on a table never analyzed, was
   * JIT-compiled with inlining and optimization and run by three processes, each read taking
   * far longer than its work, every second or two. Long analytic work (the projection rebuild, imports, the
   * statistics routes over a million games) keeps PostgreSQL's defaults.
   */
  readonly analytic?: boolean;
}

const statementPools = new WeakMap<object, pg.Pool>();

/**
 * The pool of the event store's named prepared statements under a Kysely made by createDb
 * (undefined for a transaction or another Kysely): the hot paths use them because kysely
 * does not offer them (planning cost more than executing).
 */
export const poolOf = (db: object): pg.Pool | undefined => statementPools.get(db);

/** A kysely instance over a `pg` pool; close it with `db.destroy()`. */
export function createDb(url: string, options: CreateDbOptions = {}): Db {
  const max = options.max ?? 10;
  const named = options.applicationName === undefined ? {} : { application_name: options.applicationName };
  const shortQueries = options.analytic === true ? [] : ['-c jit=off', '-c max_parallel_workers_per_gather=0'];
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...named,
    ...(shortQueries.length === 0 ? {} : { options: shortQueries.join(' ') }),
  });
  // The named prepared statements run on a small pool of their own, whose sessions always
  // plan them generically. With plan_cache_mode auto, PostgreSQL planned the append anew
  // on every call (knowing its arrays' lengths makes each custom plan look cheaper): a large
  // share of a one-game append's backend CPU (bench/worker/append-plans.ts measures it). The
  // generic plans are the same index probes (array parameters have no statistics to plan
  // from). Not for kysely's pool: its statements are unnamed, planned per call with their
  // values, and force_generic_plan would take those away.
  // A generic plan is made once per session, from the tables as they are then: on a young
  // database the append's update of `games` planned a sequential scan (cheaper than probes
  // of a few pages), and kept it while the table grew, every append reading every game
  // (found by the e2e bench: throughput fell as a run went on). These sessions
  // run only key lookups, so sequential scans are off for them.
  const statements = new pg.Pool({
    connectionString: url,
    max: Math.min(max, 4),
    ...named,
    options: ['-c plan_cache_mode=force_generic_plan', '-c enable_seqscan=off', ...shortQueries].join(' '),
  });
  for (const p of [pool, statements]) {
    // without a listener, an idle connection's error (e.g. the server restarting) would crash the process
    p.on('error', options.onIdleError ?? (() => undefined));
    // the pool listens to its idle clients only: a client checked out by kysely (between its
    // queries, or before the first) whose backend is terminated would emit an unhandled
    // 'error' and crash the process. The query in flight, if any, fails on its own and the
    // pool drops the client when it comes back unqueryable.
    p.on('connect', (client) => client.on('error', () => undefined));
  }
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: {
        connect: () => pool.connect(),
        end: () => pool.end(),
      },
    }),
  });
  // Kysely ends its pool only if it ever ran a query: a db used only through the prepared
  // statements (a worker's event store) must still close their pool, once
  const destroyKysely = db.destroy.bind(db);
  const stopSampling = samplePools(options.applicationName ?? 'shogi', pool, statements);
  let destroyed: Promise<void> | undefined;
  db.destroy = () => {
    destroyed ??= (async () => {
      await destroyKysely();
      stopSampling();
      await Promise.all([pool.ending ? undefined : pool.end(), statements.end()]);
    })();
    return destroyed;
  };
  statementPools.set(db, statements);
  return db;
}

/** Both pools' clients for /metrics, under the pool's application name (a fixed name per process role). */
function samplePools(name: string, pool: pg.Pool, statements: pg.Pool): () => void {
  return metrics.pgPool.read(() =>
    [
      [name, pool],
      [`${name}-statements`, statements],
    ].flatMap(([label, p]) => {
      const { totalCount, idleCount, waitingCount } = p as pg.Pool;
      const labels = (state: string) => ({ pool: label as string, state });
      return [
        [labels('total'), totalCount],
        [labels('idle'), idleCount],
        [labels('waiting'), waitingCount],
      ] as const;
    }),
  );
}
