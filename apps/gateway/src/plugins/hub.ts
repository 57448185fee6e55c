/** The process-wide pub/sub hub (domain/hub.ts) on its own subscriber connection. */
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { GatewayConfig } from '../config.js';
import { createHub, type Hub } from '../domain/hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
  }
}

export default fp<{ config: GatewayConfig; channelOf: (gameId: string) => string }>(
  async (app, { config, channelOf }) => {
    const subscriber = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
    subscriber.on('error', (err) => app.log.warn({ err }, 'hub: subscriber connection error'));
    await subscriber.connect();
    const hub = createHub(subscriber, channelOf, app.log.child({ component: 'hub' }), (gameId, batch) =>
      app.games.observe(gameId, batch),
    );
    app.decorate('hub', hub);
    app.addHook('onClose', async () => hub.close());
  },
  { name: 'hub', dependencies: ['games'] },
);
