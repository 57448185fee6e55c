/**
 * Every Redis connection of the gateway, opened here and closed here:
 * - `redis`: commands (publishes, rate limits, tickets, counts), auto-pipelined;
 * - `subscribers`: a connection in subscriber mode takes no other command, and each of these
 *   has its own listeners and its own reconnection handling: `games` (the hub of the game
 *   channels), `auth` (token revocations), `spectatorCounts` (the other gateways' counts),
 *   `lobby` (the `player:<id>` channels of the lobby sockets), `chat` (the `chat:<id>` channels
 *   of games' chats, domain/game-chat.ts), `live`, whose pattern subscription to every game
 *   exists only while a live feed is open, and `analysis` (the games' analysis progress, for
 *   their watchers); these two connect on their first use;
 * - `queueRedis`: BullMQ's, apart from the auto-pipelined one (see plugins/games.ts); it
 *   connects when a queue first uses it.
 */
import fp from 'fastify-plugin';
import { Redis, type RedisOptions } from 'ioredis';
import type { GatewayConfig } from '../config.js';

export type SubscriberName = 'games' | 'auth' | 'spectatorCounts' | 'lobby' | 'chat' | 'live' | 'analysis';

export type Subscribers = Readonly<Record<SubscriberName, Redis>>;

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis;
    subscribers: Subscribers;
    queueRedis: Redis;
  }
}

const LAZY: readonly SubscriberName[] = ['live', 'analysis'];

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const log = app.log.child({ component: 'redis' });
    const opened: Redis[] = [];
    const open = (name: string, options: RedisOptions) => {
      const connection = new Redis(config.redisUrl, { lazyConnect: true, ...options });
      connection.on('error', (err) => log.warn({ err, connection: name }, 'redis: connection error'));
      opened.push(connection);
      return connection;
    };
    app.addHook('onClose', async () => {
      await Promise.all(opened.map(close));
    });

    // auto-pipelining: the commands of one tick (publishes) leave in one write
    const redis = open('commands', { maxRetriesPerRequest: 3, enableOfflineQueue: true, enableAutoPipelining: true });
    const names: SubscriberName[] = ['games', 'auth', 'spectatorCounts', 'lobby', 'chat', 'live', 'analysis'];
    const subscribers = Object.fromEntries(
      names.map((name) => [name, open(`subscriber:${name}`, { maxRetriesPerRequest: null })]),
    ) as Subscribers;
    const queueRedis = open('queues', { maxRetriesPerRequest: 3 });
    const eager = [redis, ...names.filter((n) => !LAZY.includes(n)).map((n) => subscribers[n])];
    await Promise.all(eager.map((c) => c.connect())).catch(async (err: unknown) => {
      // the app will not start: nothing may keep reconnecting behind it
      await Promise.all(opened.map(close));
      throw err;
    });

    app.decorate('redis', redis);
    app.decorate('subscribers', subscribers);
    app.decorate('queueRedis', queueRedis);
  },
  { name: 'redis' },
);

/** QUIT when connected (what was sent is answered first); a connection that never connected is only dropped. */
async function close(connection: Redis): Promise<void> {
  if (connection.status === 'wait' || connection.status === 'end') {
    connection.disconnect();
    return;
  }
  await connection.quit().catch(() => connection.disconnect());
}
