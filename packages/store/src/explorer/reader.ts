/**
 * The explorer's reader with a cache of decoded runs. A run never changes once written (a
 * compaction deletes runs and writes a new one), so a run decoded once answers every later
 * query of its bucket until it is compacted away: each query still lists the bucket's runs
 * (an index-only read) but fetches and decodes only the runs it has not seen. The hot buckets
 * (the start position's, the main openings') are what this keeps; least recently used runs
 * leave past `maxEntries` decoded entries.
 */
import {
  type Entry,
  type ExplorerFilter,
  forEachEntry,
  type Limits,
  type PositionKey,
  type PositionStats,
  summarize,
} from '@shogi/explorer';
import { type Kysely, sql } from 'kysely';
import type { ExplorerSource } from './schema.js';

// biome-ignore lint/suspicious/noExplicitAny: any database whose schema holds the explorer's table
type AnyDb = Kysely<any>;

interface DecodedRun {
  /** the run's entries by position (the rest of the key) */
  readonly byKey: Map<number, Entry[]>;
  readonly size: number;
}

export interface ExplorerReader {
  /** The entries of one position over the given sources. */
  entries(sources: readonly ExplorerSource[], key: PositionKey): Promise<Entry[]>;
  stats(
    sources: readonly ExplorerSource[],
    key: PositionKey,
    filter: ExplorerFilter,
    limits: Limits,
  ): Promise<PositionStats>;
}

function decode(data: Uint8Array): DecodedRun {
  const byKey = new Map<number, Entry[]>();
  let size = 0;
  forEachEntry(data, (e) => {
    let list = byKey.get(e.rest);
    if (list === undefined) {
      list = [];
      byKey.set(e.rest, list);
    }
    list.push(e);
    size++;
  });
  return { byKey, size };
}

export function explorerReader(db: AnyDb, options: { maxEntries?: number } = {}): ExplorerReader {
  const maxEntries = options.maxEntries ?? 1_000_000;
  const cache = new Map<string, DecodedRun & { readonly bucket: string }>();
  /** the cached runs of each source and bucket, so a query names only its bucket's */
  const runsOf = new Map<string, Set<string>>();
  let cached = 0;
  const remember = (bucket: string, run: string, decoded: DecodedRun) => {
    cache.set(run, { ...decoded, bucket });
    runsOf.set(bucket, (runsOf.get(bucket) ?? new Set()).add(run));
    cached += decoded.size;
    for (const [old, d] of cache) {
      if (cached <= maxEntries || old === run) break;
      cache.delete(old);
      runsOf.get(d.bucket)?.delete(old);
      cached -= d.size;
    }
  };
  const touch = (run: string): DecodedRun | undefined => {
    const d = cache.get(run);
    if (d !== undefined) {
      cache.delete(run);
      cache.set(run, d);
    }
    return d;
  };
  async function entries(sources: readonly ExplorerSource[], key: PositionKey): Promise<Entry[]> {
    const known = sources.flatMap((source) => [...(runsOf.get(`${source}:${key.bucket}`) ?? [])]);
    // one round trip: every run of the bucket, the bytes only of those not decoded yet
    const r = await sql<{ source: string; run: string; data: Uint8Array | null }>`select source, run::text as run,
        case when run = any(${known}::bigint[]) then null else data end as data
      from explorer_runs where source = any(${sources}::text[]) and bucket = ${key.bucket}`.execute(db);
    const out: Entry[] = [];
    for (const row of r.rows) {
      let decoded = row.data === null ? touch(row.run) : undefined;
      if (decoded === undefined) {
        // evicted between the two reads: read it again
        const data =
          row.data ??
          (await sql<{ data: Uint8Array }>`select data from explorer_runs where run = ${row.run}`.execute(db)).rows[0]
            ?.data;
        if (data === undefined) continue;
        decoded = decode(data);
        remember(`${row.source}:${key.bucket}`, row.run, decoded);
      }
      for (const e of decoded.byKey.get(key.rest) ?? []) out.push(e);
    }
    return out;
  }
  return {
    entries,
    async stats(sources, key, filter, limits) {
      return summarize(await entries(sources, key), filter, limits);
    },
  };
}
