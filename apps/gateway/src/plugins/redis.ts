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
    const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true });
    redis.on('error', (err) => app.log.warn({ err }, 'redis: connection error'));
    await redis.connect();
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'redis' },
);
