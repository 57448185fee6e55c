/**
 * A subscriber's first SUBSCRIBE made while its connection has connected but not yet passed
 * its ready check (a connection dialled at once, subscribed on its way up): ioredis writes it
 * at once, its answer turns the connection to subscriber mode, and the ready check's INFO is
 * refused; ioredis then drops the connection and dials again, and what was published
 * meanwhile is lost (a verdict a test harness waited 30 s for, under the full suite's load).
 */
import { randomBytes } from 'node:crypto';
import { channelSubscriber, closeClient, publish, readyToSubscribe, redisClient } from '@shogi/redis';
import type { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { REDIS_URL } from './harness.js';

/**
 * A connection dialled at once that listens from its 'connect' event on (`listen`, resolving
 * once subscribed); then a message published on `channel`, which must arrive with no error
 * event and the connection ready.
 */
async function subscribedOnConnect(
  name: string,
  channel: string,
  listen: (client: Redis, received: string[]) => Promise<unknown>,
): Promise<void> {
  const client = redisClient({ redisUrl: REDIS_URL }, `test-${name}-race`) as Redis;
  const publisher = redisClient({ redisUrl: REDIS_URL }, 'test-publisher-race');
  const errors: string[] = [];
  const received: string[] = [];
  client.on('error', (err: Error) => errors.push(err.message));
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => {
        expect(client.status).toBe('connect');
        listen(client, received).then(() => resolve(), reject);
      });
    });
    await publish(publisher, channel, 'first');
    for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(errors).toEqual([]);
    expect(received).toEqual(['first']);
    expect(client.status).toBe('ready');
  } finally {
    await Promise.allSettled([closeClient(client), closeClient(publisher)]);
  }
}

const unique = () => `t${randomBytes(4).toString('hex')}:`;

test('a subscribe made between connected and ready waits for ready: no dropped connection, no lost message', async () => {
  const channel = `${unique()}race`;
  await subscribedOnConnect('subscriber', channel, (client, received) => {
    const subscriber = channelSubscriber(client);
    subscriber.on('message', (_channel, message) => received.push(message));
    return subscriber.subscribe(channel);
  });
});

test('a pattern subscription (the live feed on one Redis) made between connected and ready, after readyToSubscribe: the same', async () => {
  const prefix = unique();
  await subscribedOnConnect('psubscriber', `${prefix}game`, async (client, received) => {
    client.on('pmessage', (_pattern: string, _channel: string, message: string) => received.push(message));
    await readyToSubscribe(client);
    await client.psubscribe(`${prefix}*`);
  });
});
