/** Queries of the games projection, and its rebuild from the log. */
import type { GameEvent } from '@shogi/game';
import { sql } from 'kysely';
import { applyToGameRow, asFullRow, GAME_ROW_KEYS, type GameRowPatch } from './games-projection.js';
import type { Db, GameRow, GameRowStatus } from './schema.js';

export async function getGame(db: Db, id: string): Promise<GameRow | undefined> {
  return db.selectFrom('games').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface ListGamesOptions {
  readonly status?: GameRowStatus;
  readonly playerId?: string;
  readonly limit?: number;
  /** only games with an event at or after this instant (the live list's freshness) */
  readonly updatedSince?: Date;
}

/** Most recently updated first. */
export async function listGames(db: Db, options: ListGamesOptions = {}): Promise<GameRow[]> {
  let q = db.selectFrom('games').selectAll();
  if (options.status !== undefined) q = q.where('status', '=', options.status);
  if (options.updatedSince !== undefined) q = q.where('updated_at', '>=', options.updatedSince);
  const playerId = options.playerId;
  if (playerId !== undefined) q = q.where((eb) => eb.or([eb('sente_id', '=', playerId), eb('gote_id', '=', playerId)]));
  return q
    .orderBy('updated_at', 'desc')
    .limit(options.limit ?? 50)
    .execute();
}

const GAMES_PAGE = 2000;

interface LeanGameEventRow {
  game_id: string;
  seq: number;
  type: string;
  recorded_at: Date;
  /** GameCreated's and GameEnded's whole payload. */
  payload: unknown;
  submitted_seq: number | null;
  ply: number | null;
  sfen: string | null;
  deadline_at: string | null;
}

/**
 * An event with the data `applyToGameRow` reads: GameCreated and GameEnded whole, a
 * verdict's submittedSeq, MoveAccepted's and TakebackAccepted's ply, SFEN and clock deadline, nothing of the rest
 * (most of the log's bytes are never parsed).
 */
function leanEvent(r: LeanGameEventRow): GameEvent {
  switch (r.type) {
    case 'GameCreated':
    case 'GameEnded':
      return { type: r.type, data: r.payload } as GameEvent;
    case 'MoveAccepted':
      return {
        type: r.type,
        data: {
          submittedSeq: r.submitted_seq,
          ply: r.ply,
          sfen: r.sfen,
          ...(r.deadline_at === null ? {} : { clock: { deadlineAt: r.deadline_at } }),
        },
      } as GameEvent;
    // after the last accepted move (it needs no pending submission, so it is past the last one)
    case 'TakebackAccepted':
      return {
        type: r.type,
        data: {
          ply: r.ply,
          sfen: r.sfen,
          ...(r.deadline_at === null ? {} : { clock: { deadlineAt: r.deadline_at } }),
        },
      } as GameEvent;
    case 'MoveRejected':
      return { type: r.type, data: { submittedSeq: r.submitted_seq } } as GameEvent;
    default:
      return { type: r.type, data: {} } as GameEvent;
  }
}

/**
 * The games rows the log implies, by folding each stream with the same reducer the append
 * uses. updated_at is the record time of a game's last event (the append sets both from
 * one now()). Games are read in keyset pages of game ids.
 *
 * Only the events that decide a row are read: every column is set afresh by the event
 * that last touches it, so a game's GameCreated (seq 1), its last MoveAccepted (ply, SFEN,
 * side to move, and the clock deadline: a game's moves all carry clocks or none do) and
 * every event from its last MoveSubmitted on (pending submission, last seq, the end) fold
 * to the same row as the whole stream, from a few rows a game instead of all of them.
 */
export async function gamesFromLog(db: Db): Promise<GameRow[]> {
  const out: GameRow[] = [];
  let current = null as { id: string; patch: GameRowPatch; updatedAt: Date } | null;
  const flush = () => {
    if (current === null) return;
    const full = asFullRow(current.patch);
    if (full !== null) out.push({ ...full, updated_at: current.updatedAt });
  };
  let after = '';
  for (;;) {
    const { rows } = await sql<LeanGameEventRow>`
      with page as (
        select game_id from game_events where seq = 1 and game_id > ${after} order by game_id limit ${GAMES_PAGE}
      ), marks as materialized (
        select game_id,
          (select seq from game_events s where s.game_id = page.game_id and s.type = 'MoveSubmitted'
            order by seq desc limit 1) as submitted,
          (select seq from game_events a where a.game_id = page.game_id and a.type = 'MoveAccepted'
            order by seq desc limit 1) as accepted,
          (select max(seq) from game_events l where l.game_id = page.game_id) as last
        from page
      )
      select e.game_id, e.seq, e.type, e.recorded_at,
        case when e.type in ('GameCreated', 'GameEnded') then e.payload - 'record' end as payload,
        case when e.type in ('MoveAccepted', 'MoveRejected') then (e.payload->>'submittedSeq')::int end as submitted_seq,
        case when e.type in ('MoveAccepted', 'TakebackAccepted') then (e.payload->>'ply')::int end as ply,
        case when e.type in ('MoveAccepted', 'TakebackAccepted') then e.payload->>'sfen' end as sfen,
        case when e.type in ('MoveAccepted', 'TakebackAccepted') then e.payload->'clock'->>'deadlineAt' end as deadline_at
      from marks m join game_events e on e.game_id = m.game_id
        -- a list of seqs, not an OR: the index finds each row without visiting the others
        and e.seq = any(array[1, m.accepted] || array(select generate_series(coalesce(m.submitted, 1), m.last)))
      order by e.game_id, e.seq`.execute(db);
    for (const r of rows) {
      if (current?.id !== r.game_id) {
        flush();
        current = { id: r.game_id, patch: {}, updatedAt: r.recorded_at };
      }
      current.patch = applyToGameRow(current.patch, r.seq, leanEvent(r));
      current.updatedAt = r.recorded_at;
    }
    const last = rows.at(-1);
    if (last === undefined) break;
    after = last.game_id;
  }
  flush();
  return out;
}

export interface GameRowDifference {
  readonly id: string;
  /** Column names that differ; ['missing'] / ['extra'] when the row exists on one side only. */
  readonly columns: readonly string[];
  readonly live: GameRow | null;
  readonly rebuilt: GameRow | null;
}

const same = (a: unknown, b: unknown): boolean =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;

/** Rebuilds the games rows from the log and lists where the live table differs (empty: equal). */
export async function compareGamesWithLog(
  db: Db,
): Promise<{ rebuilt: number; live: number; differences: GameRowDifference[] }> {
  const rebuilt = await gamesFromLog(db);
  const live = await db.selectFrom('games').selectAll().execute();
  const liveById = new Map(live.map((r) => [r.id, r]));
  const differences: GameRowDifference[] = [];
  for (const r of rebuilt) {
    const l = liveById.get(r.id);
    liveById.delete(r.id);
    if (l === undefined) {
      differences.push({ id: r.id, columns: ['missing'], live: null, rebuilt: r });
      continue;
    }
    const columns = GAME_ROW_KEYS.filter((k) => !same(l[k], r[k]));
    if (columns.length > 0) differences.push({ id: r.id, columns, live: l, rebuilt: r });
  }
  for (const l of liveById.values()) differences.push({ id: l.id, columns: ['extra'], live: l, rebuilt: null });
  return { rebuilt: rebuilt.length, live: live.length, differences };
}

/** Replaces the games table with the rows rebuilt from the log, in one transaction. */
export async function rebuildGamesTable(db: Db): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // block appends (they update games) while the table is replaced
    await sql`lock table games in exclusive mode`.execute(trx);
    const rows = await gamesFromLog(trx);
    await trx.deleteFrom('games').execute();
    for (let i = 0; i < rows.length; i += 1000)
      await trx
        .insertInto('games')
        .values(rows.slice(i, i + 1000))
        .execute();
    return rows.length;
  });
}

