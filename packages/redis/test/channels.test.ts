import { describe, expect, test } from 'vitest';
import { channelSubscriber, closeClient, redisClient } from '../src/index.js';

const CLUSTER = { redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: [{ host: '127.0.0.1', port: 7000 }] };

describe('channelSubscriber on a cluster', () => {
  // lazy connections: nothing is dialled, only the options are read
  test('refuses a connection made without the subscriber option (it has no sharded subscribers)', async () => {
    const client = redisClient(CLUSTER, 'test', { lazyConnect: true });
    expect(() => channelSubscriber(client)).toThrow(/subscriber: true/);
    await closeClient(client);
  });

  test('takes one made to listen', async () => {
    const client = redisClient(CLUSTER, 'test', { lazyConnect: true, subscriber: true });
    expect(channelSubscriber(client).client).toBe(client);
    await closeClient(client);
  });

  test('on one server any connection listens', async () => {
    const client = redisClient({ redisUrl: 'redis://127.0.0.1:6379' }, 'test', { lazyConnect: true });
    expect(channelSubscriber(client).client).toBe(client);
    await closeClient(client);
  });
});
