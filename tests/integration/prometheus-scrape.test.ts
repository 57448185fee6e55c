/**
 * Debian's Prometheus (/usr/bin/prometheus, `apt-get install prometheus`) scrapes two gateways
 * and two workers, each a process of its own with /metrics on its METRICS_PORT, every second,
 * while a scripted load plays games through both gateways. What Prometheus computes from
 * the scrapes must match what the load counted: the moves submitted and refused at the
 * gateways, the verdicts at the workers, their increase over the run, the histogram's count.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '@shogi/store';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MATE_GAME } from './fixtures.js';
import { createTestDatabase, freePort, mintAdminToken, type TestDatabase } from './harness.js';
import { type Launched, launch, stop, waitUp } from './processes.js';

const PROMETHEUS = '/usr/bin/prometheus';
const GAMES = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let database: TestDatabase;
let processes: Launched[] = [];
let gateways: string[] = [];
let prometheus: ChildProcess | null = null;
let promUrl = '';
let dataDir = '';

beforeAll(async () => {
  if (!existsSync(PROMETHEUS)) throw new Error(`${PROMETHEUS} is missing: apt-get install -y prometheus`);
  database = await createTestDatabase();
  const tag = randomBytes(4).toString('hex');
  const env = { databaseUrl: database.url, queuePrefix: `prom-${tag}`, channelPrefix: `prom-${tag}:` };
  // the first process migrates; the others find the database up to date
  const first = await launch('gateway', env);
  await waitUp(`http://127.0.0.1:${first.port}/health`, first);
  const rest = await Promise.all([launch('gateway', env), launch('worker', env), launch('worker', env)]);
  processes = [first, ...rest];
  await Promise.all(processes.map((p) => waitUp(`http://127.0.0.1:${p.metricsPort}/metrics`, p)));
  gateways = processes.filter((p) => p.port !== 0).map((p) => `http://127.0.0.1:${p.port}`);

  dataDir = await mkdtemp(join(tmpdir(), 'shogi-prometheus-'));
  const targets = (role: string) =>
    processes.filter((p) => (p.port !== 0) === (role === 'gateway')).map((p) => `'127.0.0.1:${p.metricsPort}'`);
  await writeFile(
    join(dataDir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'scrape_configs:',
      `  - { job_name: shogi-gateway, static_configs: [{ targets: [${targets('gateway').join(', ')}] }] }`,
      `  - { job_name: shogi-worker, static_configs: [{ targets: [${targets('worker').join(', ')}] }] }`,
    ].join('\n'),
  );
  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dataDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dataDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  );
  // every target scraped at least once (its counters at 0) before the load starts
  await until(async () => (await query('sum(up)')) === 4, 60_000, 'Prometheus scraping the four processes');
}, 400_000);

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await Promise.all(processes.map((p) => stop(p)));
  if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
  await database?.drop();
});

/** An instant query's single value (a sum), or null when it has none. */
async function query(expr: string, time?: number): Promise<number | null> {
  const params = new URLSearchParams({ query: expr, ...(time === undefined ? {} : { time: String(time) }) });
  const res = await fetch(`${promUrl}/api/v1/query?${params}`).catch(() => null);
  if (res === null || !res.ok) return null;
  const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
  const first = body.data.result[0];
  return first === undefined ? null : Number(first.value[1]);
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(200);
  }
}

async function post(url: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

interface Counted {
  submitted: number;
  refused: number;
  accepted: number;
}

/** One game from start to mate, its moves sent alternately through both gateways, each move's verdict awaited. */
async function playGame(index: number, admin: string, counted: Counted): Promise<void> {
  const via = (ply: number) => gateways[(index + ply) % gateways.length] as string;
  const sente = (await post(`${via(0)}/api/players`, { name: `s${index}` })).body;
  const gote = (await post(`${via(1)}/api/players`, { name: `g${index}` })).body;
  const created = await post(`${via(0)}/api/games`, { sente: sente.id, gote: gote.id }, admin);
  expect(created.status).toBe(201);
  const gameId = created.body.id as string;
  // a move refused at once: nothing recorded, counted by the gateway that refused it
  const illegal = await post(`${via(0)}/api/games/${gameId}/moves`, { usi: '5i5g', ply: 0 }, sente.token);
  expect(illegal.status).toBe(422);
  counted.refused++;
  for (const [ply, usi] of MATE_GAME.entries()) {
    const token = ply % 2 === 0 ? sente.token : gote.token;
    const res = await post(`${via(ply)}/api/games/${gameId}/moves`, { usi, ply }, token);
    expect(res.status).toBe(202);
    counted.submitted++;
    const seq = res.body.seq as number;
    for (;;) {
      const events = (await (await fetch(`${via(ply)}/api/games/${gameId}/events?after=${seq}`)).json()) as {
        events: { type: string; payload: { submittedSeq?: number } }[];
      };
      const verdict = events.events.find((e) => e.payload.submittedSeq === seq);
      if (verdict !== undefined) {
        expect(verdict.type).toBe('MoveAccepted');
        counted.accepted++;
        break;
      }
      await sleep(5);
    }
  }
}

test('the rates Prometheus computes from two gateways and two workers match the moves the load counted', async () => {
  const db = createDb(database.url, { max: 1 });
  const admin = await mintAdminToken(db);
  await db.destroy();
  const counted: Counted = { submitted: 0, refused: 0, accepted: 0 };
  await Promise.all(Array.from({ length: GAMES }, (_, i) => playGame(i, admin, counted)));
  expect(counted.accepted).toBe(GAMES * MATE_GAME.length);

  // the scrapes after the last verdict: every process's counters as the load left them (each
  // target is scraped on its own schedule, so the gateways' last scrape may come after the workers')
  await until(
    async () =>
      (await query('sum(shogi_moves_accepted_total)')) === counted.accepted &&
      (await query('sum(shogi_moves_submitted_total)')) === counted.submitted,
    10_000,
    'the last verdicts scraped',
  );
  expect(await query('sum(shogi_moves_submitted_total)')).toBe(counted.submitted);
  expect(await query('sum(shogi_moves_rejected_total{stage="gateway"})')).toBe(counted.refused);
  expect(await query('sum(shogi_move_verdict_seconds_count)')).toBe(counted.accepted);
  // the load went through both gateways and both workers
  expect(await query('count(shogi_moves_submitted_total{job="shogi-gateway"} > 0)')).toBe(2);
  expect(await query('count(shogi_moves_accepted_total{job="shogi-worker"} > 0)')).toBe(2);
  // Prometheus's own rate arithmetic over the run (counters from 0, so only the end is
  // extrapolated, by at most one scrape interval): within a tenth of what was counted
  const increase = await query('sum(increase(shogi_moves_accepted_total[5m]))');
  expect(increase).not.toBeNull();
  expect(Math.abs((increase as number) - counted.accepted)).toBeLessThanOrEqual(counted.accepted * 0.1);
  const submittedIncrease = (await query('sum(increase(shogi_moves_submitted_total[5m]))')) as number;
  expect(Math.abs(submittedIncrease - counted.submitted)).toBeLessThanOrEqual(counted.submitted * 0.1);
}, 120_000);
