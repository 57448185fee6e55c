/**
 * Where the server's Redis data goes on a Redis Cluster (the integration-cluster tier only):
 * each BullMQ queue's keys in one slot of their own, a watched game's channel a sharded
 * subscription on the master of its slot (no classic subscription anywhere), the moves split
 * over the validate queues by game.
 */
import { gameChannel, validateQueueNames, validateQueueOf } from '@shogi/pipeline';
import { closeClient, isCluster, mastersOf, scanKeys, slotShareTag } from '@shogi/redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MATE_GAME } from './fixtures.js';
import { call, newGame, ON_CLUSTER, playMove, type Stack, startStack, testRedis } from './harness.js';
import { Watcher } from './spectate-client.js';

let stack: Stack;
beforeAll(async () => {
  if (!ON_CLUSTER) throw new Error('this test runs in the integration-cluster project (REDIS_CLUSTER_NODES)');
  stack = await startStack({ listen: true });
});
afterAll(async () => stack?.close());

/** The hash tag of a key: what a cluster hashes it by. */
const tagOf = (key: string): string => {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
};

test('queues in a slot each, games spread over the validate queues, channels sharded', async () => {
  const redis = testRedis('layout');
  try {
    if (!isCluster(redis)) throw new Error('not a cluster client');
    const games = await Promise.all(Array.from({ length: 8 }, () => newGame(stack.app)));
    const watcher = await Watcher.open(stack.baseUrl, games[0]?.game.id as string);
    for (const { game, players } of games)
      for (const [ply, usi] of MATE_GAME.slice(0, 2).entries())
        await playMove(stack.app, game.id, (ply === 0 ? players.sente : players.gote).token, usi, ply);
    await watcher.waitForSeq(5);

    // 1. every key of the queues: under `{<prefix>:<queue>}`, one tag (one slot) per queue
    const prefix = stack.config.queuePrefix;
    const keys: string[] = [];
    for await (const batch of scanKeys(redis, `{${prefix}:*`)) keys.push(...batch);
    const names = validateQueueNames(stack.config.validateQueues);
    const tags = new Set(keys.map(tagOf));
    for (const tag of tags)
      expect(tag).toMatch(
        new RegExp(`^${prefix}:((validate|flag)-\\d(#\\d+)?|flag|engine-analysis|engine-positions)$`),
      );
    // the games' moves went to more than one validate queue, each game's to the one it hashes to
    const used = new Set(games.map(({ game }) => validateQueueOf(game.id, names.length)));
    expect(used.size).toBeGreaterThan(1);
    const validateTag = (i: number) => slotShareTag(`${prefix}:${names[i]}`, { index: i, of: names.length });
    for (const i of used) expect(tags.has(validateTag(i))).toBe(true);
    // each validate queue in its own part of the slot space: one per master of this cluster
    // (three, slots split evenly) whatever the prefix, when there are as many queues as masters
    const homes = await Promise.all(
      names.map(async (_, i) => redis.slots[Number(await redis.cluster('KEYSLOT', validateTag(i)))]?.[0]),
    );
    if (names.length === mastersOf(redis).length) expect(new Set(homes).size).toBe(names.length);

    // 2. the watched game's channel: one sharded subscriber on its slot's master, no classic one on any node
    const watched = games[0]?.game.id as string;
    const channel = gameChannel(watched, stack.config.channelPrefix, stack.config.validateQueues);
    // in the same share of the slot space as the game's validate queue: on that queue's master
    const slotOfKey = async (key: string) => Number(await redis.cluster('KEYSLOT', key));
    const queueHome = redis.slots[await slotOfKey(validateTag(validateQueueOf(watched, names.length)))]?.[0];
    if (names.length === mastersOf(redis).length) expect(redis.slots[await slotOfKey(channel)]?.[0]).toBe(queueHome);
    const counts = await Promise.all(
      mastersOf(redis).map(async (node) => ({
        sharded: Number(((await node.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number])[1]),
        classic: Number(((await node.pubsub('NUMSUB', channel)) as [string, number])[1]),
      })),
    );
    // the gateway's hub and the spectators' room share one subscription: on one master only
    expect(counts.filter((c) => c.sharded > 0)).toHaveLength(1);
    expect(counts.map((c) => c.classic)).toEqual(counts.map(() => 0));
    const view = (await call(stack.app, 'GET', `/api/games/${games[0]?.game.id}`)).body;
    expect(view.ply).toBe(2);
    await watcher.close();
  } finally {
    await closeClient(redis);
  }
});

test('an auto-pipelined connection runs a script beside commands on other masters in the same turn', async () => {
  // The gateway's command connection auto-pipelines, and the CSA pairing store sends its scripts
  // with EVAL, whose first argument is the script, not a key. Routed by that text, a script could
  // share a turn's pipeline with commands of another master and fail them all ("All keys in the
  // pipeline should belong to the same slots allocation group"), closing the CSA sessions asking.
  const redis = testRedis('layout-eval', { enableAutoPipelining: true });
  try {
    if (!isCluster(redis)) throw new Error('not a cluster client');
    await redis.ping();
    const script = "return redis.call('INCR', KEYS[1])";
    const masterOf = async (key: string) => redis.slots[Number(await redis.cluster('KEYSLOT', key))]?.[0];
    const scriptMaster = await masterOf(script);
    // a key on another master than the script text's, and one on the script text's master
    const keyOf = async (wanted: (master: string | undefined) => boolean) => {
      for (let i = 0; ; i++) if (wanted(await masterOf(`layout-eval:${i}`))) return `layout-eval:${i}`;
    };
    const elsewhere = await keyOf((m) => m !== scriptMaster);
    const there = await keyOf((m) => m === scriptMaster);
    const [counted, set] = await Promise.all([redis.eval(script, 1, elsewhere), redis.set(there, '1', 'PX', 10_000)]);
    expect(counted).toBe(1);
    expect(set).toBe('OK');
    await redis.del(elsewhere);
  } finally {
    await closeClient(redis);
  }
});
