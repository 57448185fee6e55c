import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database, Db } from './schema.js';

export interface CreateDbOptions {
  /** Pool size (default 10). */
  readonly max?: number;
  readonly applicationName?: string;
  /** Errors of idle pooled connections (a server restart, a terminated backend); default: ignored, the pool reconnects. */
  readonly onIdleError?: (err: Error) => void;
}

const pools = new WeakMap<object, pg.Pool>();

/**
 * The pg pool under a Kysely made by createDb (undefined for a transaction or another
 * Kysely): the hot paths of the event store use it for named prepared statements,
 * which kysely does not offer (planning cost more than executing them).
 */
export const poolOf = (db: object): pg.Pool | undefined => pools.get(db);

/** A kysely instance over a `pg` pool; close it with `db.destroy()`. */
export function createDb(url: string, options: CreateDbOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // plan_cache_mode stays auto: force_generic_plan (tried, to skip re-planning the event
    // store's statements) doubled PostgreSQL CPU per move in apps/worker/bench/validate.ts
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
  });
  // without a listener, an idle connection's error (e.g. the server restarting) would crash the process
  pool.on('error', options.onIdleError ?? (() => undefined));
  // the pool listens to its idle clients only: a client checked out by kysely (between its
  // queries, or before the first) whose backend is terminated would emit an unhandled
  // 'error' and crash the process. The query in flight, if any, fails on its own and the
  // pool drops the client when it comes back unqueryable.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}
