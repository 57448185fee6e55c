/** `npm run migrate -w @shogi/store`: applies pending migrations to DATABASE_URL. */
import { createDb } from '../db.js';
import { migrateToLatest } from '../migrate.js';

const url = process.env.DATABASE_URL ?? 'postgres://localhost:5432/shogi';
const db = createDb(url, { max: 1 });
try {
  const result = await migrateToLatest(db);
  const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
  console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
} catch (e) {
  console.error(`migration failed on ${url.replace(/\/\/[^@]*@/, '//***@')}: ${(e as Error).message}`);
  console.error(
    'is PostgreSQL running? start it (e.g. `.ci/run` or `docker compose up -d postgres`) or set DATABASE_URL',
  );
  process.exitCode = 1;
} finally {
  await db.destroy();
}
