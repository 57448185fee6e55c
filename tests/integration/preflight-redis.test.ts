/**
 * The server's start-up check on Redis says what is wrong instead of ending without a word.
 * A cluster node that announces no address (one node given every slot by hand, without
 * cluster-announce-ip: CLUSTER SLOTS answers with an empty host) left ioredis' connect pending
 * with nothing to wait on, and `npm start` exited 0 with no message.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { preflight } from '../../apps/server/src/preflight.js';
import { freePort } from './harness.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/test';
let port = 0;
let dir = '';

beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'shogi-preflight-'));
  const server = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-node-timeout', '500'],
      ...['--cluster-config-file', join(dir, 'nodes.conf'), '--dir', dir, '--save', '', '--appendonly', 'no'],
    ],
    { stdio: 'ignore', detached: true },
  );
  server.unref();
  for (let i = 0; i < 50; i++) {
    try {
      execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  execFileSync('redis-cli', ['-p', String(port), 'cluster', 'addslotsrange', '0', '16383'], { stdio: 'ignore' });
});

afterAll(() => {
  try {
    execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'ignore' });
  } catch {
    // already gone
  }
  rmSync(dir, { recursive: true, force: true });
});

test('a cluster whose node announces no usable address is a named problem, not a silent exit', async () => {
  const problems = await preflight(
    DATABASE_URL,
    { redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: [{ host: '127.0.0.1', port }] },
    { postgres: false, redis: true },
    1_500,
  );
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatchObject({ service: 'Redis', url: `the Redis Cluster at 127.0.0.1:${port}` });
  expect(problems[0]?.error).toMatch(
    /no answer within 1.5 s: are the nodes reachable at the addresses CLUSTER SLOTS gives/,
  );
});

test('the same node, once it announces 127.0.0.1, passes', async () => {
  execFileSync('redis-cli', ['-p', String(port), 'config', 'set', 'cluster-announce-ip', '127.0.0.1'], {
    stdio: 'ignore',
  });
  // the node takes its address, and its state turns ok, on its next cluster ticks
  for (let i = 0; i < 100; i++) {
    const cli = (...args: string[]) => execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
    if (cli('cluster', 'slots').includes('127.0.0.1') && cli('cluster', 'info').includes('cluster_state:ok')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const problems = await preflight(
    DATABASE_URL,
    { redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: [{ host: '127.0.0.1', port }] },
    { postgres: false, redis: true },
    5_000,
  );
  expect(problems).toEqual([]);
});
