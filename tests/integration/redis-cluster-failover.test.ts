/**
 * A Redis Cluster master killed mid-game (issue 29). A cluster of the test's own (three masters,
 * one replica each, node timeout 2 s: infra/start-redis-cluster.sh on ports 7100-7105, so the
 * tier's cluster and the single Redis are never touched) carries a gateway and a worker; six
 * games play moves over HTTP while a spectator watches each one. Then:
 *
 * 1. once every game has moves, the master that holds the first validate queue's keys is
 *    killed with SIGKILL (its jobs, queued or running, die with it or live on in its replica,
 *    as far as replication had got);
 * 2. the cluster promotes that master's replica after the node timeout; meanwhile moves keep
 *    coming, each retried under its idempotency key until answered 202;
 * 3. every client finishes its moves, every spectator ends with the whole ordered stream (its
 *    sharded subscription moved to the new master), and the audit holds: every acknowledged
 *    move in the log, exactly one verdict each.
 *
 * Runs only in the integration-cluster project (it needs redis-server's cluster mode).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findPlayout } from '@shogi/game/testing';
import { validateQueuePlaces } from '@shogi/pipeline';
import { type ClusterNode, closeClient, queuePrefix, redisClient } from '@shogi/redis';
import { type RunningWorker, startWorker } from '@shogi/worker';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Acknowledged, auditWhenSettled } from './audit.js';
import { bearer, call, newGame, type Stack, silentLogger, startStack } from './harness.js';
import { range, Watcher } from './spectate-client.js';

const run = promisify(execFile);
const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../infra/start-redis-cluster.sh');
const BASE = 7100;
const DIR = `/tmp/shogi-redis-cluster-${BASE}`;
const CLUSTER_ENV = {
  ...process.env,
  REDIS_CLUSTER_PORT: String(BASE),
  REDIS_CLUSTER_DIR: DIR,
  REDIS_CLUSTER_NODE_TIMEOUT: '2000',
};
const NODES: ClusterNode[] = [0, 1, 2].map((i) => ({ host: '127.0.0.1', port: BASE + i }));
const TARGET = { redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: NODES };
const GAMES = 6;
const MOVES = findPlayout('checkmate', 300, 60).moves.slice(0, 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let stack: Stack;
let worker: RunningWorker;

beforeAll(async () => {
  // a run that died before its afterAll left its cluster behind
  await run(SCRIPT, ['stop'], { env: CLUSTER_ENV });
  await run(SCRIPT, ['start'], { env: CLUSTER_ENV });
  stack = await startStack({
    listen: true,
    worker: false,
    config: { redisClusterNodes: NODES, validateQueues: 4 },
  });
  worker = await startWorker({
    databaseUrl: stack.config.databaseUrl,
    ...TARGET,
    validateQueues: 4,
    logger: silentLogger(),
    concurrency: 4,
    prefix: stack.config.queuePrefix,
    channelPrefix: stack.config.channelPrefix,
    // production sweeps every 10 s for submissions 5 s old; the same mechanism, sooner
    sweepIntervalMs: 300,
    sweepAfterMs: 1_000,
    lockDuration: 2_000,
    stalledInterval: 1_000,
  });
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await stack?.close();
  await run(SCRIPT, ['stop'], { env: CLUSTER_ENV });
});

/** The cluster's nodes as CLUSTER NODES shows them: port, role, and whether it is failed. */
async function clusterNodes(port: number): Promise<{ port: number; role: string; failed: boolean; slots: string }[]> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'nodes']);
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [, address = '', flags = '', , , , , , ...slots] = line.split(' ');
      return {
        port: Number(address.split('@')[0]?.split(':')[1]),
        role: flags.includes('master') ? 'master' : 'replica',
        failed: flags.includes('fail'),
        slots: slots.join(' '),
      };
    });
}

