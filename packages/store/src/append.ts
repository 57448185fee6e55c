/**
 * Append: one statement per call (see event-store.ts for the design), as a named prepared
 * statement on createDb pools, with kysely SQL for transactions and GameCreated batches.
 */
import { type AppendResult, type GameEvent, VersionConflictError } from '@shogi/game';
import { sql } from 'kysely';
import type pg from 'pg';
import { poolOf } from './db.js';
import { DEADLOCK_DETECTED, type Executor, READ_ALL_LOCK_KEY, toRecorded, UNIQUE_VIOLATION } from './event-rows.js';
import { applyToGameRow, asFullRow, type GameRowPatch } from './games-projection.js';

/** Appends events at expectedSeq+1.. and updates the games row, atomically. */
export async function appendEvents(
  db: Executor,
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
): Promise<AppendResult> {
  if (events.length === 0) return { lastSeq: expectedSeq, events: [] };
  const pool = poolOf(db);
  const patch = patchOf(expectedSeq, events);
  if (pool !== undefined && asFullRow(patch) === null) {
    const [result] = await appendManyPrepared(pool, [{ gameId, expectedSeq, events, patch }]);
    if (result instanceof Error) throw result;
    if (result === undefined) throw new Error('append returned no result');
    return result;
  }
  let rows: { seq: number; recorded_at: Date; global_position: string }[];
  try {
    rows = await appendKysely(db, gameId, expectedSeq, events, patch);
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION)
      throw new VersionConflictError(gameId, expectedSeq, { cause: e });
    throw e;
  }
  if (rows.length !== events.length) throw new VersionConflictError(gameId, expectedSeq);
  return recordedResult(gameId, expectedSeq, events, rows);
}

function patchOf(expectedSeq: number, events: readonly GameEvent[]): GameRowPatch {
  let patch: GameRowPatch = {};
  events.forEach((e, i) => {
    patch = applyToGameRow(patch, expectedSeq + i + 1, e);
  });
  return patch;
}

function recordedResult(
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
  rows: readonly { seq: number; recorded_at: Date; global_position: string }[],
): AppendResult {
  // a literal of its own, not the driver's row spread with more fields: that gave each
  // append new hidden classes V8 did not share (see applyToGameRow)
  const recorded = rows.map((r, i) =>
    toRecorded({
      game_id: gameId,
      seq: r.seq,
      recorded_at: r.recorded_at,
      global_position: r.global_position,
      type: (events[i] as GameEvent).type,
      payload: (events[i] as GameEvent).data,
    }),
  );
  return { lastSeq: expectedSeq + events.length, events: recorded };
}

export interface AppendRequest {
  readonly gameId: string;
  readonly expectedSeq: number;
  readonly events: readonly GameEvent[];
}

/**
 * Appends to several games in ONE statement (one round trip, one commit), each game
 * all-or-nothing: a game whose expected seq is not its last gets a VersionConflictError
 * in its slot while the others are written. A unique violation (another writer won a
 * race) aborts the statement; then each game is appended on its own, so only the loser
 * gets the conflict. A game may appear once per call; GameCreated batches and Kysely
 * instances without a pool (transactions) are appended one by one.
 */
export async function appendMany(
  db: Executor,
  requests: readonly AppendRequest[],
): Promise<(AppendResult | VersionConflictError)[]> {
  const pool = poolOf(db);
  const one = (r: AppendRequest) =>
    appendEvents(db, r.gameId, r.expectedSeq, r.events).catch((e: unknown) => {
      if (e instanceof VersionConflictError) return e;
      throw e;
    });
  if (pool === undefined) return Promise.all(requests.map(one));
  const out: (AppendResult | VersionConflictError)[] = new Array(requests.length);
  const batch: number[] = [];
  const patches: GameRowPatch[] = [];
  const seen = new Set<string>();
  const singles: number[] = [];
  requests.forEach((r, i) => {
    if (r.events.length === 0) {
      out[i] = { lastSeq: r.expectedSeq, events: [] };
      return;
    }
    const patch = patchOf(r.expectedSeq, r.events);
    if (seen.has(r.gameId) || asFullRow(patch) !== null) singles.push(i);
    else {
      seen.add(r.gameId);
      batch.push(i);
      patches[i] = patch;
    }
  });
  if (batch.length > 0) {
    // every batch takes its games' row locks in one order, so two racing batches of the
    // same games queue behind each other instead of deadlocking
    batch.sort((a, b) => ((requests[a] as AppendRequest).gameId < (requests[b] as AppendRequest).gameId ? -1 : 1));
    const results = await appendManyPrepared(
      pool,
      batch.map((i) => {
        const { gameId, expectedSeq, events } = requests[i] as AppendRequest;
        // a literal, not a spread with one more field (see recordedResult)
        return { gameId, expectedSeq, events, patch: patches[i] as GameRowPatch };
      }),
    );
    batch.forEach((i, k) => {
      out[i] = results[k] as AppendResult | VersionConflictError;
    });
  }
  for (const i of singles) out[i] = await one(requests[i] as AppendRequest);
  return out;
}

