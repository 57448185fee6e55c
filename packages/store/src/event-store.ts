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
 * The cost is a short pause of appends while a reader takes the horizon (one index probe),
 * and the horizon is reused while a reader is behind it. Chosen over an xmin/xid8 horizon
 * because that needs a composite (xid, position) checkpoint, and the public checkpoint
 * here is the plain global position.
 */
import {
  type AppendResult,
  type EventStore,
  type GameEvent,
  isGameEventType,
  type RecordedEvent,
  VersionConflictError,
} from '@shogi/game';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { poolOf } from './db.js';
import { applyToGameRow, asFullRow, type GameRowPatch } from './games-projection.js';
import type { Database } from './schema.js';

type Executor = Kysely<Database>;

/** The advisory lock key of the read-all horizon ('SHOGI' in ASCII); locks are per database. */
export const READ_ALL_LOCK_KEY = String(0x53484f4749);

const UNIQUE_VIOLATION = '23505';

interface EventRow {
  game_id: string;
  seq: number;
  type: string;
  payload: unknown;
  recorded_at: Date;
  global_position: string;
}

export function toRecorded(row: EventRow): RecordedEvent {
  if (!isGameEventType(row.type)) throw new Error(`unknown event type ${row.type} in game ${row.game_id}`);
  return {
    type: row.type,
    data: row.payload,
    gameId: row.game_id,
    seq: row.seq,
    recordedAt: row.recorded_at.toISOString(),
    globalPosition: Number(row.global_position),
  } as RecordedEvent;
}

/** Appends events at expectedSeq+1.. and updates the games row, atomically. */
export async function appendEvents(
  db: Executor,
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
): Promise<AppendResult> {
  if (events.length === 0) return { lastSeq: expectedSeq, events: [] };
  let patch: GameRowPatch = {};
  events.forEach((e, i) => {
    patch = applyToGameRow(patch, expectedSeq + i + 1, e);
  });
  const pool = poolOf(db);
  let rows: { seq: number; recorded_at: Date; global_position: string }[];
  try {
    rows =
      pool !== undefined && asFullRow(patch) === null
        ? await appendPrepared(pool, gameId, expectedSeq, events, patch)
        : await appendKysely(db, gameId, expectedSeq, events, patch);
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION)
      throw new VersionConflictError(gameId, expectedSeq, { cause: e });
    throw e;
  }
  if (rows.length !== events.length) throw new VersionConflictError(gameId, expectedSeq);
  const recorded = rows.map((r, i) =>
    toRecorded({ ...r, game_id: gameId, type: (events[i] as GameEvent).type, payload: (events[i] as GameEvent).data }),
  );
  return { lastSeq: expectedSeq + events.length, events: recorded };
}

/**
 * The same statement with a constant text (events as arrays, every projected column as
 * a parameter, null meaning unchanged), run as a named prepared statement.
 */
const APPEND_PREPARED = `
  with horizon_lock as materialized (select pg_advisory_xact_lock_shared($1::bigint) as locked),
  ins as (
    insert into game_events (game_id, seq, type, payload)
    select $2::text, $3::integer + e.i::integer, e.type, e.payload
    from horizon_lock, unnest($4::text[], $5::jsonb[]) with ordinality as e(type, payload, i)
    where $3::integer = 0 or exists (select 1 from game_events where game_id = $2::text and seq = $3::integer)
    returning seq, recorded_at, global_position
  ),
  proj as (
    update games set
      last_seq = $6::integer,
      updated_at = now(),
      ply = coalesce($7::integer, ply),
      sfen = coalesce($8::text, sfen),
      side_to_move = coalesce($9::text, side_to_move),
      status = coalesce($10::text, status),
      winner = case when $10::text is null then winner else $11::text end,
      result = case when $10::text is null then result else $12::text end,
      end_reason = case when $10::text is null then end_reason else $13::text end
    where id = $2::text and exists (select 1 from ins)
  )
  select seq, recorded_at, global_position from ins order by seq`;

