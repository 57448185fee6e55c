/**
 * The PostgreSQL event store. Repository functions take `db` (or a transaction) first.
 *
 * Append is ONE statement (atomic without BEGIN/COMMIT, one round trip): it takes the
 * shared read-all lock, inserts the events at expectedSeq+1.. only if seq expectedSeq
 * exists (or expectedSeq is 0), and upserts the `games` row from the same events. A
 * unique violation on (game_id, seq) — someone appended first — or an expected seq ahead
 * of the stream surfaces as VersionConflictError: the caller re-reads and decides again.
 *
 * readAll and late commits: global_position is a bigserial, taken when a row is inserted,
 * but transactions commit in any order, so position 7 can be visible before 6. A reader
 * that checkpointed at 7 would never see 6. Every append therefore holds a transaction-
 * level SHARED advisory lock from before it draws its positions until it commits (the
 * lock is taken in a MATERIALIZED CTE that the insert's rows depend on); readAll takes
 * the same lock EXCLUSIVELY for an instant to read the highest position: at that moment
 * no append is between drawing positions and committing, so every position up to that
 * horizon is final (committed or rolled back), and readAll returns nothing beyond it.
 * With the log partitioned by game (migration 0014) the proof is unchanged: every partition
 * takes its positions from the one sequence, the lock is the database's and not a table's,
 * and the horizon is the highest position over all partitions, so a late commit in one
 * partition holds back a reader of every other (tested with two games of two partitions).
 * The cost is a short pause of appends while a reader takes the horizon (an index probe per
 * partition),
 * and the horizon is reused while a reader is behind it. Chosen over an xmin/xid8 horizon
 * because that needs a composite (xid, position) checkpoint, and the public checkpoint
 * here is the plain global position.
 */
import { type AppendResult, type EventStore, type RecordedEvent, VersionConflictError } from '@shogi/game';
import { type AppendRequest, appendEvents, appendMany } from './append.js';
import { createBatcher } from './batching.js';
import { poolOf } from './db.js';
import type { Executor } from './event-rows.js';
import { readAll, readAllHorizon, readStream, readStreams } from './read.js';

export interface PgEventStoreOptions {
  /**
   * Batch concurrent appends (and stream reads) of different games into one statement
   * (default true; needs a Kysely from createDb). Each append keeps its own atomicity
   * and conflict; only the round trips and commits are shared.
   */
  readonly batch?: boolean;
  readonly maxBatch?: number;
  /**
   * Batches in flight at once, per kind (default 1: fewest commits and the largest batches,
   * which cost PostgreSQL less CPU per move and lowered latency in the worker bench;
   * bench/worker/NOTES.md). The rest wait and join the next batch.
   */
  readonly maxInFlight?: number;
}

/** The EventStore port over PostgreSQL; readAll reuses its last horizon while it is still ahead. */
export function createPgEventStore(db: Executor, options: PgEventStoreOptions = {}): EventStore {
  let horizon = 0;
  const batching = options.batch !== false && poolOf(db) !== undefined;
  const batcherOptions = {
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
    ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
  };
  const append = createBatcher<AppendRequest, AppendResult | VersionConflictError>((batch) => appendMany(db, batch), {
    ...batcherOptions,
    key: (r) => r.gameId,
  });
  const read = createBatcher<{ gameId: string; afterSeq: number }, RecordedEvent[]>(async (batch) => {
    // one query per distinct game from its lowest seq; each request keeps its own tail
    const from = new Map<string, number>();
    for (const r of batch) from.set(r.gameId, Math.min(r.afterSeq, from.get(r.gameId) ?? r.afterSeq));
    const tails = await readStreams(
      db,
      [...from].map(([gameId, afterSeq]) => ({ gameId, afterSeq })),
    );
    return batch.map((r) => (tails.get(r.gameId) ?? []).filter((e) => e.seq > r.afterSeq));
  }, batcherOptions);
  return {
    async append(gameId, expectedSeq, events) {
      if (!batching) return appendEvents(db, gameId, expectedSeq, events);
      const result = await append({ gameId, expectedSeq, events });
      if (result instanceof VersionConflictError) throw result;
      return result;
    },
    readStream: (gameId, afterSeq = 0) => (batching ? read({ gameId, afterSeq }) : readStream(db, gameId, afterSeq)),
    async readAll(after, limit) {
      if (horizon <= after) horizon = await readAllHorizon(db);
      return readAll(db, after, limit, horizon);
    },
  };
}