/**
 * (The guard is a LATERAL probe per game: as `expected = 0 OR EXISTS (...)` PostgreSQL
 * chose a hashed subplan that read the whole log on every append, found with perf.)
 *
 * The append statement with a constant text, run as a named prepared statement (planning
 * it cost more than running it). The games (expected seq and projected columns, a null
 * column meaning unchanged) and the events go in as two JSON arrays of records: as
 * PostgreSQL arrays, one per column, node-postgres wrote each into an array literal in
 * JavaScript, escaping every element, the largest allocation of a move in the server.
 */
const APPEND_MANY_PREPARED = `
  with horizon_lock as materialized (select pg_advisory_xact_lock_shared($1::bigint) as locked),
  g as materialized (
    select * from json_to_recordset($2::json) as g(id text, expected integer, last_seq integer, ply integer,
      sfen text, side_to_move text, status text, winner text, result text, end_reason text, pending_op integer,
      pending_value integer, deadline_set boolean, deadline_at timestamptz)
  ),
  ok as (
    select g.id as game_id from g
    left join lateral (
      select true as found from game_events e where e.game_id = g.id and e.seq = g.expected limit 1
    ) prev on true
    where g.expected = 0 or prev.found
  ),
  ins as (
    insert into game_events (game_id, seq, type, payload)
    select v.game_id, v.seq, v.type, v.payload
    from horizon_lock, json_to_recordset($3::json) as v(game_id text, seq integer, type text, payload jsonb)
    where v.game_id in (select game_id from ok)
    returning game_id, seq, recorded_at, global_position
  ),
  proj as (
    update games set
      last_seq = p.last_seq,
      updated_at = now(),
      ply = coalesce(p.ply, games.ply),
      sfen = coalesce(p.sfen, games.sfen),
      side_to_move = coalesce(p.side_to_move, games.side_to_move),
      status = coalesce(p.status, games.status),
      winner = case when p.status is null then games.winner else p.winner end,
      result = case when p.status is null then games.result else p.result end,
      end_reason = case when p.status is null then games.end_reason else p.end_reason end,
      pending_seq = case p.pending_op
        when 1 then p.pending_value
        when 2 then null
        when 3 then case when games.pending_seq = p.pending_value then null else games.pending_seq end
        else games.pending_seq end,
      deadline_at = case when p.deadline_set then p.deadline_at else games.deadline_at end
    from g as p
    where games.id = p.id and p.id in (select game_id from ok)
  )
  select game_id, seq, recorded_at, global_position from ins`;

type InsertedRow = { game_id: string; seq: number; recorded_at: Date; global_position: string };

/** An append with the games-row patch of its events, worked out once. */
interface PatchedRequest extends AppendRequest {
  readonly patch: GameRowPatch;
}

/** The statement's parameters: the horizon lock's key, the games' records, the events' records. */
function appendParameters(requests: readonly PatchedRequest[]): unknown[] {
  const games: GameRecordParameter[] = [];
  const events: { game_id: string; seq: number; type: string; payload: unknown }[] = [];
  for (const r of requests) {
    r.events.forEach((e, i) => {
      events.push({ game_id: r.gameId, seq: r.expectedSeq + i + 1, type: e.type, payload: e.data });
    });
    games.push(gameRecord(r));
  }
  return [READ_ALL_LOCK_KEY, JSON.stringify(games), JSON.stringify(events)];
}

