/**
 * The worker process: `node dist/main.js` (or tsx src/main.ts). Reads its settings from
 * the environment, validates moves until SIGTERM/SIGINT, then finishes the jobs in
 * flight (worker.close()) and exits.
 */
import { redisTargetFromEnv } from '@shogi/redis';
import { pino } from 'pino';
import { workerTuningFromEnv } from './env.js';
import { startWorker } from './worker.js';

const env = process.env;
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

const running = await startWorker({
  databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/shogi',
  ...redisTargetFromEnv(env),
  logger,
  ...workerTuningFromEnv(env),
  prefix: env.QUEUE_PREFIX ?? 'shogi',
  ...(env.CHANNEL_PREFIX === undefined ? {} : { channelPrefix: env.CHANNEL_PREFIX }),
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
