/**
 * The worker process: `node dist/main.js` (or tsx src/main.ts). Reads its settings from
 * the environment, validates moves until SIGTERM/SIGINT, then finishes the jobs in
 * flight (worker.close()) and exits.
 */
import { pino } from 'pino';
import { startWorker } from './worker.js';

const env = process.env;
const int = (name: string): number | undefined => (env[name] === undefined ? undefined : Number(env[name]));
function hasPrettyPrinter(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

const logger = pino({
  name: 'shogi-worker',
  level: env.LOG_LEVEL ?? 'info',
  // pretty output only on a terminal, and only where pino-pretty is installed (a dev dependency)
  ...(process.stdout.isTTY && hasPrettyPrinter() ? { transport: { target: 'pino-pretty' } } : {}),
});

const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

const running = await startWorker({
  databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/shogi',
  redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  logger,
  ...opt('concurrency', int('WORKER_CONCURRENCY')),
  prefix: env.QUEUE_PREFIX ?? 'shogi',
  ...opt('channelPrefix', env.CHANNEL_PREFIX),
  ...opt('lockDuration', int('WORKER_LOCK_DURATION_MS')),
  ...opt('stalledInterval', int('WORKER_STALLED_INTERVAL_MS')),
  ...opt('sweepIntervalMs', int('WORKER_SWEEP_INTERVAL_MS')),
  ...opt('projectorIntervalMs', int('WORKER_PROJECTOR_INTERVAL_MS')),
  ...opt('sweepAfterMs', int('WORKER_SWEEP_AFTER_MS')),
  ...opt('cacheSize', int('WORKER_CACHE_SIZE')),
  ...opt('maxInFlight', int('EVENT_STORE_MAX_IN_FLIGHT')),
  ...opt('batch', env.EVENT_STORE_BATCH === undefined ? undefined : env.EVENT_STORE_BATCH !== '0'),
});
logger.info('worker: validating moves');
if (process.send) process.send('ready');

const stop = (signal: string) => {
  logger.info({ signal }, 'worker: finishing jobs in flight, then exiting');
  running.close().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'worker: unclean shutdown');
      process.exit(1);
    },
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
