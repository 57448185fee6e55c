/**
 * The game service and its infrastructure: the PostgreSQL pool and event store
 * (@shogi/store), the players repository, and the BullMQ producer of `validate` jobs.
 */

import { type RecordedEvent, turnFlagDueAt } from '@shogi/game';
import { Queue } from 'bullmq';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { createGameService, type GameServiceDeps } from '../domain/game-service.js';
import type { GameService } from '../domain/service.js';
import { openStore } from './store.js';

declare module 'fastify' {
  interface FastifyInstance {
    games: GameService & { channelOf(gameId: string): string };
  }
}

export const VALIDATE_QUEUE = 'validate';
/** The worker's flag queue and job ids (apps/worker/src/flag-queue.ts): one delayed job per turn. */
export const FLAG_QUEUE = 'flag';
export const flagJobId = (gameId: string, ply: number): string => `flag-${gameId}-${ply}`;

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const store = openStore(config);
    const queue = new Queue(VALIDATE_QUEUE, { connection: app.redis, prefix: config.queuePrefix });
    queue.on('error', (err) => app.log.warn({ err }, 'queue: error'));
    const flagQueue = new Queue(FLAG_QUEUE, { connection: app.redis, prefix: config.queuePrefix });
    flagQueue.on('error', (err) => app.log.warn({ err }, 'flag queue: error'));
    const channelOf = (gameId: string) => `${config.channelPrefix}game:${gameId}`;
    const envelopes = (gameId: string, events: readonly RecordedEvent[]) =>
      events.map((e) => ({ gameId, seq: e.seq, type: e.type, data: e.data, recordedAt: e.recordedAt }));
    const deps: GameServiceDeps = {
      publish: async (gameId, events) => {
        await app.redis.publish(channelOf(gameId), JSON.stringify(envelopes(gameId, events)));
      },
      // the hub plugin registers after this one; it is there by the time commands run
      deliverLocal: (gameId, events) => app.hub.deliver(gameId, envelopes(gameId, events)),
      events: store.events,
      players: store.players,
      maxRetries: config.maxAppendRetries,
      cacheSize: config.stateCacheSize,
      // the first-move timer of a new game; the worker schedules each later turn after its verdict
      scheduleFlag: async (gameId, state) => {
        const due = state.clock === null ? null : turnFlagDueAt(state.clock, state.ply);
        if (due === null || state.status !== 'ongoing') return;
        await flagQueue.add(
          FLAG_QUEUE,
          { gameId, ply: state.ply },
          {
            jobId: flagJobId(gameId, state.ply),
            delay: Math.max(0, due - Date.now()),
            removeOnComplete: { age: 3600, count: 10_000 },
            removeOnFail: { age: 24 * 3600 },
            attempts: 8,
            backoff: { type: 'exponential', delay: 200 },
          },
        );
      },
      enqueue: async (gameId, seq, submitted) => {
        // the job id makes a retried enqueue (or a second gateway) a no-op; the submission's
        // copy spares the worker a read of the log (see @shogi/worker's ValidateJobData)
        await queue.add(VALIDATE_QUEUE, submitted === undefined ? { gameId, seq } : { gameId, seq, submitted }, {
          jobId: `${gameId}-${seq}`,
          // completed jobs stay a while (bounded) so their timings can be sampled
          removeOnComplete: { age: 600, count: 10_000 },
          removeOnFail: { age: 24 * 3600 },
          attempts: 8,
          backoff: { type: 'exponential', delay: 50 },
        });
      },
    };
    const service = createGameService(deps);
    app.decorate('games', { ...service, channelOf });
    app.addHook('onClose', async () => {
      await Promise.all([queue.close(), flagQueue.close()]);
      await store.close();
    });
  },
  { name: 'games', dependencies: ['redis'] },
);
