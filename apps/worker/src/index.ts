export { workerTuningFromEnv } from './env.js';
export { createFlagProcessor, type FlagDeps, type FlagResult } from './processors/flag.js';
export {
  createValidateProcessor,
  type JobDelivery,
  type ValidateDeps,
  type ValidateResult,
} from './processors/validate.js';
export { OneAtATime, type WorkerGames, workerGames } from './processors/worker-games.js';
export { startSweeper, sweepOverdueClocks, sweepStalled } from './sweeper.js';
export { DEFAULT_CONCURRENCY, type RunningWorker, startWorker, type WorkerOptions } from './worker.js';
