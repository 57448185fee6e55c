/**
 * The engine role: one pool of USI engines and the BullMQ workers that feed it, house-bot
 * moves from their queue, positions evaluated on request and game analyses from theirs.
 * Moves lease engines before the others (PRIORITY), so an analysis in progress delays a bot's
 * move by one position's search at most, and a position's search, which may be long, is
 * stopped for a bot move that finds no engine free (it resumes after). While it runs, the role keeps its presence in Redis, which requesters read to know
 * whether to wait for an engine at all.
 */
import {
  ANALYSIS_QUEUE,
  ENGINE_MOVE_QUEUE,
  ENGINE_PRESENCE_TTL_MS,
  type EngineMoveJobData,
  type EngineMoveResult,
  type EnginePresence,
  enginePresenceKey,
  POSITION_QUEUE,
  SCREENING_QUEUE,
} from '@shogi/engine-bots';
import { metrics } from '@shogi/metrics';
import { closeClient, onCluster, publish, queuePrefix, type RedisTarget, redisClient } from '@shogi/redis';
import { createDb } from '@shogi/store';
import { type EnginePool, PRIORITY } from '@shogi/usi';
import { Worker } from 'bullmq';
import type { Logger } from 'pino';
import { startAnalysisWorker } from './analysis/analysis-worker.js';
import { poolEvaluator } from './analysis/evaluate.js';
import { storePorts } from './analysis/store-ports.js';
import { engineMove } from './engine-move.js';
import { resourcesOf, startEnginePool } from './engine-pool.js';
import { startPositionWorker } from './positions/position-worker.js';
import {
  poolScreener,
  type RunningScreening,
  startScreening,
  storeScreeningPorts,
} from './screening/screening-worker.js';
import { DEFAULT_SCREENING_DEPTH, type EngineSettings } from './settings.js';

export interface EngineWorkerOptions extends RedisTarget {
  /** BullMQ key prefix, as the gateway's (QUEUE_PREFIX) */
  readonly prefix: string;
  /** the games' log and the analysis tables */
  readonly databaseUrl: string;
  /** prefix of the pub/sub channels, as the gateway's (CHANNEL_PREFIX): analysis progress goes out on them */
  readonly channelPrefix: string;
  readonly settings: EngineSettings;
  readonly logger: Logger;
}

export interface RunningEngineWorker {
  /** as the engine gave it in `id name` */
  readonly engineName: string;
  readonly pool: EnginePool;
  /** fair play's screening of rated games: `sweep()` queues the games to screen now */
  readonly screening: RunningScreening;
  /** Stops taking jobs, lets the running ones finish, then quits the engines. */
  close(): Promise<void>;
}

/** The pool's engines and waiting searches for /metrics, the waiting ones by priority's name. */
function samplePool(pool: EnginePool): () => void {
  const names = new Map<number, string>(Object.entries(PRIORITY).map(([name, value]) => [value, name]));
  const stops = [
    metrics.engineBusy.read(() => [[{}, pool.stats.busy]]),
    metrics.engineSize.read(() => [[{}, pool.stats.size]]),
    metrics.engineQueued.read(() => {
      const counts = new Map<string, number>([...names.values()].map((name) => [name, 0]));
      for (const p of pool.queuedPriorities) {
        const name = names.get(p) ?? 'other';
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      return [...counts].map(([priority, n]) => [{ priority }, n] as const);
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** The started role, or null (logged once, with how to install an engine) when no engine runs. */
export async function startEngineWorker(options: EngineWorkerOptions): Promise<RunningEngineWorker | null> {
  const { settings, logger } = options;
  const pool = await startEnginePool(settings, logger);
  if (pool === null) return null;
  const engineName = await pool.run(async (engine) => engine.name ?? settings.path);
  const resources = resourcesOf(settings);
  const connection = redisClient(options, 'engine', { maxRetriesPerRequest: null });
  const prefixOf = (queue: string) => queuePrefix(onCluster(options), options.prefix, queue);

  const moves = new Worker<EngineMoveJobData, EngineMoveResult>(
    ENGINE_MOVE_QUEUE,
    async (job) =>
      engineMove(job.data, {
        pool,
        resources,
        onWarning: (message) => logger.warn(`game ${job.data.gameId}: ${message}`),
      }),
    // one job more than engines: the next one's fetch and replay overlap a search, so an
    // engine is not idle between jobs, while the rest wait in Redis for any engine process
    { connection, prefix: prefixOf(ENGINE_MOVE_QUEUE), concurrency: settings.workers + 1 },
  );
  moves.on('failed', (job, err) => logger.warn({ err }, `engine move for game ${job?.data.gameId} failed`));
  moves.on('error', (err) => logger.error({ err }, 'engine move queue'));

  // one connection per analysis running at once: each holds one while it reads or stores
  const db = createDb(options.databaseUrl, { max: settings.workers, applicationName: 'shogi-engine' });
  const analyses = startAnalysisWorker({
    connection,
    prefix: prefixOf(ANALYSIS_QUEUE),
    // each analysis searches one position at a time, so this many keep every engine busy
    concurrency: settings.workers,
    ports: storePorts({
      db,
      publish: (channel, message) => publish(connection, channel, message),
      channelPrefix: options.channelPrefix,
      engineName,
      evaluate: poolEvaluator(pool, resources),
      logger,
    }),
    logger,
  });

  const positions = await startPositionWorker({
    target: options,
    connection,
    prefix: prefixOf(POSITION_QUEUE),
    channelPrefix: options.channelPrefix,
    // as the moves: the next one's fetch overlaps a search; the rest wait in Redis
    concurrency: settings.workers + 1,
    pool,
    resources,
    logger,
  });
  const screening = startScreening({
    connection,
    prefix: prefixOf(SCREENING_QUEUE),
    db,
    ports: storeScreeningPorts(db, poolScreener(pool, resources), settings.screeningDepth ?? DEFAULT_SCREENING_DEPTH),
    sweepMs: settings.screeningSweepMs ?? 0,
    logger,
  });

  const presence: EnginePresence = {
    engineName,
    workers: settings.workers,
    analysisDepth: settings.analysisDepth,
  };
  const presenceKey = enginePresenceKey(options.prefix);
  const announce = () =>
    connection
      .set(presenceKey, JSON.stringify(presence), 'PX', ENGINE_PRESENCE_TTL_MS)
      .catch((err: unknown) => logger.warn({ err }, 'could not renew the engine presence'));
  await announce();
  const renewal = setInterval(announce, ENGINE_PRESENCE_TTL_MS / 3);
  renewal.unref();

  logger.info(`Engines: ${settings.workers} × ${engineName} (${settings.hashMb} MB hash, 1 thread)`);
  const unsample = samplePool(pool);
  return {
    engineName,
    pool,
    screening,
    async close() {
      clearInterval(renewal);
      unsample();
      await Promise.all([moves.close(), analyses.close(), positions.close(), screening.close()]);
      await connection.del(presenceKey).catch(() => {});
      await pool.close();
      await db.destroy();
      await closeClient(connection);
    },
  };
}
