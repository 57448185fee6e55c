/**
 * Redis connections of the gateway: one for commands (the BullMQ producer and the
 * idempotency cache share it) and one subscriber for the hub.
 */
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { GatewayConfig } from '../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis;
  }
}

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    // auto-pipelining: the commands of one tick (enqueue, publish) leave in one write
    const redis = new Redis(config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 3,
      enableOfflineQueue: true,
      enableAutoPipelining: true,
    });
    redis.on('error', (err) => app.log.warn({ err }, 'redis: connection error'));
    await redis.connect();
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'redis' },
);
