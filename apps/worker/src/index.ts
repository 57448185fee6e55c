export { workerTuningFromEnv } from './env.js';
export { isFlagJobData } from './flag-queue.js';
// the jobs' contract, also importable alone as `@shogi/worker/jobs`
export * from './jobs.js';
export { createFlagProcessor, type FlagDeps, type FlagResult } from './processors/flag.js';
export { GameCache } from './processors/game-cache.js';
export {
  createValidateProcessor,
  type JobDelivery,
  type ValidateDeps,
  type ValidateResult,
} from './processors/validate.js';
export { enqueueValidate, isValidateBatchJobData, isValidateJobData } from './queues.js';
export { startSweeper, sweepOverdueClocks, sweepStalled } from './sweeper.js';
export { DEFAULT_CONCURRENCY, type RunningWorker, startWorker, type WorkerOptions } from './worker.js';
