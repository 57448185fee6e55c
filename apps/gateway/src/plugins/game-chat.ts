/** The games' chat (domain/game-chat.ts) with the hub of its channels on the chat subscriber. */
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { chatChannel, createGameChat, type GameChat } from '../domain/game-chat.js';
import { createHub } from '../domain/hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    gameChat: GameChat;
  }
}

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const prefix = config.channelPrefix;
    const hub = createHub(
      app.subscribers.chat,
      (gameId) => chatChannel(gameId, prefix),
      app.log.child({ component: 'chat-hub' }),
    );
    app.decorate('gameChat', createGameChat({ redis: app.redis, cluster: app.redisCluster, hub, prefix }));
    app.addHook('onClose', async () => hub.close());
  },
  { name: 'game-chat', dependencies: ['redis'] },
);
