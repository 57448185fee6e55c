/**
 * The BullMQ worker of the positions queue, and the engine role's ear on the stop channel.
 * Each job is one evaluation: its depth lines and its end line are published on its channel,
 * where the gateway that took the request forwards them to the client. A job is run once:
 * a client whose evaluation failed asks again.
 */
import {
  type EngineResources,
  POSITION_QUEUE,
  type PositionJobData,
  positionChannel,
  positionStopChannel,
} from '@shogi/engine-bots';
import type { PositionEvalEnd, PositionEvalLine } from '@shogi/protocol';
import { channelSubscriber, closeClient, publish, type RedisClient, type RedisTarget, redisClient } from '@shogi/redis';
import type { EnginePool } from '@shogi/usi';
import { Worker } from 'bullmq';
import type { Logger } from 'pino';
import { evaluatePosition } from './evaluate-position.js';
import { PositionStops } from './stops.js';

export interface PositionWorkerOptions {
  readonly target: RedisTarget;
  readonly connection: RedisClient;
  /** the positions queue's BullMQ prefix (@shogi/redis' queuePrefix) */
  readonly prefix: string;
  readonly channelPrefix: string;
  readonly concurrency: number;
  readonly pool: EnginePool;
  readonly resources: EngineResources;
  readonly logger: Logger;
}

export interface PositionWorker {
  /** Stops the running evaluations (each ends `stopped`), then the worker. */
  close(): Promise<void>;
}

export async function startPositionWorker(options: PositionWorkerOptions): Promise<PositionWorker> {
  const { logger, connection, channelPrefix } = options;
  const stops = new PositionStops();
  const listener = redisClient(options.target, 'engine-position-stops', { subscriber: true });
  const subscriber = channelSubscriber(listener);
  const stopChannel = positionStopChannel(channelPrefix);
  subscriber.on('message', (channel, id) => {
    if (channel === stopChannel) stops.stop(id);
  });
  await subscriber.subscribe(stopChannel);

  const send = (id: string, line: PositionEvalLine) =>
    publish(connection, positionChannel(id, channelPrefix), JSON.stringify(line)).catch((err: unknown) =>
      logger.warn({ err, evaluation: id }, 'could not publish a position evaluation line'),
    );

  const worker = new Worker<PositionJobData, PositionEvalEnd['reason']>(
    POSITION_QUEUE,
    async (job) => {
      const { id } = job.data;
      const signal = stops.begin(id);
      let end: PositionEvalEnd;
      try {
        end = await evaluatePosition(job.data, {
          pool: options.pool,
          resources: options.resources,
          signal,
          send: (line) => {
            void send(id, line);
          },
        });
      } catch (err) {
        logger.warn({ err, evaluation: id }, 'position evaluation failed');
        end = { type: 'end', reason: 'stopped', depth: 0, bestmove: null };
      } finally {
        stops.end(id);
      }
      await send(id, end);
      return end.reason;
    },
    { connection, prefix: options.prefix, concurrency: options.concurrency },
  );
  worker.on('error', (err) => logger.error({ err }, 'position queue'));

  return {
    async close() {
      const closed = worker.close();
      stops.stopAll();
      await closed;
      await closeClient(listener);
    },
  };
}
