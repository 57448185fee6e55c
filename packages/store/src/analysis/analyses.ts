/**
 * Game analyses: repository functions over `game_analyses` and `game_analysis_plies`, each
 * taking the db first. A request is an upsert keyed by game and setting, so requests at once
 * make one row; the engine role then moves it through running to done or failed, and stores
 * each position's verdict once (a retried job finds the plies it stored and goes on after them).
 */
import type { AnalysisDb, AnalysisRowStatus, GameAnalysisPlyRow, GameAnalysisRow } from './schema.js';

export interface AnalysisRequest {
  readonly gameId: string;
  readonly setting: string;
  readonly engine: unknown;
  readonly firstSide: 'sente' | 'gote';
  readonly now: Date;
}

/**
 * Records a request: a new row queued, or the existing one marked as the latest request;
 * a failed one is queued again (its stored plies are kept: the next run resumes after them).
 */
export async function requestAnalysis(db: AnalysisDb, request: AnalysisRequest): Promise<GameAnalysisRow> {
  return db
    .insertInto('game_analyses')
    .values({
      game_id: request.gameId,
      setting: request.setting,
      status: 'queued',
      engine: JSON.stringify(request.engine),
      first_side: request.firstSide,
      requested_at: request.now,
      updated_at: request.now,
      error: null,
    })
    .onConflict((oc) =>
      oc.columns(['game_id', 'setting']).doUpdateSet((eb) => ({
        requested_at: eb.ref('excluded.requested_at'),
        status: eb
          .case()
          .when('game_analyses.status', '=', 'failed')
          .then('queued' as AnalysisRowStatus)
          .else(eb.ref('game_analyses.status'))
          .end(),
        error: eb
          .case()
          .when('game_analyses.status', '=', 'failed')
          .then(null)
          .else(eb.ref('game_analyses.error'))
          .end(),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getAnalysis(
  db: AnalysisDb,
  gameId: string,
  setting: string,
): Promise<GameAnalysisRow | undefined> {
  return db
    .selectFrom('game_analyses')
    .selectAll()
    .where('game_id', '=', gameId)
    .where('setting', '=', setting)
    .executeTakeFirst();
}

/**
 * The setting of a game's players' analysis: their engines' comments on their moves, kept as
 * an analysis of its own beside the server's (no engine setting is written so).
 */
export const PLAYER_COMMENTS_SETTING = 'player-comments';

/** The game's most recently requested analysis by the server's engine, whatever its setting. */
export async function latestAnalysis(db: AnalysisDb, gameId: string): Promise<GameAnalysisRow | undefined> {
  return db
    .selectFrom('game_analyses')
    .selectAll()
    .where('game_id', '=', gameId)
    .where('setting', '<>', PLAYER_COMMENTS_SETTING)
    .orderBy('requested_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The analysis' stored positions, in ply order. */
export async function listAnalysisPlies(
  db: AnalysisDb,
  gameId: string,
  setting: string,
): Promise<GameAnalysisPlyRow[]> {
  return db
    .selectFrom('game_analysis_plies')
    .selectAll()
    .where('game_id', '=', gameId)
    .where('setting', '=', setting)
    .orderBy('ply')
    .execute();
}

/** Stores one position's verdict; a ply stored already (by an earlier run) is kept as it was. */
export async function saveAnalysisPly(db: AnalysisDb, row: GameAnalysisPlyRow): Promise<void> {
  await db
    .insertInto('game_analysis_plies')
    .values(row)
    .onConflict((oc) => oc.columns(['game_id', 'setting', 'ply']).doNothing())
    .execute();
}

/** Moves the analysis to `status` (with the reason when failed); false when it has no row (it was deleted). */
export async function setAnalysisStatus(
  db: AnalysisDb,
  gameId: string,
  setting: string,
  status: AnalysisRowStatus,
  now: Date,
  error: string | null = null,
): Promise<boolean> {
  const result = await db
    .updateTable('game_analyses')
    .set({ status, updated_at: now, error })
    .where('game_id', '=', gameId)
    .where('setting', '=', setting)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface KeptAnalysis {
  readonly gameId: string;
  readonly setting: string;
  readonly engine: unknown;
  readonly firstSide: 'sente' | 'gote';
  readonly now: Date;
  /** the positions' verdicts, score as the engine wrote it from the side to move */
  readonly plies: readonly { readonly ply: number; readonly score: string; readonly pv: readonly string[] }[];
}

/**
 * Stores a whole analysis at once, done, in place of any stored under its setting: how a
 * derived one (the players' comments, read from the log) is kept. One transaction: a reader
 * sees the old one or the new one.
 */
export async function keepAnalysis(db: AnalysisDb, analysis: KeptAnalysis): Promise<void> {
  const { gameId, setting, now } = analysis;
  // an upsert, not a delete and insert: two keeping the same analysis at once wait for each other
  await db.transaction().execute(async (trx) => {
    const row = {
      status: 'done' as const,
      engine: JSON.stringify(analysis.engine),
      first_side: analysis.firstSide,
      requested_at: now,
      updated_at: now,
      error: null,
    };
    await trx
      .insertInto('game_analyses')
      .values({ game_id: gameId, setting, ...row })
      .onConflict((oc) => oc.columns(['game_id', 'setting']).doUpdateSet(row))
      .execute();
    await trx.deleteFrom('game_analysis_plies').where('game_id', '=', gameId).where('setting', '=', setting).execute();
    if (analysis.plies.length === 0) return;
    await trx
      .insertInto('game_analysis_plies')
      .values(analysis.plies.map((p) => ({ game_id: gameId, setting, ply: p.ply, score: p.score, pv: [...p.pv] })))
      .execute();
  });
}
