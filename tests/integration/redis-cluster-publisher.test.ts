/**
 * The worker's channel publisher on a Redis Cluster (the integration-cluster tier only): the
 * publishes of one tick leave as one script per slot, SPUBLISHes sent to the slot's master,
 * and every message reaches its channel's sharded subscribers in the order given. Games'
 * channels share a slot per validate queue, so a tick's verdicts for one queue are one command.
 */
import { randomBytes } from 'node:crypto';
import { gameChannel, validateQueueOf } from '@shogi/pipeline';
import { channelSubscriber, closeClient, slotOf } from '@shogi/redis';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ON_CLUSTER, testRedis } from './harness.js';
import { byChannel, recordedPublisher } from './recorded-publisher.js';

const prefix = `t${randomBytes(4).toString('hex')}:`;
const redis = testRedis('publisher') as Cluster;
const listener = testRedis('publisher-listener', { subscriber: true });
const received: [string, string][] = [];

beforeAll(() => {
  if (!ON_CLUSTER) throw new Error('this test runs in the integration-cluster project (REDIS_CLUSTER_NODES)');
});
afterAll(async () => {
  await Promise.allSettled([closeClient(redis), closeClient(listener)]);
});

test('a tick of publishes leaves as one script per slot and arrives in order on every channel', async () => {
  const subscriber = channelSubscriber(listener);
  subscriber.on('message', (channel, message) => received.push([channel, message]));
  const games = Array.from({ length: 12 }, (_, i) => `g${i}${randomBytes(3).toString('hex')}`);
  const tagged = games.map((id) => gameChannel(id, prefix, 3));
  // a channel of its own slot too (one validate queue: names as ever)
  const plain = [gameChannel(games[0] as string, prefix, 1), `${prefix}player:p1`];
  const channels = [...tagged, ...plain];
  await subscriber.subscribe(...channels);

  // the games of a validate queue share a slot; the three queues' slots differ
  const slotsOfQueue = new Map<number, Set<number>>();
  for (const id of games) {
    const queue = validateQueueOf(id, 3);
    const slots = slotsOfQueue.get(queue) ?? new Set();
    slots.add(slotOf(gameChannel(id, prefix, 3)));
    slotsOfQueue.set(queue, slots);
  }
  for (const slots of slotsOfQueue.values()) expect(slots.size).toBe(1);
  expect(new Set([...slotsOfQueue.values()].map((s) => [...s][0])).size).toBe(slotsOfQueue.size);

  const { publish, commands, sent, stop } = recordedPublisher(redis);
  try {
    // one tick: 60 messages over 14 channels
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        publish(channels[i % channels.length] as string, JSON.stringify([{ seq: i, text: 'ü "q" \n' }])),
      ),
    );
  } finally {
    stop();
  }
  for (let i = 0; i < 300 && received.length < sent.length; i++) await new Promise((r) => setTimeout(r, 10));

  // every message, each channel's in the order published
  expect(received).toHaveLength(sent.length);
  expect(byChannel(received)).toEqual(byChannel(sent));
  // one script per slot (its first call may go as evalsha, then eval when the master lacks it)
  const slots = new Set(channels.map(slotOf)).size;
  expect(commands).not.toContain('spublish');
  const scripts = commands.filter((c) => c === 'evalsha' || c === 'eval').length;
  expect(scripts).toBeGreaterThanOrEqual(slots);
  expect(scripts).toBeLessThanOrEqual(2 * slots);
  expect(slots).toBe(slotsOfQueue.size + plain.length);
});
