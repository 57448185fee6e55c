/**
 * A fresh database per test file on the PostgreSQL at DATABASE_URL (default localhost):
 * created with a random name, migrated, and dropped by `drop()`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb } from '../db.js';
import { migrateToLatest } from '../migrate.js';
import type { Db } from '../schema.js';

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  readonly db: Db;
  /** Closes `db` and drops the database. */
  drop(): Promise<void>;
}

const baseUrl = (): string => process.env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/postgres';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(body: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl() });
  try {
    await client.connect();
  } catch (e) {
    throw new Error(
      `cannot reach PostgreSQL at ${baseUrl()} (${(e as Error).message}); start it (.ci/run, or docker compose up -d postgres) or set DATABASE_URL`,
      { cause: e },
    );
  }
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(
  options: { readonly max?: number; readonly migrate?: boolean } = {},
): Promise<TestDatabase> {
  const name = `shogi_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = withDatabase(baseUrl(), name);
  const db = createDb(url, { max: options.max ?? 10 });
  if (options.migrate !== false) await migrateToLatest(db);
  return {
    url,
    name,
    db,
    async drop() {
      await db.destroy();
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
