export { workerTuningFromEnv } from './env.js';
export {
  FLAG_JOB_OPTIONS,
  FLAG_QUEUE,
  type FlagJobData,
  flagJobId,
  isFlagJobData,
  scheduleFlag,
} from './flag-queue.js';
export { createFlagProcessor, type FlagDeps, type FlagResult } from './processors/flag.js';
export { GameCache } from './processors/game-cache.js';
export {
  createValidateProcessor,
  type JobDelivery,
  toEnvelope,
  type ValidateDeps,
  type ValidateResult,
} from './processors/validate.js';
export {
  type EventEnvelope,
  enqueueValidate,
  gameChannel,
  isValidateBatchJobData,
  isValidateJobData,
  MAX_VALIDATE_BATCH,
  VALIDATE_JOB_OPTIONS,
  VALIDATE_QUEUE,
  type ValidateBatchJobData,
  type ValidateJobData,
  validateJobId,
} from './queues.js';
export { startSweeper, sweepOverdueClocks, sweepStalled } from './sweeper.js';
export { DEFAULT_CONCURRENCY, type RunningWorker, startWorker, type WorkerOptions } from './worker.js';
