export { answerOf, type EngineMoveContext, engineMove } from './engine-move.js';
export { INSTALL_HINT, resourcesOf, startEnginePool } from './engine-pool.js';
export { type EngineWorkerOptions, type RunningEngineWorker, startEngineWorker } from './engine-worker.js';
export {
  DEFAULT_ANALYSIS_DEPTH,
  DEFAULT_ENGINE_HASH_MB,
  DEFAULT_ENGINE_PATH,
  defaultEngineWorkers,
  type EngineSettings,
  engineSettingsFromEnv,
} from './settings.js';