/** The port of the master serving `key`'s slot. */
async function masterOf(key: string): Promise<number> {
  const client = redisClient(TARGET, 'test-failover-probe');
  try {
    const slot = Number(await client.cluster('KEYSLOT', key));
    const slots = (await client.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
    const range = slots.find(([from, to]) => slot >= from && slot <= to);
    if (range === undefined) throw new Error(`no master serves slot ${slot}`);
    return range[2][1];
  } finally {
    await closeClient(client);
  }
}

/** Plays `moves` over HTTP, each retried under its idempotency key until it is answered 202, and waits for its verdict. */
async function play(
  gameId: string,
  tokens: readonly [string, string],
  acks: Acknowledged[],
  progress: () => void,
): Promise<void> {
  for (const [ply, usi] of MOVES.entries()) {
    const key = `${gameId}-${ply}`;
    const headers = { ...bearer(tokens[ply % 2] as string), 'idempotency-key': key };
    for (let attempt = 0; ; attempt++) {
      const res = await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi, ply }, headers);
      if (res.status === 202) {
        acks.push({ gameId, seq: res.body.seq, usi });
        break;
      }
      // Redis or the previous verdict not there yet (MOVE_PENDING, STALE_PLY): the same request again
      if (attempt > 400) throw new Error(`move ${ply} of ${gameId}: ${res.status} ${JSON.stringify(res.body)}`);
      await sleep(50);
    }
    for (let waited = 0; ; waited += 50) {
      const view = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
      if (view.ply > ply) break;
      if (waited > 30_000) throw new Error(`no verdict for move ${ply} of ${gameId}`);
      await sleep(50);
    }
    progress();
  }
}

test('a master killed mid-game: its replica takes over, every move one verdict, every spectator whole', async () => {
  const games = await Promise.all(Array.from({ length: GAMES }, () => newGame(stack.app)));
  const watchers = await Promise.all(games.map(({ game }) => Watcher.open(stack.baseUrl, game.id)));
  const acks: Acknowledged[] = [];
  let played = 0;
  const running = games.map(({ game, players }) =>
    play(game.id, [players.sente.token, players.gote.token], acks, () => {
      played++;
    }),
  );
  while (played < GAMES * 3) await sleep(10);

  // 1. the master of the first validate queue dies
  const [first] = validateQueuePlaces(stack.config.validateQueues);
  if (first === undefined) throw new Error('no validate queue');
  const victim = await masterOf(
    `${queuePrefix(true, stack.config.queuePrefix, first.name, first.share)}:${first.name}:wait`,
  );
  const pid = Number((await readFile(`${DIR}/${victim}/redis.pid`, 'utf8')).trim());
  const playedAtKill = played;
  process.kill(pid, 'SIGKILL');

  // 2. its replica is promoted (the node timeout, then an election)
  const survivor = NODES.map((n) => n.port).find((p) => p !== victim) as number;
  for (let waited = 0; ; waited += 200) {
    const nodes = await clusterNodes(survivor);
    const masters = nodes.filter((n) => n.role === 'master' && !n.failed && n.slots !== '');
    if (masters.length === 3 && !masters.some((m) => m.port === victim)) break;
    if (waited > 30_000) throw new Error(`no replica took over from ${victim}: ${JSON.stringify(nodes)}`);
    await sleep(200);
  }

  // 3. every game plays to its last move; the audit holds
  await Promise.all(running);
  expect(played).toBe(GAMES * MOVES.length);
  expect(played).toBeGreaterThan(playedAtKill);
  const report = await auditWhenSettled(stack.db, { acknowledged: acks });
  expect(report.problems).toEqual([]);
  expect(report.submissions).toBe(GAMES * MOVES.length);
  expect(report.accepted).toBe(report.submissions);
  for (const [i, { game }] of games.entries()) {
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    const watcher = watchers[i] as Watcher;
    await watcher.waitForSeq(view.lastSeq, 30_000);
    expect(watcher.seqs).toEqual(range(watcher.seqs[0] ?? 1, view.lastSeq));
    await watcher.close();
  }
}, 120_000);
