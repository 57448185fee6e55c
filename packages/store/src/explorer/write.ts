/**
 * Writes finished games into the explorer's index: each game's entries (its first plies, by
 * position and move) grouped by source and bucket, merged, packed, and added as one new run
 * per bucket; a bucket past MAX_RUNS runs is then compacted into one. Runs in the statistics
 * projector's transaction, on the rows it inserted, so a game counts once however many
 * projectors run (the rows' own guard) and as soon as the projector sees its end.
 */
import {
  type BucketEntry,
  DEFAULT_PLIES,
  type Entry,
  type ExplorerGame,
  entriesOfGame,
  mergeEntries,
  monthIndexOf,
  packEntries,
  speedOfCategory,
  unpackEntries,
} from '@shogi/explorer';
import { type Kysely, sql } from 'kysely';
import type { FinishedRow } from '../stats/rows.js';
import { type ExplorerSource, type ExplorerTables, MAX_RUNS } from './schema.js';

/** Plies of each game the index covers (lichess's 50). */
export const EXPLORER_PLIES = DEFAULT_PLIES;

/** How the projector keeps the index: compacting as it goes, once at the end (a rebuild), or not at all. */
export type ExplorerMode = 'live' | 'deferred' | 'off';

// biome-ignore lint/suspicious/noExplicitAny: any database or transaction whose schema holds the explorer's table
type ExplorerDb = Kysely<any>;

/** The explorer's view of a finished game's row; null for a game without a result (aborted, interrupted). */
export function explorerGame(row: FinishedRow, moves: readonly string[]): ExplorerGame | null {
  if (row.result === 'none') return null;
  return {
    ref: Number(row.global_position),
    initialSfen: row.initial_sfen,
    moves,
    result: row.result,
    speed: speedOfCategory(row.time_category),
    senteRating: row.sente_rating_before ?? null,
    goteRating: row.gote_rating_before ?? null,
    month: monthIndexOf(row.started_at),
  };
}

const sourceOf = (row: FinishedRow): ExplorerSource => (row.imported ? 'imported' : 'played');

/** Adds the games' entries as new runs; returns the buckets written, by source. */
export async function writeExplorer(
  db: ExplorerDb,
  rows: readonly FinishedRow[],
  movesOf: ReadonlyMap<string, readonly string[]>,
  mode: ExplorerMode = 'live',
): Promise<number> {
  if (mode === 'off' || rows.length === 0) return 0;
  const grouped = new Map<string, Entry[]>();
  for (const row of rows) {
    const game = explorerGame(row, movesOf.get(row.game_id) ?? []);
    if (game === null) continue;
    const source = sourceOf(row);
    for (const { bucket, entry } of entriesOfGame(game, EXPLORER_PLIES) as BucketEntry[]) {
      const k = `${source}:${bucket}`;
      let list = grouped.get(k);
      if (list === undefined) {
        list = [];
        grouped.set(k, list);
      }
      list.push(entry);
    }
  }
  const values = [...grouped].map(([k, list]) => {
    const [source, bucket] = k.split(':') as [ExplorerSource, string];
    return { source, bucket: Number(bucket), data: packEntries(mergeEntries(list)) };
  });
  const edb = db as Kysely<ExplorerTables>;
  for (let i = 0; i < values.length; i += 2000)
    await edb
      .insertInto('explorer_runs')
      .values(values.slice(i, i + 2000))
      .execute();
  if (mode === 'live' && values.length > 0) await compactCrowded(db, values);
  return values.length;
}

/** Compacts the buckets just written that now hold more than MAX_RUNS runs. */
async function compactCrowded(
  db: ExplorerDb,
  written: readonly { source: ExplorerSource; bucket: number }[],
): Promise<void> {
  const sources = written.map((w) => w.source);
  const buckets = written.map((w) => w.bucket);
  const crowded = await sql<{ source: ExplorerSource; bucket: number }>`
    select r.source, r.bucket from explorer_runs r
    join unnest(${sources}::text[], ${buckets}::int[]) as w(source, bucket) on r.source = w.source and r.bucket = w.bucket
    group by r.source, r.bucket having count(*) > ${MAX_RUNS}`.execute(db);
  if (crowded.rows.length > 0) await compactBuckets(db, crowded.rows);
}

/**
 * Merges each bucket's runs into one: the runs are deleted and their merged entries inserted
 * in the same statement's transaction (the caller's), so a reader sees the old runs or the new.
 */
export async function compactBuckets(
  db: ExplorerDb,
  buckets: readonly { source: ExplorerSource; bucket: number }[],
): Promise<void> {
  if (buckets.length === 0) return;
  const deleted = await sql<{ source: ExplorerSource; bucket: number; data: Uint8Array }>`
    delete from explorer_runs r using unnest(${buckets.map((b) => b.source)}::text[], ${buckets.map((b) => b.bucket)}::int[]) as w(source, bucket)
    where r.source = w.source and r.bucket = w.bucket returning r.source, r.bucket, r.data`.execute(db);
  const merged = new Map<string, Entry[]>();
  for (const r of deleted.rows) {
    const k = `${r.source}:${r.bucket}`;
    const list = merged.get(k) ?? [];
    for (const e of unpackEntries(r.data)) list.push(e);
    merged.set(k, list);
  }
  const values = [...merged].map(([k, list]) => {
    const [source, bucket] = k.split(':') as [ExplorerSource, string];
    return { source, bucket: Number(bucket), data: packEntries(mergeEntries(list)) };
  });
  for (let i = 0; i < values.length; i += 1000)
    await (db as Kysely<ExplorerTables>)
      .insertInto('explorer_runs')
      .values(values.slice(i, i + 1000))
      .execute();
}

/** Compacts every bucket of the index, a slice of buckets per transaction (after a rebuild). */
export async function compactAll(db: ExplorerDb, slice = 2048): Promise<void> {
  for (let from = 0; from < 1 << 16; from += slice) {
    const rows = await sql<{ source: ExplorerSource; bucket: number }>`
      select source, bucket from explorer_runs where bucket >= ${from} and bucket < ${from + slice}
      group by source, bucket having count(*) > 1`.execute(db);
    if (rows.rows.length > 0) await db.transaction().execute((trx) => compactBuckets(trx, rows.rows));
  }
}
