/**
 * Every Redis connection of the gateway, opened here and closed here:
 * - `redis`: commands (publishes, rate limits, tickets, counts), auto-pipelined;
 * - `subscribers`: a connection in subscriber mode takes no other command, and each of these
 *   has its own listeners and its own reconnection handling: `games` (the hub of the game
 *   channels), `auth` (token revocations), `spectatorCounts` (the other gateways' counts),
 *   `lobby` (the `player:<id>` channels of the lobby sockets), `chat` (the `chat:<id>` channels
 *   of games' chats, domain/game-chat.ts), `live`, whose pattern subscription to every game
 *   exists only while a live feed is open, `analysis` (the games' analysis progress, for
 *   their watchers), `csa` (the CSA front end's gateway channel, csa/plugin.ts) and `tournaments`
 *   (the `tournament:<id>` channels of the tournament pages' sockets, tournaments/live.ts); these
 *   four connect on their first use;
 * - `queueRedis`: BullMQ's, apart from the auto-pipelined one (see plugins/games.ts); it
 *   connects when a queue first uses it.
 * Each is a single Redis or a Redis Cluster (REDIS_CLUSTER_NODES) from @shogi/redis: publish
 * with its `publish` and listen through the subscribers, which use sharded channels on a cluster.
 */
import {
  type ChannelSubscriber,
  type ClientOptions,
  channelSubscriber,
  closeClient,
  type RedisClient,
  redisClient,
} from '@shogi/redis';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';

export type SubscriberName =
  | 'games'
  | 'auth'
  | 'spectatorCounts'
  | 'lobby'
  | 'chat'
  | 'live'
  | 'analysis'
  | 'csa'
  | 'tournaments';

export type Subscribers = Readonly<Record<SubscriberName, ChannelSubscriber>>;

declare module 'fastify' {
  interface FastifyInstance {
    redis: RedisClient;
    subscribers: Subscribers;
    queueRedis: RedisClient;
    /** whether Redis is a cluster: queue prefixes and the live feed's subscription differ */
    redisCluster: boolean;
  }
}

const LAZY: readonly SubscriberName[] = ['live', 'analysis', 'csa', 'tournaments'];

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const log = app.log.child({ component: 'redis' });
    const opened: RedisClient[] = [];
    const open = (name: string, options: ClientOptions) => {
      const connection = redisClient(config, `gateway-${name}`, { lazyConnect: true, ...options });
      connection.on('error', (err) => log.warn({ err, connection: name }, 'redis: connection error'));
      opened.push(connection);
      return connection;
    };
    app.addHook('onClose', async () => {
      await Promise.all(opened.map(closeClient));
    });

    // auto-pipelining: the commands of one tick (publishes) leave in one write
    const redis = open('commands', { maxRetriesPerRequest: 3, enableOfflineQueue: true, enableAutoPipelining: true });
    const names: SubscriberName[] = [
      'games',
      'auth',
      'spectatorCounts',
      'lobby',
      'chat',
      'live',
      'analysis',
      'csa',
      'tournaments',
    ];
    const subscribers = Object.fromEntries(
      names.map((name) => [
        name,
        channelSubscriber(open(`subscriber:${name}`, { maxRetriesPerRequest: null, subscriber: true })),
      ]),
    ) as Subscribers;
    const queueRedis = open('queues', { maxRetriesPerRequest: 3 });
    const eager = [redis, ...names.filter((n) => !LAZY.includes(n)).map((n) => subscribers[n].client)];
    await Promise.all(eager.map((c) => c.connect())).catch(async (err: unknown) => {
      // the app will not start: nothing may keep reconnecting behind it
      await Promise.all(opened.map(closeClient));
      throw err;
    });

    app.decorate<RedisClient>('redis', redis);
    app.decorate('subscribers', subscribers);
    app.decorate<RedisClient>('queueRedis', queueRedis);
    app.decorate('redisCluster', config.redisClusterNodes.length > 0);
  },
  { name: 'redis' },
);
