/**
 * The cluster bench's reference: the Redis half of the pipeline's load through the bare
 * libraries, no server code, on one Redis and on the cluster in the same run. G games in a
 * closed loop, each a BullMQ job on its game's queue (Q queues, each under its own hash tag on
 * the cluster, as the server places them), a Worker of concurrency 256 on every queue that
 * publishes the verdict on the game's channel (PUBLISH, or SPUBLISH on the cluster), and the
 * game's next job added once that message arrives on a subscriber. A producer process (adds
 * and listens, as the gateways do) and a worker process, so that the machine's cores are shared
 * as the server's processes share them. What the cluster costs the libraries themselves on this
 * machine, to read the server's own ratio against.
 *
 *   npx tsx --conditions=@shogi/source bench/cluster/reference.ts [--games 100] [--seconds 10] [--queues 1,4]
 *
 * Prints one row per (Redis, queues) pair: round trips/s; and the cluster's ÷ one Redis's. The
 * cluster is REDIS_CLUSTER_NODES's or the bench's own (infra/start-redis-cluster.sh, ports
 * 7200–7202, no replicas); one Redis is REDIS_URL's.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { type QueuePlace, validateQueueOf, validateQueuePlaces } from '@shogi/pipeline';
import {
  channelSubscriber,
  closeClient,
  clusterNodesOf,
  clusterNodesText,
  DEFAULT_REDIS_URL,
  onCluster,
  publish,
  queuePrefix,
  type RedisTarget,
  redisClient,
} from '@shogi/redis';
import { Queue, Worker } from 'bullmq';
import { deleteKeys } from '../e2e/fresh-server.js';
import { localCluster } from './topology.js';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    queues: { type: 'string', default: '1,4' },
    rounds: { type: 'string', default: '2' },
    // internal: this process is the worker side of a run
    'worker-of': { type: 'string' },
  },
});

interface Run {
  readonly target: RedisTarget;
  readonly prefix: string;
  readonly queues: number;
}

// the server's names and placement: `validate`, or `validate-0` … each under its own hash tag
const placeOf = (i: number, count: number) => validateQueuePlaces(count)[i] as QueuePlace;
const queueName = (i: number, count: number) => placeOf(i, count).name;
const placed = (run: Run, i: number) => {
  const { name, share } = placeOf(i, run.queues);
  return queuePrefix(onCluster(run.target), run.prefix, name, share);
};
const channelOf = (run: Run, game: number) => `${run.prefix}:game:g${game}`;

// the job's data, about the size of a gateway's (a game id, a seq, the submission)
const jobData = (game: number, seq: number) => ({
  gameId: `g${game}-0d6f3c1a-8b7e-4c2d-9f10-${String(game).padStart(12, '0')}`,
  seq,
  submitted: { playerId: '5b0c7a64-3f1e-4d2a-8c9b-6a7e5d4c3b2a', color: 'sente', usi: '7g7f', ply: seq },
  submittedAt: new Date().toISOString(),
});

async function workerSide(run: Run): Promise<void> {
  const connection = redisClient(run.target, 'reference-worker', { maxRetriesPerRequest: null });
  const publisher = redisClient(run.target, 'reference-publisher', { enableAutoPipelining: true });
  const workers = Array.from(
    { length: run.queues },
    (_, i) =>
      new Worker(
        queueName(i, run.queues),
        async (job) => {
          const { game, seq } = job.data as { game: number; seq: number };
          // the verdict as the worker publishes it: a message of a few hundred bytes
          await publish(
            publisher,
            channelOf(run, game),
            JSON.stringify({ seq, verdict: 'MoveAccepted', data: job.data }),
          );
        },
        {
          connection,
          prefix: placed(run, i),
          concurrency: 256,
          removeOnComplete: { age: 600, count: 10_000 },
        },
      ),
  );
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  process.send?.('ready');
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all([closeClient(publisher), closeClient(connection)]);
}

async function measure(run: Run, games: number, seconds: number, warmup: number): Promise<number> {
  const child = fork(process.argv[1] as string, ['--worker-of', JSON.stringify(run)], {
    execArgv: process.execArgv,
    stdio: 'inherit',
  });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  const connection = redisClient(run.target, 'reference-producer', { maxRetriesPerRequest: null });
  const subscriber = channelSubscriber(redisClient(run.target, 'reference-subscriber', { subscriber: true }));
  const queues = Array.from(
    { length: run.queues },
    (_, i) => new Queue(queueName(i, run.queues), { connection, prefix: placed(run, i) }),
  );
  const seqs = new Array<number>(games).fill(0);
  let stopAt = Number.POSITIVE_INFINITY;
  let counting = false;
  let counted = 0;
  const add = (game: number) => {
    if (performance.now() >= stopAt) return;
    const seq = (seqs[game] ?? 0) + 1;
    seqs[game] = seq;
    const data = { game, ...jobData(game, seq) };
    void (queues[validateQueueOf(data.gameId, run.queues)] as Queue).add('validate', data, {
      jobId: `g${game}-${seq}`,
      removeOnComplete: { age: 600, count: 10_000 },
    });
  };
  subscriber.on('message', (channel: string) => {
    const game = Number(channel.slice(channel.lastIndexOf(':g') + 2));
    if (counting) counted++;
    add(game);
  });
  await subscriber.subscribe(...Array.from({ length: games }, (_, g) => channelOf(run, g)));
  for (let g = 0; g < games; g++) add(g);
  await new Promise((r) => setTimeout(r, warmup * 1000));
  counting = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const perSecond = counted / ((performance.now() - t0) / 1000);
  stopAt = 0;
  await new Promise((r) => setTimeout(r, 500));
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  await Promise.all(queues.map((q) => q.obliterate({ force: true }).catch(() => undefined)));
  await Promise.all(queues.map((q) => q.close()));
  await Promise.all([closeClient(subscriber.client), closeClient(connection)]);
  return perSecond;
}

if (args['worker-of'] !== undefined) {
  await workerSide(JSON.parse(args['worker-of']) as Run);
} else {
  const nodes = process.env.REDIS_CLUSTER_NODES || clusterNodesText(localCluster(3, '0', 7200));
  const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const targets: { name: string; target: RedisTarget }[] = [
    { name: 'one Redis', target: { redisUrl } },
    { name: 'cluster', target: { redisUrl, redisClusterNodes: clusterNodesOf(nodes) } },
  ];
  const games = Number(args.games);
  console.log(
    `cluster reference: BullMQ + pub/sub alone, ${games} games in a closed loop, one Redis (${redisUrl}) and the cluster (${nodes}), ${new Date().toISOString()}`,
  );
  const results: { name: string; queues: number; perSecond: number }[] = [];
  for (let round = 0; round < Number(args.rounds); round++)
    for (const queues of args.queues.split(',').map(Number))
      for (const { name, target } of round % 2 === 0 ? targets : [...targets].reverse()) {
        const prefix = `ref${randomBytes(4).toString('hex')}`;
        const perSecond = await measure({ target, prefix, queues }, games, Number(args.seconds), Number(args.warmup));
        console.log(
          `  ${name.padEnd(10)} ${String(queues).padStart(2)} queue(s) ${Math.round(perSecond).toLocaleString('en-US').padStart(8)} round trips/s`,
        );
        results.push({ name, queues, perSecond });
        await deleteKeys(target, `*${prefix}*`);
      }
  for (const queues of new Set(results.map((r) => r.queues))) {
    const mean = (name: string) => {
      const rows = results.filter((r) => r.name === name && r.queues === queues);
      return rows.reduce((s, r) => s + r.perSecond, 0) / rows.length;
    };
    console.log(
      `cluster ÷ one Redis, ${queues} queue(s): ${((mean('cluster') / mean('one Redis')) * 100).toFixed(0)} %`,
    );
  }
}
