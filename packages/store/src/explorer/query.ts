/**
 * Reading the explorer: one position's answer is the runs of its bucket (one index range
 * read, a few KB to a few hundred KB for the start position), decoded for its key only, and
 * summed under the filter; the games it names are then read from `finished_games` by their
 * references. A player's explorer is computed from their games instead (see playerExplorer).
 */
import {
  type Entry,
  type ExplorerFilter,
  entriesOfGame,
  forEachEntry,
  type GameRef,
  type Limits,
  monthText,
  type PositionKey,
  type PositionStats,
  summarize,
} from '@shogi/explorer';
import { type Kysely, sql } from 'kysely';
import type { FinishedRow } from '../stats/rows.js';
import type { ExplorerSource } from './schema.js';
import { EXPLORER_PLIES, explorerGame } from './write.js';

// biome-ignore lint/suspicious/noExplicitAny: any database whose schema holds the explorer's tables
type AnyDb = Kysely<any>;

/** The entries of one position in the index, over the given sources. */
export async function positionEntries(
  db: AnyDb,
  sources: readonly ExplorerSource[],
  key: PositionKey,
): Promise<Entry[]> {
  const r = await sql<{ data: Uint8Array }>`select data from explorer_runs
    where source = any(${sources}::text[]) and bucket = ${key.bucket}`.execute(db);
  const out: Entry[] = [];
  for (const row of r.rows) forEachEntry(row.data, (e) => out.push(e), key.rest);
  return out;
}

export async function explorerStats(
  db: AnyDb,
  sources: readonly ExplorerSource[],
  key: PositionKey,
  filter: ExplorerFilter,
  limits: Limits,
): Promise<PositionStats> {
  return summarize(await positionEntries(db, sources, key), filter, limits);
}

/** A game as the explorer lists it (lichess's topGames items, in shogi's words). */
export interface ExplorerGameInfo {
  readonly id: string;
  readonly winner: 'sente' | 'gote' | null;
  readonly sente: { readonly name: string; readonly rating: number | null };
  readonly gote: { readonly name: string; readonly rating: number | null };
  readonly speed: string;
  readonly year: number;
  readonly month: string;
  /** an imported record's event (棋戦), when it names one */
  readonly event?: string;
}

interface InfoRow {
  game_id: string;
  global_position: string;
  sente_name: string;
  gote_name: string;
  sente_rating_before: number | null;
  gote_rating_before: number | null;
  result: string;
  time_category: string | null;
  started_at: Date;
  imported: boolean;
  event: string | null;
}

/** The games behind references, by reference; a reference no longer there is left out. */
export async function gamesByRef(db: AnyDb, refs: readonly number[]): Promise<Map<number, ExplorerGameInfo>> {
  if (refs.length === 0) return new Map();
  const r = await sql<InfoRow>`select f.game_id, f.global_position, f.sente_name, f.gote_name,
      f.sente_rating_before, f.gote_rating_before, f.result, f.time_category, f.started_at, f.imported,
      case when f.imported then (select e.payload->'record'->'info'->>'event' from game_events e
        where e.game_id = f.game_id and e.seq = 1) end as event
    from finished_games f where f.global_position = any(${[...new Set(refs)]}::bigint[])`.execute(db);
  return new Map(r.rows.map((row) => [Number(row.global_position), gameInfo(row)]));
}

/** The games behind references, in the references' order, each with its move. */
export async function gamesOfRefs(
  db: AnyDb,
  refs: readonly GameRef[],
): Promise<(ExplorerGameInfo & { usi: string })[]> {
  const byRef = await gamesByRef(
    db,
    refs.map((g) => g.ref),
  );
  return refs.flatMap((g) => {
    const info = byRef.get(g.ref);
    return info === undefined ? [] : [{ ...info, usi: g.usi }];
  });
}

const round = (n: number | null): number | null => (n === null ? null : Math.round(n));

function gameInfo(row: InfoRow): ExplorerGameInfo {
  const started = new Date(row.started_at);
  return {
    id: row.game_id,
    winner: row.result === 'sente' || row.result === 'gote' ? row.result : null,
    sente: { name: row.sente_name, rating: round(row.sente_rating_before) },
    gote: { name: row.gote_name, rating: round(row.gote_rating_before) },
    speed: row.time_category ?? 'unlimited',
    year: started.getUTCFullYear(),
    month: monthText((started.getUTCFullYear() - 2000) * 12 + started.getUTCMonth()),
    ...(row.event ? { event: row.event } : {}),
  };
}

/** Games of a player's explorer at most (their latest); lichess's player explorer also indexes on demand. */
export const PLAYER_EXPLORER_GAMES = 2000;

/**
 * A player's explorer, computed from their latest games of that colour (at most
 * PLAYER_EXPLORER_GAMES, played here and imported): their rows, then their first moves from
 * the log in one query, replayed to the position.
 */
export async function playerExplorer(
  db: AnyDb,
  player: string,
  color: 'sente' | 'gote',
  key: PositionKey,
  filter: ExplorerFilter,
  limits: Limits,
): Promise<PositionStats & { games: number }> {
  const column = color === 'sente' ? 'sente_id' : 'gote_id';
  const rows = await sql<FinishedRow>`select * from finished_games
    where ${sql.ref(column)} = ${player} and result <> 'none'
    order by ended_at desc limit ${PLAYER_EXPLORER_GAMES}`.execute(db);
  if (rows.rows.length === 0) return { ...summarize([], filter, limits), games: 0 };
  const moves = await sql<{ game_id: string; ply: number; usi: string }>`
    select game_id, (payload->>'ply')::int as ply, payload->>'usi' as usi from game_events
    where game_id = any(${rows.rows.map((r) => r.game_id)}::text[]) and type = 'MoveAccepted'
      and (payload->>'ply')::int <= ${EXPLORER_PLIES}
    order by game_id, seq`.execute(db);
  const movesOf = new Map<string, string[]>();
  for (const m of moves.rows) {
    const list = movesOf.get(m.game_id) ?? [];
    // a takeback's replayed ply replaces the move taken back, as the projector reads it
    list.length = m.ply - 1;
    list.push(m.usi);
    movesOf.set(m.game_id, list);
  }
  const entries: Entry[] = [];
  for (const row of rows.rows) {
    const game = explorerGame(row, movesOf.get(row.game_id) ?? []);
    if (game === null) continue;
    for (const { bucket, entry } of entriesOfGame(game, EXPLORER_PLIES))
      if (bucket === key.bucket && entry.rest === key.rest) entries.push(entry);
  }
  return { ...summarize(entries, filter, limits), games: rows.rows.length };
}
