/** The process-wide pub/sub hub (domain/hub.ts) on the games subscriber (plugins/redis.ts). */
import fp from 'fastify-plugin';
import { createHub, type Hub } from '../domain/hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
  }
}

export default fp<{ channelOf: (gameId: string) => string }>(
  async (app, { channelOf }) => {
    const hub = createHub(app.subscribers.games, channelOf, app.log.child({ component: 'hub' }), (gameId, batch) =>
      app.games.observe(gameId, batch),
    );
    app.decorate('hub', hub);
    app.addHook('onClose', async () => hub.close());
  },
  { name: 'hub', dependencies: ['games', 'redis'] },
);
