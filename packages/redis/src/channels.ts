/**
 * Pub/sub on either kind of Redis. On a single server: PUBLISH and SUBSCRIBE, as ever. On a
 * cluster: sharded channels (SPUBLISH, SSUBSCRIBE, Redis 7.0+), each channel served by the
 * master of its slot, since a classic PUBLISH on a cluster is copied to every node of it and
 * so costs every node every message.
 */
import type { Redis } from 'ioredis';
import { isCluster, type RedisClient } from './client.js';

/** Publishes one message; resolves with the receivers that got it (on a cluster, those of the channel's shard). */
export function publish(client: RedisClient, channel: string, message: string): Promise<number> {
  return isCluster(client) ? client.spublish(channel, message).then(Number) : client.publish(channel, message);
}

/**
 * A connection that only listens: the channels it is subscribed to and their messages.
 * 'ready' is a reconnection (or, on a cluster, a change of masters): whatever was published
 * while it was away is lost, and the subscriptions are made again.
 */
export interface ChannelSubscriber {
  /** Resolves once every channel is subscribed (subscribing twice is harmless). */
  subscribe(...channels: string[]): Promise<void>;
  unsubscribe(...channels: string[]): Promise<void>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  /** Connects a connection made lazily that has not connected yet. */
  connect(): Promise<void>;
  /** the connection underneath (its owner closes it) */
  readonly client: RedisClient;
}

export function channelSubscriber(client: RedisClient): ChannelSubscriber {
  if (isCluster(client) && client.options.shardedSubscribers !== true)
    throw new Error('a cluster connection that listens is made with redisClient(target, role, { subscriber: true })');
  if (!isCluster(client)) {
    const subscriber: ChannelSubscriber = {
      client,
      async subscribe(...channels) {
        await readyToSubscribe(client);
        await client.subscribe(...channels);
      },
      async unsubscribe(...channels) {
        await readyToSubscribe(client);
        await client.unsubscribe(...channels);
      },
      on(event: 'message' | 'ready', listener: (...args: string[]) => void) {
        client.on(event, listener);
        return subscriber;
      },
      async connect() {
        if (client.status === 'wait') await client.connect();
      },
    };
    return subscriber;
  }
  // One SSUBSCRIBE per channel: the channels of one command must share a slot. ioredis keeps
  // every SSUBSCRIBE it was given in a list per slot, so a channel is sent once while it is
  // subscribed, and later callers wait for that one.
  const subscribed = new Map<string, Promise<void>>();
  // After a reconnection or a failover ioredis re-sends the SSUBSCRIBEs it keeps; a caller
  // that subscribes again then (the hubs do, before re-reading what they missed) sends its
  // own and waits for the answer, whatever became of ioredis' resend. Registered first, so
  // it runs before the callers' 'ready' listeners.
  const forget = () => subscribed.clear();
  client.on('ready', forget);
  client.on('subscribersReady', forget);
  const subscribeOne = (channel: string): Promise<void> => {
    let pending = subscribed.get(channel);
    if (pending === undefined) {
      pending = client.ssubscribe(channel).then(() => undefined);
      subscribed.set(channel, pending);
      pending.catch(() => {
        if (subscribed.get(channel) === pending) subscribed.delete(channel);
      });
    }
    return pending;
  };
  const subscriber: ChannelSubscriber = {
    client,
    async subscribe(...channels) {
      await Promise.all(channels.map(subscribeOne));
    },
    async unsubscribe(...channels) {
      const known = channels.filter((c) => subscribed.delete(c));
      await Promise.all(known.map((c) => client.sunsubscribe(c)));
    },
    on(event: 'message' | 'ready', listener: (...args: string[]) => void) {
      if (event === 'message') client.on('smessage', listener);
      else {
        client.on('ready', listener);
        // the sharded subscribers were made again (a master failed over, slots moved) and
        // have re-sent their SSUBSCRIBEs
        client.on('subscribersReady', listener);
      }
      return subscriber;
    },
    async connect() {
      if (client.status === 'wait') await client.connect();
    },
  };
  return subscriber;
}

/**
 * Resolves once a single server's connection has passed its ready check, when it is between
 * connected and ready: await it before any (UN)SUBSCRIBE or P(UN)SUBSCRIBE not made through
 * `channelSubscriber`. ioredis writes a SUBSCRIBE at once in that state (the command may run
 * while a server loads its data) instead of queueing it: its answer puts the connection in
 * subscriber mode, the ready check's INFO is then refused, and ioredis drops the connection and
 * dials again, losing whatever was published meanwhile. In every other state the command waits
 * in ioredis' queue until the connection is ready.
 */
export function readyToSubscribe(client: Redis): Promise<void> {
  if (client.status !== 'connect') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onReady = () => {
      client.off('end', onEnd);
      resolve();
    };
    const onEnd = () => {
      client.off('ready', onReady);
      reject(new Error('the Redis connection closed before it was ready'));
    };
    client.once('ready', onReady);
    client.once('end', onEnd);
  });
}
