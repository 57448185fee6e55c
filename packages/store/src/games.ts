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
}

/** Most recently updated first. */
export async function listGames(db: Db, options: ListGamesOptions = {}): Promise<GameRow[]> {
  let q = db.selectFrom('games').selectAll();
  if (options.status !== undefined) q = q.where('status', '=', options.status);
  const playerId = options.playerId;
  if (playerId !== undefined) q = q.where((eb) => eb.or([eb('sente_id', '=', playerId), eb('gote_id', '=', playerId)]));
  return q
    .orderBy('updated_at', 'desc')
    .limit(options.limit ?? 50)
    .execute();
}

const PAGE = 5000;

/**
 * The games rows the log implies, by folding every stream with the same reducer the
 * append uses. updated_at is the record time of a game's last event (the append sets
 * both from one now()). Reads the log in keyset pages of (game_id, seq).
 */
export async function gamesFromLog(db: Db): Promise<GameRow[]> {
  const out: GameRow[] = [];
  let current = null as { id: string; patch: GameRowPatch; updatedAt: Date } | null;
  const flush = () => {
    if (current === null) return;
    const full = asFullRow(current.patch);
    if (full !== null) out.push({ ...full, updated_at: current.updatedAt });
  };
  let after: [string, number] = ['', 0];
  for (;;) {
    const rows = await db
      .selectFrom('game_events')
      .select(['game_id', 'seq', 'type', 'payload', 'recorded_at'])
      .where((eb) =>
        eb.or([eb('game_id', '>', after[0]), eb.and([eb('game_id', '=', after[0]), eb('seq', '>', after[1])])]),
      )
      .orderBy('game_id')
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    for (const r of rows) {
      if (current?.id !== r.game_id) {
        flush();
        current = { id: r.game_id, patch: {}, updatedAt: r.recorded_at };
      }
      current.patch = applyToGameRow(current.patch, r.seq, { type: r.type, data: r.payload } as GameEvent);
      current.updatedAt = r.recorded_at;
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE) break;
    after = [last.game_id, last.seq];
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
