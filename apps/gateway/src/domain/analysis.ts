/**
 * Game analyses as the gateway serves them: a request records the analysis (one per game and
 * engine setting, the setting being that of the running engine role) and queues its job for
 * the engine role, unless it is done; a read answers the most recently requested one. The
 * stored scores are the engine's own, from the side to move: they are turned to sente's side
 * and the moves judged here, at read time (engine-bots `analysisPlies`).
 */
import {
  type AnalysisJobData,
  analysisPlies,
  analysisSettingKey,
  type EnginePresence,
  type PositionEvaluation,
  scoreOfText,
} from '@shogi/engine-bots';
import { type AnalysisResponse, analysisEngineOf, type GameView, type WatchAnalysis } from '@shogi/protocol';
import {
  type AnalysisDb,
  type GameAnalysisPlyRow,
  type GameAnalysisRow,
  latestAnalysis,
  listAnalysisPlies,
  requestAnalysis,
} from '@shogi/store';
import { ApiError } from './api-error.js';

export interface AnalysisServiceDeps {
  /** the game as its players see it; throws GAME_NOT_FOUND */
  view(gameId: string): Promise<GameView>;
  /** the running engine role's announcement; null when none runs */
  presence(): Promise<EnginePresence | null>;
  /** where requests are written */
  readonly db: AnalysisDb;
  /** where analyses are read */
  readonly reads: AnalysisDb;
  /** queues the job once: a second call for the same game and setting while it waits or runs adds nothing */
  enqueue(job: AnalysisJobData): Promise<void>;
  /** best effort: the watchers' news */
  publish(gameId: string, message: WatchAnalysis): Promise<void>;
  now(): Date;
}

export interface AnalysisService {
  request(gameId: string): Promise<AnalysisResponse>;
  read(gameId: string): Promise<AnalysisResponse>;
}

const firstSideOf = (sfen: string): 'sente' | 'gote' => (sfen.split(' ')[1] === 'w' ? 'gote' : 'sente');

/** The analysis as the API answers it; the plies are the stored ones from ply 0 on, without a gap. */
export function analysisResponseOf(row: GameAnalysisRow, plies: readonly GameAnalysisPlyRow[]): AnalysisResponse {
  const engine = analysisEngineOf(row.engine);
  if (engine === null) throw new Error(`analysis ${row.game_id} ${row.setting}: no engine record`);
  const evaluations: PositionEvaluation[] = [];
  for (const ply of plies) {
    const score = scoreOfText(ply.score);
    if (ply.ply !== evaluations.length || score === null) break;
    evaluations.push({ score, pv: ply.pv });
  }
  return { status: row.status, engine, plies: analysisPlies(row.first_side, evaluations) };
}

export function createAnalysisService(deps: AnalysisServiceDeps): AnalysisService {
  const respond = async (row: GameAnalysisRow, db: AnalysisDb) =>
    analysisResponseOf(row, await listAnalysisPlies(db, row.game_id, row.setting));

  return {
    async request(gameId) {
      const view = await deps.view(gameId);
      if (view.status !== 'ended') throw new ApiError('GAME_NOT_ENDED', 'an analysis is of an ended game');
      const presence = await deps.presence();
      if (presence === null) throw new ApiError('ENGINE_UNAVAILABLE');
      const depth = presence.analysisDepth;
      const setting = analysisSettingKey({ engineName: presence.engineName, depth });
      const row = await requestAnalysis(deps.db, {
        gameId,
        setting,
        engine: { name: presence.engineName, depth },
        firstSide: firstSideOf(view.initialSfen),
        now: deps.now(),
      });
      const response = await respond(row, deps.db);
      // a job that waits or runs is not queued twice (its id is the game and setting); one that
      // is gone while the row says otherwise (Redis lost it) is queued again
      if (row.status !== 'done') {
        await deps.enqueue({ gameId, setting });
        if (row.status === 'queued') {
          const message = {
            type: 'analysis',
            status: 'queued',
            done: response.plies.length,
            total: view.ply + 1,
          } as const;
          await deps.publish(gameId, message);
        }
      }
      return response;
    },

    async read(gameId) {
      const row = await latestAnalysis(deps.reads, gameId);
      if (row === undefined) throw new ApiError('ANALYSIS_NOT_FOUND');
      return respond(row, deps.reads);
    },
  };
}
