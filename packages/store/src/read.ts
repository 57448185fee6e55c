/** Reading streams and the whole log (readAll below a final horizon: see event-store.ts). */
import type { RecordedEvent } from '@shogi/game';
import { sql } from 'kysely';
import { poolOf } from './db.js';
import { type EventRow, type Executor, READ_ALL_LOCK_KEY, toRecorded } from './event-rows.js';

const READ_STREAM_PREPARED = `select game_id, seq, type, payload, recorded_at, global_position
  from game_events where game_id = $1::text and seq > $2::integer order by seq`;

/** The stream's events after `afterSeq`, in order. */
export async function readStream(db: Executor, gameId: string, afterSeq = 0): Promise<RecordedEvent[]> {
  const pool = poolOf(db);
  if (pool !== undefined) {
    const r = await pool.query<EventRow>({
      name: 'shogi_read_stream_v1',
      text: READ_STREAM_PREPARED,
      values: [gameId, afterSeq],
    });
    return r.rows.map(toRecorded);
  }
  const rows = await db
    .selectFrom('game_events')
    .select(['game_id', 'seq', 'type', 'payload', 'recorded_at', 'global_position'])
    .where('game_id', '=', gameId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .execute();
  return rows.map(toRecorded);
}

// LATERAL keeps the primary-key index in the generic plan (a plain join of unnest with
// `seq > after` planned a parallel seq scan of the whole log: found by the e2e bench)
const READ_STREAMS_PREPARED = `select e.game_id, e.seq, e.type, e.payload, e.recorded_at, e.global_position
  from unnest($1::text[], $2::integer[]) as q(game_id, after)
  cross join lateral (
    select g.game_id, g.seq, g.type, g.payload, g.recorded_at, g.global_position from game_events g
    where g.game_id = q.game_id and g.seq > q.after order by g.seq
  ) e
  order by e.game_id, e.seq`;

/** The tails of several streams in one query: game id -> events after its seq, in order. */
export async function readStreams(
  db: Executor,
  requests: readonly { readonly gameId: string; readonly afterSeq: number }[],
): Promise<Map<string, RecordedEvent[]>> {
  const out = new Map<string, RecordedEvent[]>(requests.map((r) => [r.gameId, []]));
  const pool = poolOf(db);
  if (pool === undefined || requests.length === 1) {
    for (const r of requests) out.set(r.gameId, await readStream(db, r.gameId, r.afterSeq));
    return out;
  }
  const r = await pool.query<EventRow>({
    name: 'shogi_read_streams_v2',
    text: READ_STREAMS_PREPARED,
    values: [requests.map((q) => q.gameId), requests.map((q) => q.afterSeq)],
  });
  for (const row of r.rows) out.get(row.game_id)?.push(toRecorded(row));
  return out;
}

/**
 * The highest global position below which every position is final (see the header).
 * Takes the exclusive read-all lock for one index probe per partition of the log (the
 * highest position of each, merged).
 */
export async function readAllHorizon(db: Executor): Promise<number> {
  // One statement, so the exclusive lock is held (and appends wait) for the index probes and
  // never across round trips to a busy client. Its snapshot predates the lock, which is
  // still safe: every position at or below the highest one it sees was drawn before that
  // snapshot by an append holding the shared lock until its commit, so once the exclusive
  // lock is granted all of them are final.
  const r = await sql<{ max: string | null }>`
    with horizon_lock as materialized (select pg_advisory_xact_lock(${READ_ALL_LOCK_KEY}::bigint))
    select (select max(global_position) from game_events) as max from horizon_lock`.execute(db);
  return Number(r.rows[0]?.max ?? 0);
}

/** Events of all games with after < global position <= a final horizon, in global order. */
export async function readAll(
  db: Executor,
  afterGlobalPosition: number,
  limit: number,
  horizon?: number,
): Promise<RecordedEvent[]> {
  const upTo = horizon !== undefined && horizon > afterGlobalPosition ? horizon : await readAllHorizon(db);
  if (upTo <= afterGlobalPosition) return [];
  const rows = await db
    .selectFrom('game_events')
    .select(['game_id', 'seq', 'type', 'payload', 'recorded_at', 'global_position'])
    .where(sql<boolean>`global_position > ${afterGlobalPosition} and global_position <= ${upTo}`)
    .orderBy('global_position')
    .limit(limit)
    .execute();
  return rows.map(toRecorded);
}
