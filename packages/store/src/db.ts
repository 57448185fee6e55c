import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database, Db } from './schema.js';

export interface CreateDbOptions {
  /** Pool size (default 10). */
  readonly max?: number;
  readonly applicationName?: string;
}

/** A kysely instance over a `pg` pool; close it with `db.destroy()`. */
export function createDb(url: string, options: CreateDbOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