/**
 * Games whose latest submission has waited for a verdict longer than `olderThanMs` (its
 * validation job was lost or failed for good): the sweeper enqueues them again.
 */
export async function findStalledSubmissions(
  db: Db,
  olderThanMs: number,
  limit = 500,
): Promise<{ gameId: string; seq: number }[]> {
  const rows = await db
    .selectFrom('games')
    .select(['id', 'pending_seq'])
    .where('status', '=', 'ongoing')
    .where('pending_seq', 'is not', null)
    .where(sql<boolean>`updated_at < now() - ${olderThanMs} * interval '1 millisecond'`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ gameId: r.id, seq: r.pending_seq as number }));
}

/**
 * Ongoing games whose side to move ran out more than `graceMs` ago (deadline_at, through the
 * partial index of migration 0007): the sweeper enqueues their flag check, a backstop for a
 * delayed flag job that was lost. `ply` names the turn (the flag job's id).
 */
export async function findOverdueClocks(
  db: Db,
  graceMs: number,
  limit = 500,
): Promise<{ gameId: string; ply: number }[]> {
  const rows = await db
    .selectFrom('games')
    .select(['id', 'ply'])
    .where('status', '=', 'ongoing')
    .where('deadline_at', 'is not', null)
    .where(sql<boolean>`deadline_at < now() - ${graceMs} * interval '1 millisecond'`)
    .orderBy('deadline_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ gameId: r.id, ply: r.ply }));
}