async function appendPrepared(
  pool: pg.Pool,
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
  patch: GameRowPatch,
) {
  const ended = patch.status === 'ended';
  const r = await pool.query<{ seq: number; recorded_at: Date; global_position: string }>({
    name: 'shogi_append_events_v1',
    text: APPEND_PREPARED,
    values: [
      READ_ALL_LOCK_KEY,
      gameId,
      expectedSeq,
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      expectedSeq + events.length,
      patch.ply ?? null,
      patch.sfen ?? null,
      patch.side_to_move ?? null,
      ended ? 'ended' : null,
      ended ? (patch.winner ?? null) : null,
      ended ? (patch.result ?? null) : null,
      ended ? (patch.end_reason ?? null) : null,
    ],
  });
  return r.rows;
}

async function appendKysely(
  db: Executor,
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
  patch: GameRowPatch,
) {
  const values = sql.join(
    events.map((e, i) => sql`(${expectedSeq + i + 1}::integer, ${e.type}::text, ${JSON.stringify(e.data)}::jsonb)`),
  );
  const guard =
    expectedSeq === 0
      ? sql`true`
      : sql`exists (select 1 from game_events where game_id = ${gameId} and seq = ${expectedSeq})`;
  const projection = projectionStatement(gameId, patch);
  const query = sql<{ seq: number; recorded_at: Date; global_position: string }>`
    with horizon_lock as materialized (select pg_advisory_xact_lock_shared(${READ_ALL_LOCK_KEY}::bigint) as locked),
    ins as (
      insert into game_events (game_id, seq, type, payload)
      select ${gameId}, v.seq, v.type, v.payload from horizon_lock, (values ${values}) as v(seq, type, payload)
      where ${guard}
      returning seq, recorded_at, global_position
    ),
    proj as (${projection})
    select seq, recorded_at, global_position from ins order by seq`;
  return (await query.execute(db)).rows;
}

/** The games-row statement for a batch: an insert when it creates the game, else an update of what changed. */
function projectionStatement(gameId: string, patch: GameRowPatch) {
  const full = asFullRow(patch);
  if (full !== null) {
    return sql`insert into games (id, sente_id, sente_name, gote_id, gote_name, ruleset, handicap, status,
        side_to_move, ply, last_seq, result, winner, end_reason, sfen, created_at, updated_at)
      select ${full.id}, ${full.sente_id}, ${full.sente_name}, ${full.gote_id}, ${full.gote_name}, ${full.ruleset},
        ${full.handicap}, ${full.status}, ${full.side_to_move}, ${full.ply}, ${full.last_seq}, ${full.result},
        ${full.winner}, ${full.end_reason}, ${full.sfen}, ${full.created_at.toISOString()}::timestamptz, now()
      where exists (select 1 from ins)`;
  }
  const sets = Object.entries(patch).map(([column, value]) =>
    column === 'created_at'
      ? sql`created_at = ${(value as Date).toISOString()}::timestamptz`
      : sql`${sql.ref(column)} = ${value}`,
  );
  sets.push(sql`updated_at = now()`);
  return sql`update games set ${sql.join(sets)} where id = ${gameId} and exists (select 1 from ins)`;
}

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

/**
 * The highest global position below which every position is final (see the header).
 * Takes the exclusive read-all lock for one index probe.
 */
export async function readAllHorizon(db: Executor): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${READ_ALL_LOCK_KEY}::bigint)`.execute(trx);
    const r = await sql<{ max: string | null }>`select max(global_position) as max from game_events`.execute(trx);
    return Number(r.rows[0]?.max ?? 0);
  });
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

/** The EventStore port over PostgreSQL; readAll reuses its last horizon while it is still ahead. */
export function createPgEventStore(db: Executor): EventStore {
  let horizon = 0;
  return {
    append: (gameId, expectedSeq, events) => appendEvents(db, gameId, expectedSeq, events),
    readStream: (gameId, afterSeq) => readStream(db, gameId, afterSeq),
    async readAll(after, limit) {
      if (horizon <= after) horizon = await readAllHorizon(db);
      return readAll(db, after, limit, horizon);
    },
  };
}
