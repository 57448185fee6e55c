/**
 * The worker's tuning from the environment, shared by the worker process (main.ts) and
 * `npm start` (apps/server), so the same variables mean the same in both.
 */
import type { WorkerOptions } from './worker.js';

type Tuning = Omit<
  WorkerOptions,
  'databaseUrl' | 'redisUrl' | 'redisClusterNodes' | 'logger' | 'prefix' | 'channelPrefix'
>;

export function workerTuningFromEnv(env: NodeJS.ProcessEnv): Partial<Tuning> {
  const out: { -readonly [K in keyof Tuning]?: Tuning[K] } = {};
  const int = (name: string): number | undefined => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0)
      throw new Error(`${name} must be a whole number >= 0, got ${JSON.stringify(v)}`);
    return n;
  };
  const set = <K extends keyof Tuning>(key: K, value: Tuning[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set('concurrency', int('WORKER_CONCURRENCY'));
  set('lockDuration', int('WORKER_LOCK_DURATION_MS'));
  set('stalledInterval', int('WORKER_STALLED_INTERVAL_MS'));
  set('sweepIntervalMs', int('WORKER_SWEEP_INTERVAL_MS'));
  set('sweepAfterMs', int('WORKER_SWEEP_AFTER_MS'));
  set('projectorIntervalMs', int('WORKER_PROJECTOR_INTERVAL_MS'));
  set('tokenRetentionDays', int('TOKEN_RETENTION_DAYS'));
  set('cacheSize', int('WORKER_CACHE_SIZE'));
  set('maxInFlight', int('EVENT_STORE_MAX_IN_FLIGHT'));
  const validateQueues = int('VALIDATE_QUEUES');
  if (validateQueues === 0) throw new Error('VALIDATE_QUEUES must be at least 1');
  set('validateQueues', validateQueues);
  const maxBatch = int('EVENT_STORE_MAX_BATCH');
  if (maxBatch === 0) throw new Error('EVENT_STORE_MAX_BATCH must be at least 1');
  set('maxBatch', maxBatch);
  if (env.EVENT_STORE_BATCH !== undefined) out.batch = env.EVENT_STORE_BATCH !== '0';
  return out;
}
