/** Per-player limits (personal tokens, open seeks, pending challenges) held under concurrency. */
import { type QueryExecutorProvider, sql } from 'kysely';

export type QuotaKind = 'tokens' | 'seeks' | 'challenges';

/**
 * Takes, until the transaction ends, the lock of one player's `kind` quota. Counting and
 * inserting under it makes the limit hold for requests that arrive together: without it,
 * each counted before any inserted (a probe's 12 concurrent token requests at 45 of 50 left 51).
 */
export async function lockQuota(trx: QueryExecutorProvider, kind: QuotaKind, playerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`quota:${kind}:${playerId}`}, 0))`.execute(trx);
}
