/** Per-player limits (personal tokens, open seeks, pending challenges) and per-address ones held under concurrency. */
import { type QueryExecutorProvider, sql } from 'kysely';

/** Per player, except the '-by-address' ones: per client address (the lobby's address key). */
export type QuotaKind = 'tokens' | 'seeks' | 'challenges' | 'seeks-by-address' | 'imports' | 'imports-by-address';

/**
 * Takes, until the transaction ends, the lock of one player's (or address's) `kind` quota. Counting and
 * inserting under it makes the limit hold for requests that arrive together: without it,
 * each counted before any inserted (a probe's 12 concurrent token requests at 45 of 50 left 51).
 */
export async function lockQuota(trx: QueryExecutorProvider, kind: QuotaKind, owner: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`quota:${kind}:${owner}`}, 0))`.execute(trx);
}
