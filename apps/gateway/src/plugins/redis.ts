/**
 * The gateway's Redis connection for commands (publishes, rate limits, counts); the hub has
 * its own subscriber and the BullMQ producers their own connection (plugins/games.ts).
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
    // auto-pipelining: the commands of one tick (publishes) leave in one write
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
