/**
 * Positions evaluated on request (`POST /api/analysis/position`): the positions queue of the
 * engine role, the hub of the evaluations' channels (on the analysis subscriber), the stop
 * channel every engine role listens to, and the one evaluation each player may have running
 * (a Redis key per player, so that it holds across gateways).
 */
import { randomUUID } from 'node:crypto';
import {
  enginePresenceKey,
  POSITION_QUEUE,
  type PositionJobData,
  positionChannel,
  positionJobId,
  positionStopChannel,
} from '@shogi/engine-bots';
import type { PositionEvalLine } from '@shogi/protocol';
import { publish, queuePrefix } from '@shogi/redis';
import { Queue } from 'bullmq';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { createHub } from '../domain/hub.js';
import { presenceOf } from './analysis.js';

/** What the route needs of the engine role and of Redis for one evaluation. */
export interface PositionEvals {
  readonly maxDepth: number;
  readonly maxMs: number;
  /** the running engine role's name; null when none runs */
  engineName(): Promise<string | null>;
  newId(): string;
  /** Listens to the evaluation's lines; resolves once subscribed (before its job is queued). */
  follow(id: string, listener: (line: unknown) => void): Promise<() => void>;
  /**
   * Makes `id` the player's running evaluation and ends the one it replaces: its stream gets
   * an `end` (superseded) on whichever gateway serves it, and the engine role stops it.
   */
  claim(playerId: string, id: string): Promise<void>;
  /** Forgets the player's evaluation, unless a newer one has replaced it meanwhile. */
  release(playerId: string, id: string): Promise<void>;
  enqueue(job: PositionJobData): Promise<void>;
  /** Stops the evaluation wherever it is: taken off the queue while it waits, else told to the engine roles. */
  stop(id: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    positionEvals: PositionEvals;
  }
}

/** Deletes the key only while it holds the value: a newer evaluation's claim stays. */
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const { channelPrefix } = config;
    const { maxDepth, maxMs } = config.positionAnalysis;
    const queue = new Queue<PositionJobData>(POSITION_QUEUE, {
      connection: app.queueRedis,
      prefix: queuePrefix(app.redisCluster, config.queuePrefix, POSITION_QUEUE),
    });
    queue.on('error', (err) => app.log.warn({ err }, 'position queue: error'));
    const hub = createHub(
      app.subscribers.analysis,
      (id) => positionChannel(id, channelPrefix),
      app.log.child({ component: 'position-hub' }),
    );
    const presenceKey = enginePresenceKey(config.queuePrefix);
    const playerKey = (playerId: string) => `${channelPrefix}position-eval:player:${playerId}`;
    // the claim outlives any evaluation, which the gateway ends by then at the latest
    const claimMs = maxMs + 120_000;
    const warn = (what: string) => (err: unknown) => app.log.warn({ err }, `position evaluation: ${what}`);

    const stop = async (id: string) => {
      const removed = await queue.remove(positionJobId(id)).catch(() => 0);
      if (removed === 1) return;
      await publish(app.redis, positionStopChannel(channelPrefix), id).catch(warn('could not publish a stop'));
    };

    const evals: PositionEvals = {
      maxDepth,
      maxMs,
      async engineName() {
        return presenceOf(await app.redis.get(presenceKey))?.engineName ?? null;
      },
      newId: randomUUID,
      async follow(id, listener) {
        return hub.join(id, (lines) => {
          for (const line of lines) listener(line);
        });
      },
      async claim(playerId, id) {
        const previous = (await app.redis.call('SET', playerKey(playerId), id, 'PX', String(claimMs), 'GET')) as
          | string
          | null;
        if (previous === null || previous === id) return;
        const superseded: PositionEvalLine = { type: 'end', reason: 'superseded', depth: 0, bestmove: null };
        await publish(app.redis, positionChannel(previous, channelPrefix), JSON.stringify(superseded)).catch(
          warn('could not end the superseded evaluation'),
        );
        await stop(previous);
      },
      async release(playerId, id) {
        await app.redis.eval(RELEASE, 1, playerKey(playerId), id).catch(warn('could not release the claim'));
      },
      async enqueue(job) {
        await queue.add('position', job, {
          jobId: positionJobId(job.id),
          // run once: a client whose evaluation failed asks again
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: true,
        });
      },
      stop,
    };
    app.decorate('positionEvals', evals);
    app.addHook('onClose', async () => {
      await hub.close();
      await queue.close();
    });
  },
  { name: 'position-evals', dependencies: ['redis', 'analysis'] },
);
