/** The store's migrations and the worker, as the launcher uses them. */
import type { GatewayConfig } from '@shogi/gateway';
import { createDb, migrateToLatest } from '@shogi/store';
import {
  type RunningWorker as StartedWorker,
  startWorker,
  type WorkerOptions,
  workerTuningFromEnv,
} from '@shogi/worker';
import type { Logger } from 'pino';

export type RunningWorker = Pick<StartedWorker, 'events' | 'close'>;

export async function migrate(databaseUrl: string, logger: Logger): Promise<void> {
  const db = createDb(databaseUrl, { max: 1, applicationName: 'shogi-migrate' });
  try {
    const result = await migrateToLatest(db);
    const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    logger.info(applied.length > 0 ? `Database migrated: ${applied.join(', ')}` : 'Database schema is up to date');
  } finally {
    await db.destroy();
  }
}

export function startValidationWorker(
  config: GatewayConfig,
  concurrency: number,
  logger: Logger,
  onPublish?: WorkerOptions['onPublish'],
): Promise<RunningWorker> {
  return startWorker({
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    redisClusterNodes: config.redisClusterNodes,
    logger,
    // the worker process's variables (WORKER_PROJECTOR_INTERVAL_MS, ...) work here too
    ...workerTuningFromEnv(process.env),
    concurrency,
    validateQueues: config.validateQueues,
    prefix: config.queuePrefix,
    channelPrefix: config.channelPrefix,
    ...(onPublish === undefined ? {} : { onPublish }),
  });
}
