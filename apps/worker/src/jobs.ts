/**
 * The jobs this worker consumes, for the code that produces them (the gateway, the sweeper,
 * tests): queue names, job data, job ids and options, and the channel the verdicts go out
 * on. Imported as `@shogi/worker/jobs`, which loads no worker, pool or connection.
 */
export {
  FLAG_JOB_OPTIONS,
  FLAG_QUEUE,
  type FlagJobData,
  flagJobId,
  flagJobOptions,
  scheduleFlag,
} from './flag-queue.js';
export {
  type EventEnvelope,
  gameChannel,
  MAX_VALIDATE_BATCH,
  toEnvelope,
  VALIDATE_JOB_OPTIONS,
  VALIDATE_QUEUE,
  type ValidateBatchJobData,
  type ValidateJobData,
  validateJobId,
  validateJobOptions,
} from './queues.js';
