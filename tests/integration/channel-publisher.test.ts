/** The worker's channel publisher: one script call per batch of PUBLISHes, on a real Redis. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChannelPublisher } from '../../apps/worker/src/channel-publisher.js';
import { REDIS_URL } from './harness.js';
import { recordedPublisher } from './recorded-publisher.js';

describe('channel publisher', () => {
  const prefix = `t${randomBytes(4).toString('hex')}:`;
  let subscriber: Redis;
  let redis: Redis;
  const received: [string, string][] = [];
  beforeAll(async () => {
    subscriber = new Redis(REDIS_URL);
    redis = new Redis(REDIS_URL);
    await subscriber.psubscribe(`${prefix}*`);
    subscriber.on('pmessage', (_pattern: string, channel: string, message: string) =>
      received.push([channel, message]),
    );
  });
  afterAll(() => {
    subscriber?.disconnect();
    redis?.disconnect();
  });

  const until = async (n: number) => {
    for (let i = 0; i < 200 && received.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  };

  test('publishes every message on its channel, in the order given, a batch per command', async () => {
    received.length = 0;
    const { publish, commands, sent, stop } = recordedPublisher(redis);
    // one tick's publishes make a batch; those made while it is in flight, the next one
    const first = Array.from({ length: 50 }, (_, i) =>
      publish(`${prefix}game:${i % 7}`, JSON.stringify([{ seq: i, text: 'ü "quoted" \n' }])),
    );
    await new Promise((r) => setImmediate(r));
    const second = Array.from({ length: 20 }, (_, i) => publish(`${prefix}game:x${i}`, `m${i}`));
    await Promise.all([...first, ...second]);
    stop();
    await until(sent.length);
    expect(received).toEqual(sent);
    expect(commands).not.toContain('publish');
    // two batches (a script's first call may go as evalsha, then eval when Redis lacks it)
    const scriptCalls = commands.filter((c) => c === 'evalsha' || c === 'eval').length;
    expect(scriptCalls).toBeGreaterThanOrEqual(2);
    expect(scriptCalls).toBeLessThanOrEqual(3);
  });

  test('a batch that fails rejects each of its publishes, and the next batch still goes', async () => {
    received.length = 0;
    const broken = new Redis(REDIS_URL, { maxRetriesPerRequest: 0, lazyConnect: true, enableOfflineQueue: false });
    const failing = createChannelPublisher(broken);
    const results = await Promise.allSettled([
      failing.publish(`${prefix}a`, 'one'),
      failing.publish(`${prefix}b`, 'two'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    // a command may have started the lazy connection already
    if (broken.status !== 'ready') {
      const ready = new Promise((r) => broken.once('ready', r));
      await broken.connect().catch(() => {});
      await ready;
    }
    await failing.publish(`${prefix}c`, 'three');
    await until(1);
    expect(received).toEqual([[`${prefix}c`, 'three']]);
    broken.disconnect();
  });
});
