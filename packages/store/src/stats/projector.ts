/**
 * The statistics projector: reads the log after its checkpoint (below the `readAll` horizon), and for every
 * `GameEnded` writes the `finished_games` row and adds to the counters, updating the
 * checkpoint in the SAME transaction. The checkpoint row is locked (FOR UPDATE) and must
 * still hold the position the batch was read from, so two projectors (or a projector and a
 * rebuild) never count an event twice: the loser's batch is dropped and read again.
 */
import { type GameCreated, type GameEnded, upcastEventData } from '@shogi/game';
import { sql, type Transaction } from 'kysely';
import { DERIVED_EXPLORER_TABLES } from '../explorer/schema.js';
import { compactAll, EXPLORER_PLIES, type ExplorerMode, writeExplorer } from '../explorer/write.js';
import { type RatedOutcome, rateFinished, writeRatingCounters } from '../ratings/project.js';
import { DERIVED_RATING_TABLES, type RatingTables } from '../ratings/schema.js';
import { readAllHorizon } from '../read.js';
import type { Database, Db } from '../schema.js';
import { writeCounters } from './counters.js';
import { type FinishedGameInput, type FinishedRow, finishedRow } from './rows.js';
import { DERIVED_STATS_TABLES, OPENING_PLIES, type StatsDb, type StatsEndReason, type StatsTables } from './schema.js';

export const STATS_PROJECTION = 'stats';
type Trx = Transaction<Database & StatsTables>;
type RatingsTrx = Transaction<Database & StatsTables & RatingTables>;

export const statsDb = (db: Db): StatsDb => db.withTables<StatsTables>();

export interface BatchResult {
  /** Events the projector used from the range (its opening moves, creations and ends). */
  readonly events: number;
  /** Finished games written. */
  readonly games: number;
  /** The checkpoint after the batch. */
  readonly position: number;
  /**
   * The batch reached the read-all horizon (or had nothing to do): a caller waits before
   * the next one. False when the span cut the range short or another projector won.
   */
  readonly caughtUp: boolean;
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

/**
 * An event as the projector needs it. Only GameCreated, GameEnded and the opening moves
 * (MoveAccepted with ply <= OPENING_PLIES) are read: the other moves and every
 * MoveSubmitted (most of the log) never leave PostgreSQL. GameEnded carries the game's
 * length instead, the ply of its last MoveAccepted.
 */
interface LeanEvent {
  readonly position: number;
  readonly gameId: string;
  readonly type: string;
  readonly usi: string | null;
  /** MoveAccepted's SFEN (the position after the move). */
  readonly sfen: string | null;
  /** MoveAccepted's and TakebackAccepted's: the accepted moves after it. */
  readonly ply: number | null;
  /** GameEnded's: the accepted moves of the game. */
  readonly plies: number | null;
  readonly data: unknown;
}

interface LeanRow {
  global_position: string;
  game_id: string;
  type: string;
  usi: string | null;
  sfen: string | null;
  ply: number | null;
  plies: number | null;
  payload: unknown;
}

/** The moves read of each game: the explorer's plies (the statistics' opening is the first of them). */
const READ_PLIES = Math.max(OPENING_PLIES, EXPLORER_PLIES);

// a takeback within the opening takes its moves out of it (the moves after it replace them)
const LEAN_FILTER = sql`(type in ('GameCreated', 'GameEnded', 'RatingRefunded')
  or (type in ('MoveAccepted', 'TakebackAccepted') and (payload->>'ply')::int <= ${READ_PLIES}))`;

// the last MoveAccepted before GameEnded is a short backward walk of the primary key
const LEAN_COLUMNS = sql`global_position, game_id, type,
  case when type = 'MoveAccepted' then payload->>'usi' end as usi,
  case when type = 'MoveAccepted' and (payload->>'ply')::int <= ${OPENING_PLIES} then payload->>'sfen' end as sfen,
  case when type in ('MoveAccepted', 'TakebackAccepted') then (payload->>'ply')::int end as ply,
  case when type = 'GameEnded' then coalesce((select (m.payload->>'ply')::int from game_events m
    where m.game_id = e.game_id and m.seq < e.seq and m.type in ('MoveAccepted', 'TakebackAccepted')
    order by m.seq desc limit 1), 0) end as plies,
  case when type in ('GameCreated', 'GameEnded', 'RatingRefunded') then payload - 'record' end as payload`;

const lean = (r: LeanRow): LeanEvent => ({
  position: Number(r.global_position),
  gameId: r.game_id,
  type: r.type,
  usi: r.usi,
  sfen: r.sfen,
  ply: r.ply,
  plies: r.plies,
  data: r.payload === null ? null : upcastEventData(r.type, r.payload),
});

interface LeanRange {
  readonly after: number;
  readonly events: LeanEvent[];
  readonly through: number;
  /** `through` is the horizon: nothing committed was left unread. */
  readonly atHorizon: boolean;
}

/**
 * The projector's events with after < global position <= `through`, where `through` is
 * `after + span` or the read-all horizon if lower (see read.ts: no late commit is skipped).
 */
async function readLean(db: Db, after: number, span: number): Promise<LeanRange> {
  const upTo = await readAllHorizon(db);
  if (upTo <= after) return { after, events: [], through: after, atHorizon: true };
  const through = Math.min(upTo, after + span);
  const r = await sql<LeanRow>`select ${LEAN_COLUMNS} from game_events e
    where global_position > ${after} and global_position <= ${through} and ${LEAN_FILTER}
    order by global_position`.execute(db);
  return { after, events: r.rows.map(lean), through, atHorizon: through === upTo };
}

/** Applies the events of the next `span` global positions (fewer at the horizon). */
export async function projectBatch(db: Db, span = 20_000, explorer: ExplorerMode = 'live'): Promise<BatchResult> {
  const before = await readCheckpoint(db);
  return applyRange(db, before, await readLean(db, before, span), explorer);
}

/** Writes a range read from the checkpoint `before`, unless another projector moved it meanwhile. */
async function applyRange(db: Db, before: number, range: LeanRange, explorer: ExplorerMode): Promise<BatchResult> {
  const { events, through } = range;
  if (through <= before) return { events: 0, games: 0, position: before, caughtUp: true };
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
        return { events: 0, games: 0, position: Number(row.position), caughtUp: false, lost: true as const };
      const games = await applyInLogOrder(trx, events, explorer);
      await trx
        .updateTable('projection_checkpoints')
        .set({ position: through, updated_at: sql<Date>`now()` })
        .where('name', '=', STATS_PROJECTION)
        .execute();
      return { events: events.length, games, position: through, caughtUp: range.atHorizon };
    });
}

