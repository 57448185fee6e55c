/**
 * How the house bots ask the engine role for a move: a job on its queue, awaited. When no
 * engine role has announced itself in Redis, or its answer does not come in time, the caller
 * is told so at once and plays its built-in move: a game against a house bot never stalls
 * for want of an engine.
 */
import {
  ENGINE_MOVE_QUEUE,
  type EngineMoveJobData,
  type EngineMoveResult,
  type EnginePresence,
  enginePresenceKey,
} from '@shogi/engine-bots';
import { closeClient, onCluster, queuePrefix, type RedisClient, type RedisTarget, redisClient } from '@shogi/redis';
import { Queue, QueueEvents } from 'bullmq';
import type { Logger } from 'pino';

/** How long a presence read is trusted before Redis is asked again. */
const PRESENCE_CACHE_MS = 1000;

export interface EngineClientOptions extends RedisTarget {
  readonly prefix: string;
  /** where the queue's Redis errors go (BullMQ prints one no listener takes to stderr) */
  readonly logger: Logger;
}

export type EngineReply = EngineMoveResult | { readonly kind: 'unavailable'; readonly reason: string };

export class EngineClient {
  private readonly connection: RedisClient;
  private readonly queue: Queue<EngineMoveJobData, EngineMoveResult>;
  private readonly events: QueueEvents;
  private readonly presenceKey: string;
  private presence: { value: EnginePresence | null; at: number } = { value: null, at: -Infinity };

  private constructor(options: EngineClientOptions, connection: RedisClient, events: QueueEvents) {
    this.connection = connection;
    this.queue = new Queue(ENGINE_MOVE_QUEUE, { connection, prefix: EngineClient.prefixOf(options) });
    // every move awaited holds a 'closing' listener on this queue until it is answered
    // (BullMQ's waitUntilFinished): one per bot move in flight, as many as the games in play
    this.queue.setMaxListeners(0);
    this.queue.on('error', (err) => options.logger.warn({ err }, 'engine client: queue error'));
    this.events = events;
    this.presenceKey = enginePresenceKey(options.prefix);
  }

  private static prefixOf(options: EngineClientOptions): string {
    return queuePrefix(onCluster(options), options.prefix, ENGINE_MOVE_QUEUE);
  }

  static async start(options: EngineClientOptions): Promise<EngineClient> {
    const connection = redisClient(options, 'engine-client', { maxRetriesPerRequest: null });
    // BullMQ gives the events their own connection, a copy of this one (they block reading)
    const events = new QueueEvents(ENGINE_MOVE_QUEUE, { connection, prefix: EngineClient.prefixOf(options) });
    events.on('error', (err) => options.logger.warn({ err }, 'engine client: queue events error'));
    await events.waitUntilReady();
    return new EngineClient(options, connection, events);
  }

  /** The running engine role's announcement, or null when none runs. */
  async available(): Promise<EnginePresence | null> {
    const now = Date.now();
    if (now - this.presence.at < PRESENCE_CACHE_MS) return this.presence.value;
    const raw = await this.connection.get(this.presenceKey).catch(() => null);
    let value: EnginePresence | null = null;
    try {
      value = raw === null ? null : (JSON.parse(raw) as EnginePresence);
    } catch {
      value = null;
    }
    this.presence = { value, at: now };
    return value;
  }

  /** The engine's answer to a move request; `unavailable` when no engine answers within `waitMs`. */
  async move(data: EngineMoveJobData, waitMs: number): Promise<EngineReply> {
    if ((await this.available()) === null) return { kind: 'unavailable', reason: 'no engine is running' };
    const job = await this.queue.add('move', data, {
      attempts: 2,
      removeOnComplete: { age: 60 },
      removeOnFail: { age: 3600 },
    });
    try {
      return await job.waitUntilFinished(this.events, waitMs);
    } catch (err) {
      // a late answer is of no use once the bot has moved without it
      await job.remove().catch(() => {});
      return { kind: 'unavailable', reason: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.queue.close();
    await closeClient(this.connection);
  }
}
