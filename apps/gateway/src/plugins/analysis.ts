/**
 * Game analyses: the service (domain/analysis.ts) over the analysis tables, the engine role's
 * presence record and its analysis queue (@shogi/engine-bots' contract), and the hub of the
 * games' analysis channels, on which the engine role publishes progress for the watchers.
 */
import {
  ANALYSIS_JOB_ATTEMPTS,
  ANALYSIS_QUEUE,
  type AnalysisJobData,
  analysisChannel,
  analysisJobId,
  type EnginePresence,
  enginePresenceKey,
} from '@shogi/engine-bots';
import { recordOfEvents } from '@shogi/game';
import { publish, queuePrefix } from '@shogi/redis';
import { analysisDb, readStream } from '@shogi/store';
import { Queue } from 'bullmq';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { type AnalysisService, createAnalysisService } from '../domain/analysis.js';
import { createHub, type Hub } from '../domain/hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    analysis: AnalysisService & { readonly hub: Hub };
  }
}

/** A presence record read back; null when it is missing or not one. */
export function presenceOf(raw: string | null): EnginePresence | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<EnginePresence> | null;
    const { engineName, analysisDepth } = value ?? {};
    if (typeof engineName !== 'string' || engineName === '') return null;
    if (typeof analysisDepth !== 'number' || !Number.isSafeInteger(analysisDepth) || analysisDepth < 1) return null;
    return value as EnginePresence;
  } catch {
    return null;
  }
}

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const queue = new Queue<AnalysisJobData>(ANALYSIS_QUEUE, {
      connection: app.queueRedis,
      prefix: queuePrefix(app.redisCluster, config.queuePrefix, ANALYSIS_QUEUE),
    });
    queue.on('error', (err) => app.log.warn({ err }, 'analysis queue: error'));
    const presenceKey = enginePresenceKey(config.queuePrefix);
    const channelOf = (gameId: string) => analysisChannel(gameId, config.channelPrefix);
    const service = createAnalysisService({
      view: (gameId) => app.games.view(gameId),
      record: async (gameId) => recordOfEvents(await readStream(app.databases.reads, gameId, 0)),
      presence: async () => presenceOf(await app.redis.get(presenceKey)),
      db: analysisDb(app.databases.games),
      reads: analysisDb(app.databases.reads),
      async enqueue(job) {
        await queue.add('analysis', job, {
          jobId: analysisJobId(job.gameId, job.setting),
          attempts: ANALYSIS_JOB_ATTEMPTS,
          backoff: { type: 'exponential', delay: 5_000 },
          // the tables keep the outcome; a job left in Redis would block the same id from being queued again
          removeOnComplete: true,
          removeOnFail: true,
        });
      },
      async publish(gameId, message) {
        await publish(app.redis, channelOf(gameId), JSON.stringify(message)).catch((err: unknown) =>
          app.log.warn({ err, gameId }, 'analysis: publish failed'),
        );
      },
      now: () => new Date(),
    });
    const hub = createHub(app.subscribers.analysis, channelOf, app.log.child({ component: 'analysis-hub' }));
    app.decorate('analysis', { ...service, hub });
    app.addHook('onClose', async () => {
      await hub.close();
      await queue.close();
    });
  },
  { name: 'analysis', dependencies: ['games', 'redis', 'databases'] },
);