/**
 * The games the batch ends, rated in log order, and fair play's rating refunds where the log
 * has them: the games before a refund are rated before it is applied, those after it after.
 */
async function applyInLogOrder(trx: Trx, events: readonly LeanEvent[], explorer: ExplorerMode): Promise<number> {
  let games = 0;
  let ended: LeanEvent[] = [];
  const flush = async () => {
    if (ended.length === 0) return;
    const found = await finishedRows(trx, ended, events);
    games += await writeFinished(trx, found, explorer);
    ended = [];
  };
  for (const e of events) {
    if (e.type === 'GameEnded') ended.push(e);
    else if (e.type === 'RatingRefunded') {
      await flush();
      await applyRefund(trx as unknown as RatingsTrx, e);
    }
  }
  await flush();
  return games;
}

/**
 * One refund: the victim's rating in the category raised by its points (lila's perf.refund),
 * once (its global position keys the rating_refunds row), and only where the rating exists.
 */
async function applyRefund(trx: RatingsTrx, e: LeanEvent): Promise<void> {
  const d = e.data as { victimId: string; category: string; points: number };
  const marked = e.gameId.replace(/^fairplay-/, '');
  const inserted = await sql<{ global_position: string }>`
    insert into rating_refunds (global_position, player_id, category, points, marked_id, at)
    values (${e.position}, ${d.victimId}, ${d.category}, ${d.points}, ${marked}, now())
    on conflict (global_position) do nothing returning global_position`.execute(trx);
  if (inserted.rows.length === 0) return;
  await sql`update ratings set rating = rating + ${d.points}
    where player_id = ${d.victimId} and category = ${d.category}`.execute(trx);
}

interface FoundRows {
  readonly rows: FinishedRow[];
  /** the SFEN after each opening move (the opening counters') */
  readonly positions: Map<string, string[]>;
  /** the moves of each game up to the explorer's plies */
  readonly moves: Map<string, string[]>;
}

/**
 * The rows of the games these events end. A game whose GameCreated is in the batch has all
 * its events in it (the batch is a contiguous range of global positions); the others' are
 * read in one query.
 */
