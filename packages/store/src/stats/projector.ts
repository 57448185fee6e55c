/**
 * The statistics projector: reads the log after its checkpoint (`readAll`), and for every
 * `GameEnded` writes the `finished_games` row and adds to the counters, updating the
 * checkpoint in the SAME transaction. The checkpoint row is locked (FOR UPDATE) and must
 * still hold the position the batch was read from, so two projectors (or a projector and a
 * rebuild) never count an event twice: the loser's batch is dropped and read again.
 */
import type { GameCreated, GameEnded, RecordedEvent } from '@shogi/game';
import { sql, type Transaction } from 'kysely';
import { readAll } from '../read.js';
import type { Database, Db } from '../schema.js';
import { writeCounters } from './counters.js';
import { type FinishedGameInput, type FinishedRow, finishedRow } from './rows.js';
import { DERIVED_STATS_TABLES, type StatsDb, type StatsEndReason, type StatsTables } from './schema.js';

export const STATS_PROJECTION = 'stats';
type Trx = Transaction<Database & StatsTables>;

export const statsDb = (db: Db): StatsDb => db.withTables<StatsTables>();

export interface BatchResult {
  /** Events read (0: caught up). */
  readonly events: number;
  /** Finished games written. */
  readonly games: number;
  /** The checkpoint after the batch. */
  readonly position: number;
  /** Another projector moved the checkpoint first; nothing was written. */
  readonly lost?: true;
}

export async function readCheckpoint(db: Db, name = STATS_PROJECTION): Promise<number> {
  const row = await statsDb(db)
    .selectFrom('projection_checkpoints')
    .select('position')
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}

/** Applies the next batch of at most `batchSize` events. */
export async function projectBatch(db: Db, batchSize = 2000): Promise<BatchResult> {
  const before = await readCheckpoint(db);
  const events = await readAll(db, before, batchSize);
  const last = events.at(-1);
  if (last === undefined) return { events: 0, games: 0, position: before };
  return statsDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('projection_checkpoints')
        .values({ name: STATS_PROJECTION, position: 0 })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await trx
        .selectFrom('projection_checkpoints')
        .select('position')
        .where('name', '=', STATS_PROJECTION)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (Number(row.position) !== before)
        return { events: 0, games: 0, position: Number(row.position), lost: true as const };
      const ended = events.filter((e): e is RecordedEvent<GameEnded> => e.type === 'GameEnded');
      const rows = ended.length === 0 ? [] : await finishedRows(trx, ended);
      const games = await writeFinished(trx, rows);
      await trx
        .updateTable('projection_checkpoints')
        .set({ position: last.globalPosition, updated_at: sql<Date>`now()` })
        .where('name', '=', STATS_PROJECTION)
        .execute();
      return { events: events.length, games, position: last.globalPosition };
    });
}

/** The rows of the games these events end: their GameCreated and accepted moves, read in one query. */
async function finishedRows(trx: Trx, ended: readonly RecordedEvent<GameEnded>[]): Promise<FinishedRow[]> {
  const ids = ended.map((e) => e.gameId);
  const events = await trx
    .selectFrom('game_events')
    .select(['game_id', 'type', 'payload'])
    .where('game_id', '=', sql<string>`any(${ids}::text[])`)
    .where('type', 'in', ['GameCreated', 'MoveAccepted'])
    .orderBy('game_id')
    .orderBy('seq')
    .execute();
  const imported = await trx
    .selectFrom('imported_games')
    .select(['game_id', 'end_reason'])
    .where('game_id', '=', sql<string>`any(${ids}::text[])`)
    .execute();
  const reasonOf = new Map(imported.map((r) => [r.game_id, r.end_reason as StatsEndReason]));
  const byGame = new Map<string, { created?: GameCreated['data']; moves: string[] }>();
  for (const e of events) {
    let g = byGame.get(e.game_id);
    if (g === undefined) {
      g = { moves: [] };
      byGame.set(e.game_id, g);
    }
    if (e.type === 'GameCreated') g.created = e.payload as GameCreated['data'];
    else g.moves.push((e.payload as { usi: string }).usi);
  }
  const rows: FinishedRow[] = [];
  for (const end of ended) {
    const g = byGame.get(end.gameId);
    if (g?.created === undefined) throw new Error(`game ${end.gameId} ended without a GameCreated`);
    const input: FinishedGameInput = {
      gameId: end.gameId,
      created: g.created,
      moves: g.moves,
      ended: end.data,
      globalPosition: end.globalPosition,
      importedReason: reasonOf.get(end.gameId),
    };
    rows.push(finishedRow(input));
  }
  return rows;
}

/** Inserts the rows (a game already there is skipped) and counts the ones inserted. */
async function writeFinished(trx: Trx, rows: readonly FinishedRow[]): Promise<number> {
  let inserted: FinishedRow[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const ids = await trx
      .insertInto('finished_games')
      .values(chunk)
      .onConflict((oc) => oc.column('game_id').doNothing())
      .returning('game_id')
      .execute();
    const fresh = new Set(ids.map((r) => r.game_id));
    inserted = inserted.concat(chunk.filter((r) => fresh.has(r.game_id)));
  }
  await writeCounters(trx, inserted);
  return inserted.length;
}

/** Runs batches until the log is caught up; returns the finished games written. */
export async function catchUp(db: Db, batchSize = 2000): Promise<number> {
  let games = 0;
  for (;;) {
    const r = await projectBatch(db, batchSize);
    games += r.games;
    if (r.events === 0 && r.lost !== true) return games;
  }
}

/**
 * Truncates every derived table and replays the log from position 0, as one reset
 * transaction then batches (a live projector running meanwhile is safe: batches check the
 * checkpoint). Returns the finished games written.
 */
export async function rebuildStats(db: Db, batchSize = 20_000): Promise<number> {
  await statsDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('projection_checkpoints')
        .values({ name: STATS_PROJECTION, position: 0 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ position: 0 }))
        .execute();
      await sql`select 1 from projection_checkpoints where name = ${STATS_PROJECTION} for update`.execute(trx);
      await sql.raw(`truncate ${DERIVED_STATS_TABLES.join(', ')}`).execute(trx);
    });
  return catchUp(db, batchSize);
}

export interface ProjectorLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunningProjector {
  /** Stops after the batch in flight. */
  stop(): Promise<void>;
}

/** Polls the log every `intervalMs` when caught up (default 500 ms). */
export function startProjector(options: {
  readonly db: Db;
  readonly logger: ProjectorLogger;
  readonly intervalMs?: number;
  readonly batchSize?: number;
}): RunningProjector {
  const { db, logger } = options;
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = async () => {
    while (!stopped) {
      try {
        const r = await projectBatch(db, options.batchSize ?? 2000);
        if (r.games > 0) logger.info({ games: r.games, position: r.position }, 'stats: finished games projected');
        if (r.events > 0 || r.lost === true) continue;
      } catch (err) {
        logger.error({ err }, 'stats projector: batch failed; retrying');
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, options.intervalMs ?? 500);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
  };
  const done = loop();
  return {
    async stop() {
      stopped = true;
      (wake as (() => void) | null)?.();
      await done;
    },
  };
}
