/** startWorker: BullMQ workers on the validate queues and the flag queue, with their pool, Redis connections and cache. */

import type { EventStore, GameState } from '@shogi/game';
import { sampleQueues } from '@shogi/metrics';
import {
  type EventEnvelope,
  type FlagJobData,
  flagQueuePlaces,
  gameChannel,
  scheduleFlag,
  type ValidateJob,
  validateQueueCount,
  validateQueuePlaces,
} from '@shogi/pipeline';
import {
  closeClient,
  onCluster,
  queuePrefix,
  type RedisClient,
  type RedisTarget,
  redisClient,
  type SlotShare,
} from '@shogi/redis';
import { createDb, createPgEventStore, type Db, startProjector } from '@shogi/store';
import { DelayedError, Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { type ChannelPublisher, createChannelPublisher } from './channel-publisher.js';
import { sampleLiveGames } from './live-games-metric.js';
import { createFlagProcessor, type FlagResult } from './processors/flag.js';
import { createValidateProcessor, type JobDelivery, type ValidateResult } from './processors/validate.js';
import { workerGames } from './processors/worker-games.js';
import { startSweeper } from './sweeper.js';

export const DEFAULT_CONCURRENCY = 256;

export interface WorkerOptions extends RedisTarget {
  readonly databaseUrl: string;
  readonly logger: Logger;
  /**
   * Jobs processed at once by this process on each validate queue (default 256). A job spends
   * most of its time waiting on a batched append and a publish, so slots are cheap; too few of
   * them cap throughput at slots / job time, and jobs wait in Redis for a slot instead.
   */
  readonly concurrency?: number;
  /** BullMQ key prefix (default 'bull'); on a Redis Cluster each queue's is `{<prefix>:<queue>}`. */
  readonly prefix?: string;
  /**
   * The validate queues the work is split over by game, as the gateways' (VALIDATE_QUEUES;
   * default 1, 3 on a Redis Cluster): this worker takes jobs from all of them. Games' channels
   * follow them (`gameChannel`'s `shares`).
   */
  readonly validateQueues?: number;
  /** Prepended to games' channels, `game:<id>` (default ''). */
  readonly channelPrefix?: string;
  /** How long a job's lock lasts without renewal; a killed worker's jobs come back after it (default 30 s). */
  readonly lockDuration?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  readonly stalledInterval?: number;
  /** PostgreSQL pool size (default 8: batched statements need few connections). */
  readonly poolSize?: number;
  /** Batch the event store's statements across games (default true; see @shogi/store). */
  readonly batch?: boolean;
  /** Event-store batches in flight at once, per kind (default 1): fewer means larger batches. */
  readonly maxInFlight?: number;
  /**
   * Appends in one event-store statement at most (default 128). The store carries a gateway's
   * submissions too when one shares it (`npm start`), whose saturated runs went faster with
   * the larger batches.
   */
  readonly maxBatch?: number;
  /**
   * Game states kept in memory (default 2,000). Each has a position history beside it (a
   * position with make/unmake stacks that grow with the game), the bulk of its memory.
   */
  readonly cacheSize?: number;
  /** How often to log what the worker did (default 60 s). */
  readonly statsIntervalMs?: number;
  /** How often to look for submissions left without a job (default 10 s; 0: never). */
  readonly sweepIntervalMs?: number;
  /** A submission without a verdict for this long is enqueued again (default 5 s). */
  readonly sweepAfterMs?: number;
  /**
   * How often the statistics projector (finished games, result counters) catches up with
   * the log (default 1 s; 0: none in this worker). Several workers may run it: each game
   * counts once.
   */
  readonly projectorIntervalMs?: number;
  /**
   * Called with each game's new events and the message about to be published for them: a
   * gateway in the same process hands them to its sockets at once instead of after a round
   * trip through Redis (one process, `npm start`). It must not throw or modify them.
   */
  readonly onPublish?: (gameId: string, events: readonly EventEnvelope[], message: string) => void;
  /** Tokens expired or revoked longer ago than this are deleted by the sweeper (0: kept forever). */
  readonly tokenRetentionDays?: number;
}

export interface RunningWorker {
  /** one per validate queue */
  readonly workers: readonly Worker<ValidateJob>[];
  /** The flag checks' workers, one per flag queue (`flagQueueNames`). */
  readonly flagWorkers: readonly Worker<FlagJobData>[];
  readonly db: Db;
  /** The worker's event store (on `db`): a gateway in the same process may share it. */
  readonly events: EventStore;
  /** Finishes the jobs in flight, then closes the connections. */
  close(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const logger = options.logger;
  const db = createDb(options.databaseUrl, {
    max: options.poolSize ?? 8,
    applicationName: 'shogi-worker',
  });
  const cluster = onCluster(options);
  // no auto-pipelining on BullMQ's connection (reported to break Bull/BullMQ job scripts)
  const connection = redisClient(options, 'worker-queues', { maxRetriesPerRequest: null });
  // this connection only publishes: on one server a batch of concurrent jobs' publishes per
  // command (channel-publisher.ts), on a cluster each SPUBLISH auto-pipelined to its master
  const publisher = redisClient(options, 'worker-publisher', {
    maxRetriesPerRequest: 3,
    enableAutoPipelining: cluster,
  });
  // without listeners ioredis reports every failed reconnect as an unhandled 'error' event;
  // a failed publish is logged and costs subscribers a catch-up read from the log
  for (const [name, client] of [
    ['queue', connection],
    ['publisher', publisher],
  ] as const) {
    client.on('error', (err: Error) => logger.warn({ err: err.message }, `worker: Redis ${name} connection error`));
  }
  const placed = (name: string, share?: SlotShare) => ({
    connection,
    prefix: queuePrefix(cluster, options.prefix ?? 'bull', name, share),
  });
  const validatePlaces = validateQueuePlaces(validateQueueCount(cluster, options.validateQueues));
  const events = createPgEventStore(db, {
    batch: options.batch !== false,
    maxInFlight: options.maxInFlight ?? 1,
    maxBatch: options.maxBatch ?? 128,
  });
  // one set of states and one order per game for both processors: a game's verdicts and flag checks run in turn
  const games = workerGames(events, { cacheSize: options.cacheSize ?? 2_000 });
  const publish = publisherTo(createChannelPublisher(publisher), options, validatePlaces.length);
  // BullMQ prints an error no listener takes to stderr, stack and all: these go to the log
  const queueOf = <T>(name: string, share?: SlotShare) => {
    const queue = new Queue<T>(name, placed(name, share));
    queue.on('error', (err) => logger.warn({ err, queue: name }, 'queue: error'));
    return queue;
  };
  // each validate and flag queue where the gateways put it: its share of the slot space
  const flagPlaces = flagQueuePlaces(validatePlaces.length);
  const flagQueues = flagPlaces.map(({ name, share }) => queueOf<FlagJobData>(name, share));
  const schedule = (gameId: string, state: GameState) => scheduleFlag(flagQueues, gameId, state);
  const processFlag = createFlagProcessor({ events, games, logger, publish, schedule });
  const flagWorkers = flagPlaces.map(({ name, share }) =>
    startFlagWorker(name, processFlag, placed(name, share), options),
  );
  const processJob = createValidateProcessor({ events, games, logger, publish, afterVerdict: schedule });
  const workers = validatePlaces.map(({ name, share }) =>
    startValidateWorker(name, processJob, placed(name, share), options),
  );
  const queues = validatePlaces.map(({ name, share }) => queueOf<ValidateJob>(name, share));
  const chores = startChores(db, queues, flagQueues, options);
  const unsample = [sampleQueues([...queues, ...flagQueues]), sampleLiveGames(db)];
  const statsTimer = reportWhatItDid(workers, logger, options.statsIntervalMs ?? 60_000);
  await Promise.all([...workers, ...flagWorkers].map((w) => w.waitUntilReady()));
  let closing: Promise<void> | null = null;
  return {
    workers,
    flagWorkers,
    db,
    events,
    close() {
      closing ??= (async () => {
        clearInterval(statsTimer);
        for (const stop of unsample) stop();
        await chores.stop();
        await Promise.all([...workers, ...flagWorkers].map((w) => w.close()));
        await Promise.all([...queues, ...flagQueues].map((q) => q.close()));
        await Promise.allSettled([closeClient(publisher), closeClient(connection)]);
        await db.destroy();
      })();
      return closing;
    },
  };
}

/** The sweeper and the statistics projector, each unless its interval is 0. */
function startChores(
  db: Db,
  queue: readonly Queue<ValidateJob>[],
  flagQueues: readonly Queue<FlagJobData>[],
  options: WorkerOptions,
): { stop(): Promise<void> } {
  const logger = options.logger;
  const sweepInterval = options.sweepIntervalMs ?? 10_000;
  const sweeper =
    sweepInterval > 0
      ? startSweeper(db, queue, {
          intervalMs: sweepInterval,
          afterMs: options.sweepAfterMs ?? 5_000,
          logger,
          flagQueues,
          tokenRetentionMs: (options.tokenRetentionDays ?? 30) * 86_400_000,
        })
      : null;
  const projectorInterval = options.projectorIntervalMs ?? 1_000;
  const projector =
    projectorInterval > 0
      ? startProjector({ db, logger: logger.child({ component: 'stats' }), intervalMs: projectorInterval })
      : null;
  return {
    async stop() {
      await sweeper?.stop();
      await projector?.stop();
    },
  };
}

/** Publishing a game's new events: to a gateway in this process first (when there is one), then on Redis. */
function publisherTo(channels: ChannelPublisher, options: WorkerOptions, shares: number) {
  const channelPrefix = options.channelPrefix ?? '';
  const onPublish = options.onPublish;
  return async (gameId: string, envelopes: readonly EventEnvelope[]): Promise<void> => {
    const message = JSON.stringify(envelopes);
    if (onPublish !== undefined) {
      try {
        onPublish(gameId, envelopes, message);
      } catch (err) {
        // the Redis copy still reaches every gateway, this one included
        options.logger.warn({ err, gameId }, 'worker: local delivery failed');
      }
    }
    await channels.publish(gameChannel(gameId, channelPrefix, shares), message);
  };
}

/** Where a BullMQ queue is: its connection and its key prefix. */
interface Placement {
  readonly connection: RedisClient;
  readonly prefix: string;
}

function startFlagWorker(
  queueName: string,
  processFlag: (data: unknown) => Promise<FlagResult>,
  placement: Placement,
  options: WorkerOptions,
): Worker<FlagJobData> {
  const logger = options.logger;
  const flagWorker = new Worker<FlagJobData>(
    queueName,
    async (job, token) => {
      const result = await processFlag(job.data);
      if (result.retryAt !== undefined && token !== undefined) {
        // early by this machine's clock: the same job runs again at the deadline
        await job.moveToDelayed(result.retryAt, token);
        throw new DelayedError();
      }
      return result;
    },
    { ...placement, concurrency: 8 },
  );
  flagWorker.on('failed', (job, err) =>
    logger.warn({ err, gameId: job?.data.gameId, ply: job?.data.ply }, 'flag job failed'),
  );
  flagWorker.on('error', (err) => logger.error({ err }, 'flag worker error'));
  return flagWorker;
}

function startValidateWorker(
  queueName: string,
  processJob: (data: unknown, delivery?: JobDelivery) => Promise<ValidateResult>,
  placement: Placement,
  options: WorkerOptions,
): Worker<ValidateJob> {
  const logger = options.logger;
  const worker = new Worker<ValidateJob>(
    queueName,
    (job) => processJob(job.data, { redelivered: job.attemptsMade > 0 || (job.attemptsStarted ?? 0) > 1 }),
    {
      ...placement,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      ...(options.lockDuration === undefined ? {} : { lockDuration: options.lockDuration }),
      ...(options.stalledInterval === undefined ? {} : { stalledInterval: options.stalledInterval }),
    },
  );
  worker.on('failed', (job, err) =>
    logger.warn(
      {
        err,
        ...(job === undefined
          ? {}
          : 'moves' in job.data
            ? { moves: job.data.moves.length }
            : { gameId: job.data.gameId, seq: job.data.seq }),
        attempts: job?.attemptsMade,
      },
      'validate job failed',
    ),
  );
  worker.on('error', (err) => logger.error({ err }, 'worker error'));
  return worker;
}

/** One plain line an interval about what the worker did, when it did anything. */
function reportWhatItDid(workers: readonly Worker<ValidateJob>[], logger: Logger, intervalMs: number): NodeJS.Timeout {
  const stats = { jobs: 0, verdicts: 0, conflicts: 0 };
  for (const worker of workers)
    worker.on('completed', (_job, result: ValidateResult) => {
      stats.jobs++;
      stats.verdicts += result.verdicts;
      stats.conflicts += result.conflicts;
    });
  const timer = setInterval(() => {
    if (stats.jobs === 0) return;
    logger.info(
      stats,
      `worker: ${stats.verdicts} moves validated since the last report (${stats.jobs} jobs, ${stats.conflicts} version conflicts)`,
    );
    Object.assign(stats, { jobs: 0, verdicts: 0, conflicts: 0 });
  }, intervalMs);
  timer.unref();
  return timer;
}
