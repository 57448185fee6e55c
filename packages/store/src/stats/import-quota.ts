/**
 * The records HTTP imports added over the last day, per owner (migration 0015): 'p:' and a
 * player id, 'a:' and a client address key. Read and written under the owner's quota lock
 * (quota-lock.ts) in the import's own transaction, so imports that arrive together are
 * counted one after the other and cannot pass the cap between them. Rows older than the
 * day are deleted as the owner is counted, and the others by the workers' hourly sweep
 * (`deleteExpiredImportQuotaUses`): no address is kept much longer than the day.
 */
import { sql } from 'kysely';
import type { Db } from '../schema.js';
import { statsDb } from './projector.js';

export const IMPORT_QUOTA_WINDOW_MS = 24 * 3600_000;

export interface ImportQuotaUse {
  /** records imported in the last day */
  readonly records: number;
  /** seconds until the oldest of them leaves the day (0: none) */
  readonly freesInSeconds: number;
}

export async function importQuotaUse(db: Db, owner: string): Promise<ImportQuotaUse> {
  const sdb = statsDb(db);
  const window = sql<Date>`now() - ${`${IMPORT_QUOTA_WINDOW_MS} milliseconds`}::interval`;
  await sdb.deleteFrom('import_quota_uses').where('owner', '=', owner).where('at', '<=', window).execute();
  const r = await sdb
    .selectFrom('import_quota_uses')
    .select([
      sql<string>`coalesce(sum(records), 0)`.as('records'),
      sql<
        number | null
      >`ceil(extract(epoch from min(at) + ${`${IMPORT_QUOTA_WINDOW_MS} milliseconds`}::interval - now()))`.as('frees'),
    ])
    .where('owner', '=', owner)
    .executeTakeFirstOrThrow();
  return { records: Number(r.records), freesInSeconds: Math.max(0, Number(r.frees ?? 0)) };
}

/** Counts an import's new records against each owner. */
export async function addImportQuotaUse(db: Db, owners: readonly string[], records: number): Promise<void> {
  if (records === 0 || owners.length === 0) return;
  await statsDb(db)
    .insertInto('import_quota_uses')
    .values(owners.map((owner) => ({ owner, records })))
    .execute();
}

/** Deletes up to `limit` rows older than the day, of any owner; returns how many. */
export async function deleteExpiredImportQuotaUses(db: Db, limit = 1_000): Promise<number> {
  const r = await sql`delete from import_quota_uses where ctid in (select ctid from import_quota_uses
    where at <= now() - ${`${IMPORT_QUOTA_WINDOW_MS} milliseconds`}::interval limit ${limit})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