async function finishedRows(trx: Trx, ended: readonly LeanEvent[], batch: readonly LeanEvent[]): Promise<FoundRows> {
  const endedIds = new Set(ended.map((e) => e.gameId));
  const inBatch = new Set(batch.filter((e) => e.type === 'GameCreated' && endedIds.has(e.gameId)).map((e) => e.gameId));
  const ids = [...endedIds].filter((id) => !inBatch.has(id));
  const read =
    ids.length === 0
      ? []
      : (
          await sql<LeanRow>`select ${LEAN_COLUMNS} from game_events e
            where game_id = any(${ids}::text[]) and type <> 'GameEnded' and ${LEAN_FILTER}
            order by game_id, seq`.execute(trx)
        ).rows.map(lean);
  const imported = await trx
    .selectFrom('imported_games')
    .select(['game_id', 'end_reason'])
    .where('game_id', '=', sql<string>`any(${[...endedIds]}::text[])`)
    .execute();
  const reasonOf = new Map(imported.map((r) => [r.game_id, r.end_reason as StatsEndReason]));
  const byGame = new Map<string, { created?: GameCreated['data']; moves: string[]; sfens: string[] }>();
  const collect = (e: LeanEvent) => {
    let g = byGame.get(e.gameId);
    if (g === undefined) {
      g = { moves: [], sfens: [] };
      byGame.set(e.gameId, g);
    }
    if (e.type === 'GameCreated') g.created = e.data as GameCreated['data'];
    else if (e.type === 'MoveAccepted' && e.usi !== null) {
      // after a takeback a ply is played again: the move now played replaces the one taken back
      const before = e.ply === null ? g.moves.length : e.ply - 1;
      g.moves.length = Math.min(g.moves.length, before);
      g.sfens.length = Math.min(g.sfens.length, before);
      g.moves.push(e.usi);
      // the SFENs of the opening only (the opening counters'), read for its plies alone
      if (e.sfen !== null && g.sfens.length === before) g.sfens.push(e.sfen);
    } else if (e.type === 'TakebackAccepted' && e.ply !== null) {
      g.moves.length = Math.min(g.moves.length, e.ply);
      g.sfens.length = Math.min(g.sfens.length, e.ply);
    }
  };
  for (const e of read) collect(e);
  for (const e of batch) if (inBatch.has(e.gameId)) collect(e);
  const rows: FinishedRow[] = [];
  const positions = new Map<string, string[]>();
  const moves = new Map<string, string[]>();
  for (const end of ended) {
    const g = byGame.get(end.gameId);
    if (g?.created === undefined) throw new Error(`game ${end.gameId} ended without a GameCreated`);
    const input: FinishedGameInput = {
      gameId: end.gameId,
      created: g.created,
      opening: g.moves,
      plies: end.plies ?? 0,
      ended: end.data as GameEnded['data'],
      globalPosition: end.position,
      importedReason: reasonOf.get(end.gameId),
    };
    rows.push(finishedRow(input));
    positions.set(end.gameId, g.sfens);
    moves.set(end.gameId, g.moves);
  }
  return { rows, positions, moves };
}

/**
 * Rates the rated games (in log order, before their rows are written, so the rows carry
 * ratings before/after), inserts the rows (a game already there is skipped) and counts the
 * ones inserted.
 */
async function writeFinished(trx: Trx, found: FoundRows, explorer: ExplorerMode): Promise<number> {
  const { rows, rated } = await rateFinished(trx as unknown as RatingsTrx, found.rows);
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
  await writeCounters(trx, inserted, found.positions);
  await writeExplorer(trx, inserted, found.moves, explorer);
  const written = new Set(inserted.map((r) => r.game_id));
  await writeRatingCounters(
    trx as unknown as RatingsTrx,
    rated.filter((r: RatedOutcome) => written.has(r.row.game_id)),
  );
  return inserted.length;
}

/**
 * Runs batches until the log is caught up; returns the finished games written. The next
 * range is read while the current one is written (two connections), since both wait on
 * PostgreSQL; a range read ahead of a checkpoint that another projector then moved is
 * read again.
 */
export async function catchUp(db: Db, span = 20_000, explorer: ExplorerMode = 'live'): Promise<number> {
  let games = 0;
  let ahead: Promise<LeanRange> | null = null;
  for (;;) {
    const before = await readCheckpoint(db);
    // a read ahead that failed is read again here
    const early: LeanRange | null = ahead === null ? null : await ahead.catch(() => null);
    const range: LeanRange = early !== null && early.after === before ? early : await readLean(db, before, span);
    ahead = range.through > before ? readLean(db, range.through, span) : null;
    ahead?.catch(() => {}); // not unhandled while the range is written; awaited above
    const r = await applyRange(db, before, range, explorer);
    games += r.games;
    if (r.caughtUp) return games;
  }
}

/**
 * Truncates every derived table and replays the log from position 0, as one reset
 * transaction then batches (a live projector running meanwhile is safe: batches check the
 * checkpoint). Returns the finished games written.
 */
export async function rebuildStats(
  db: Db,
  span = 3_200_000,
  explorer: Exclude<ExplorerMode, 'live'> = 'deferred',
): Promise<number> {
  await statsDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('projection_checkpoints')
        .values({ name: STATS_PROJECTION, position: 0 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ position: 0 }))
        .execute();
      await sql`select 1 from projection_checkpoints where name = ${STATS_PROJECTION} for update`.execute(trx);
      await sql
        .raw(`truncate ${[...DERIVED_STATS_TABLES, ...DERIVED_RATING_TABLES, ...DERIVED_EXPLORER_TABLES].join(', ')}`)
        .execute(trx);
    });
  // the explorer's runs are merged once at the end, not bucket by bucket as batches add them
  const games = await catchUp(db, span, explorer);
  if (explorer === 'deferred') await compactAll(db);
  return games;
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
  /** Global positions per batch (default 20,000). */
  readonly span?: number;
}): RunningProjector {
  const { db, logger } = options;
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = async () => {
    while (!stopped) {
      try {
        const r = await projectBatch(db, options.span);
        if (r.games > 0) logger.info({ games: r.games, position: r.position }, 'stats: finished games projected');
        if (!r.caughtUp) continue;
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
