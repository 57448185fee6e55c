/**
 * Every finished game of a period, oldest end first, for the bulk export of the whole
 * database (`GET /api/games/export`). The order (ended_at, game_id) is total and stable, so a
 * download cut short resumes after the last game it got; keyset pages keep memory flat.
 */
import { sql } from 'kysely';
import type { Db } from '../schema.js';
import { statsDb } from './projector.js';

export interface PeriodGamesOptions {
  /** ended at or after (ISO 8601) */
  readonly since?: string;
  /** ended before (ISO 8601) */
  readonly until?: string;
  /** resume after this finished game: the games that follow it in the order */
  readonly after?: string;
  readonly pageSize?: number;
}

/** The end time of a finished game; null when no finished game has this id (an `after` that resumes nothing). */
export async function finishedGameEnd(db: Db, gameId: string): Promise<Date | null> {
  const row = await statsDb(db)
    .selectFrom('finished_games')
    .select('ended_at')
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return row?.ended_at ?? null;
}

export async function* periodGames(db: Db, options: PeriodGamesOptions = {}) {
  let after = options.after ?? null;
  const page = options.pageSize ?? 200;
  for (;;) {
    let q = statsDb(db).selectFrom('finished_games').selectAll();
    if (options.since !== undefined) q = q.where('ended_at', '>=', new Date(options.since));
    if (options.until !== undefined) q = q.where('ended_at', '<', new Date(options.until));
    // the key read in SQL, at PostgreSQL's precision rather than a JavaScript Date's
    const a = after;
    if (a !== null)
      q = q.where(
        sql<boolean>`(ended_at, game_id) > (select ended_at, game_id from finished_games where game_id = ${a})`,
      );
    const rows = await q.orderBy('ended_at').orderBy('game_id').limit(page).execute();
    yield* rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < page) return;
    after = last.game_id;
  }
}
