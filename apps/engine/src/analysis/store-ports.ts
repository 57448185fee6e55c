/**
 * The analysis processor's ports over PostgreSQL (@shogi/store: the game's log, the analysis
 * tables) and Redis (the game's analysis channel).
 */
import { analysisChannel, scoreText } from '@shogi/engine-bots';
import { analysisEngineOf } from '@shogi/protocol';
import {
  analysisDb,
  type Db,
  getAnalysis,
  listAnalysisPlies,
  readStream,
  saveAnalysisPly,
  setAnalysisStatus,
} from '@shogi/store';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import type { AnalysisPorts } from './analyse-game.js';
import type { Evaluate } from './evaluate.js';
import { gameRecordOf } from './game-record.js';

export interface StorePortsOptions {
  readonly db: Db;
  readonly publish: (channel: string, message: string) => Promise<unknown>;
  readonly channelPrefix: string;
  readonly engineName: string;
  readonly evaluate: Evaluate;
  readonly logger: Logger;
}

export function storePorts(options: StorePortsOptions): AnalysisPorts {
  const { db, logger } = options;
  const analyses = analysisDb(db);
  return {
    engineName: options.engineName,
    evaluate: options.evaluate,
    async engineOf(job) {
      const row = await getAnalysis(analyses, job.gameId, job.setting);
      if (row === undefined) return null;
      const engine = analysisEngineOf(row.engine);
      if (engine === null) throw new UnrecoverableError('the analysis names no engine and depth');
      return engine;
    },
    async readGame(gameId) {
      return gameRecordOf(await readStream(db, gameId));
    },
    async storedPlies(job) {
      return new Set((await listAnalysisPlies(analyses, job.gameId, job.setting)).map((row) => row.ply));
    },
    async savePly(job, ply, evaluation) {
      const { gameId, setting } = job;
      await saveAnalysisPly(analyses, {
        game_id: gameId,
        setting,
        ply,
        score: scoreText(evaluation.score),
        pv: [...evaluation.pv],
      });
    },
    async setStatus(job, status, error) {
      await setAnalysisStatus(analyses, job.gameId, job.setting, status, new Date(), error ?? null);
    },
    async publish(gameId, message) {
      await options
        .publish(analysisChannel(gameId, options.channelPrefix), JSON.stringify(message))
        .catch((err: unknown) => logger.warn({ err, gameId }, 'could not publish the analysis progress'));
    },
  };
}
