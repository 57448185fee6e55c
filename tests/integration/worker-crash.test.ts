/**
 * A worker process killed with SIGKILL mid-stream and restarted: every submitted move
 * still gets exactly one verdict (jobs it held come back as stalled; a verdict appended
 * just before the kill makes the rerun a no-op that republishes it).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findPlayout } from '@shogi/game/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness, verdictCounts } from '../../apps/worker/test/harness.js';

const MAIN = fileURLToPath(new URL('../../apps/worker/src/main.ts', import.meta.url));
let h: Harness;
const children: ChildProcess[] = [];

function spawnWorker(): Promise<ChildProcess> {
  const child = fork(MAIN, [], {
    execArgv: ['--import', 'tsx', '--conditions=@shogi/source'],
    env: {
      ...process.env,
      DATABASE_URL: h.t.url,
      ...h.workerEnv,
      QUEUE_PREFIX: h.prefix,
      CHANNEL_PREFIX: h.channelPrefix,
      WORKER_CONCURRENCY: '8',
      // a killed worker's jobs are taken back after about a second instead of 30 s
      WORKER_LOCK_DURATION_MS: '1000',
      WORKER_STALLED_INTERVAL_MS: '500',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
}

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await h?.close();
});

it('a worker killed with SIGKILL mid-stream and restarted leaves every move exactly one verdict', async () => {
  const first = await spawnWorker();
  const games = Array.from({ length: 6 }, (_, i) => `crash${i}`);
  const moves = findPlayout('checkmate', 300, 60).moves.slice(0, 40);
  await Promise.all(games.map((g) => h.createGame(g)));
  const played = games.map(() => 0);
  const clients = games.map(async (g, i) => {
    for (const usi of moves) {
      const seq = await h.submit(g, usi);
      await h.verdict(g, seq, 30_000);
      played[i] = (played[i] ?? 0) + 1;
    }
  });
  // 1. let the games get going, then kill the worker without warning
  while (played.reduce((a, b) => a + b, 0) < 40) await new Promise((r) => setTimeout(r, 10));
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  // 2. moves keep being submitted while no worker runs; then a new one starts
  await new Promise((r) => setTimeout(r, 300));
  await spawnWorker();
  // 3. every client finishes its moves
  await Promise.all(clients);
  for (const g of games) {
    const { submitted, verdicts } = verdictCounts(await h.events(g));
    expect(submitted.length).toBe(moves.length);
    expect(submitted.map((s) => verdicts.get(s) ?? 0)).toEqual(submitted.map(() => 1));
  }
  expect(await h.queue.getFailedCount()).toBe(0);
}, 90_000);

it('SIGTERM finishes the jobs in flight and exits 0; a new worker takes the rest', async () => {
  const worker = await spawnWorker();
  const games = Array.from({ length: 4 }, (_, i) => `term${i}`);
  const moves = findPlayout('checkmate', 300, 80).moves.slice(0, 20);
  await Promise.all(games.map((g) => h.createGame(g)));
  let played = 0;
  const clients = games.map(async (g) => {
    for (const usi of moves) {
      const seq = await h.submit(g, usi);
      await h.verdict(g, seq, 30_000);
      played++;
    }
  });
  while (played < 20) await new Promise((r) => setTimeout(r, 5));
  const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
  worker.kill('SIGTERM');
  expect(await exited).toBe(0);
  await spawnWorker();
  await Promise.all(clients);
  for (const g of games) {
    const { submitted, verdicts } = verdictCounts(await h.events(g));
    expect(submitted.map((s) => verdicts.get(s) ?? 0)).toEqual(submitted.map(() => 1));
  }
  expect(await h.queue.getFailedCount()).toBe(0);
}, 90_000);