interface GameRecordParameter {
  readonly id: string;
  readonly expected: number;
  readonly last_seq: number;
  readonly ply: number | null;
  readonly sfen: string | null;
  readonly side_to_move: string | null;
  readonly status: 'ended' | null;
  readonly winner: string | null;
  readonly result: string | null;
  readonly end_reason: string | null;
  /** 0 unchanged, 1 set to pending_value, 2 set null, 3 set null if it equals pending_value */
  readonly pending_op: 0 | 1 | 2 | 3;
  readonly pending_value: number | null;
  readonly deadline_set: boolean;
  readonly deadline_at: string | null;
}

/** A game's expected seq and projected columns (null: unchanged). */
function gameRecord(r: PatchedRequest): GameRecordParameter {
  const patch = r.patch;
  const ended = patch.status === 'ended';
  const pendingSet = 'pending_seq' in patch;
  return {
    id: r.gameId,
    expected: r.expectedSeq,
    last_seq: r.expectedSeq + r.events.length,
    ply: patch.ply ?? null,
    sfen: patch.sfen ?? null,
    side_to_move: patch.side_to_move ?? null,
    status: ended ? 'ended' : null,
    winner: ended ? (patch.winner ?? null) : null,
    result: ended ? (patch.result ?? null) : null,
    end_reason: ended ? (patch.end_reason ?? null) : null,
    pending_op: pendingSet ? (patch.pending_seq === null ? 2 : 1) : patch.pending_clear_if !== undefined ? 3 : 0,
    pending_value: pendingSet ? (patch.pending_seq ?? null) : (patch.pending_clear_if ?? null),
    deadline_set: 'deadline_at' in patch,
    deadline_at: patch.deadline_at?.toISOString() ?? null,
  };
}

async function appendManyPrepared(
  pool: pg.Pool,
  requests: readonly PatchedRequest[],
): Promise<(AppendResult | VersionConflictError)[]> {
  let rows: InsertedRow[];
  try {
    const r = await pool.query<InsertedRow>({
      name: 'shogi_append_many_v6',
      text: APPEND_MANY_PREPARED,
      values: appendParameters(requests),
    });
    rows = r.rows;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code !== UNIQUE_VIOLATION && code !== DEADLOCK_DETECTED) throw e;
    // someone else won a race in one of the games (or a lock cycle aborted the whole
    // statement, writing nothing): settle each game on its own
    if (requests.length === 1) {
      const r = requests[0] as PatchedRequest;
      return [new VersionConflictError(r.gameId, r.expectedSeq, { cause: e })];
    }
    const out: (AppendResult | VersionConflictError)[] = [];
    for (const r of requests) out.push(...(await appendManyPrepared(pool, [r])));
    return out;
  }
  const byGame = new Map<string, InsertedRow[]>();
  for (const row of rows) {
    const list = byGame.get(row.game_id);
    if (list) list.push(row);
    else byGame.set(row.game_id, [row]);
  }
  return requests.map((r) => {
    const inserted = (byGame.get(r.gameId) ?? []).sort((a, b) => a.seq - b.seq);
    if (inserted.length !== r.events.length) return new VersionConflictError(r.gameId, r.expectedSeq);
    return recordedResult(r.gameId, r.expectedSeq, r.events, inserted);
  });
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
        side_to_move, ply, last_seq, result, winner, end_reason, sfen, pending_seq, created_at, deadline_at, updated_at)
      select ${full.id}, ${full.sente_id}, ${full.sente_name}, ${full.gote_id}, ${full.gote_name}, ${full.ruleset},
        ${full.handicap}, ${full.status}, ${full.side_to_move}, ${full.ply}, ${full.last_seq}, ${full.result},
        ${full.winner}, ${full.end_reason}, ${full.sfen}, ${full.pending_seq}::integer, ${full.created_at.toISOString()}::timestamptz,
        ${full.deadline_at?.toISOString() ?? null}::timestamptz, now()
      where exists (select 1 from ins)`;
  }
  const sets = Object.entries(patch).map(([column, value]) => {
    if (column === 'created_at') return sql`created_at = ${(value as Date).toISOString()}::timestamptz`;
    if (column === 'deadline_at')
      return sql`deadline_at = ${(value as Date | null)?.toISOString() ?? null}::timestamptz`;
    if (column === 'pending_clear_if')
      return sql`pending_seq = case when pending_seq = ${value}::integer then null else pending_seq end`;
    return sql`${sql.ref(column)} = ${value}`;
  });
  sets.push(sql`updated_at = now()`);
  return sql`update games set ${sql.join(sets)} where id = ${gameId} and exists (select 1 from ins)`;
}
