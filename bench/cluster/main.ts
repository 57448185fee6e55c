/**
 * One Redis against a three-master Redis Cluster, in the same run (issue 29): for each, the
 * server as two gateways and two workers (bench/cluster/topology.ts) under the e2e bench
 * (bench/e2e/main.ts, each game's players on both gateways), unbounded and then paced, and the
 * spectator fan-out bench (bench/fanout/main.ts, two gateways, every game's spectators on both;
 * the bench publishes as the workers would); then each master's commands/s
 * and keys over the e2e runs (INFO commandstats, DBSIZE) to show how the load spreads.
 *
 *   npm run build && npm run bench:cluster
 *   npm run bench:cluster -- --games 200 --seconds 20 --rate 1000 --spectators 2000 --rounds 2
 *
 * Options: --games G (200) --seconds S (20) --warmup S (10) --rate R for the paced run (1000)
 *          --spectators K (2000) --fanout-games G (200) --rounds N (1: one Redis, then the cluster;
 *          each further round runs them in the other order) --validate-queues N (the cluster's
 *          VALIDATE_QUEUES; default the server's) --one-redis-validate-queues N (one Redis's: the split's
 *          cost apart from the cluster's) --no-paced --no-fanout --replicas 0|1 (0: three masters alone, as
 *          one Redis is alone; 1: with a replica each, as in production, their replication on the same cores)
 *          --one-master (also a cluster of one node holding every slot, port 7210: the cluster client's
 *          path on one server process, to tell what the client costs from what three processes cost)
 * The cluster is infra/start-redis-cluster.sh's (started when it is down: ports 7200–7202 without
 * replicas, 7000–7005, the tests' own, with them) unless REDIS_CLUSTER_NODES names one; one Redis is REDIS_URL's (shared with whatever else uses it:
 * its per-master figures count that too). Needs `npm run build` first; DATABASE_URL as for the tests.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { clusterNodesOf, clusterNodesText, DEFAULT_REDIS_URL, type RedisTarget } from '@shogi/redis';
import type { WindowUsage } from '../e2e/cpu.js';
import { localCluster, type MasterStats, masterStats, startTopology } from './topology.js';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '10' },
    rate: { type: 'string', default: '1000' },
    spectators: { type: 'string', default: '2000' },
    'fanout-games': { type: 'string', default: '200' },
    rounds: { type: 'string', default: '1' },
    'validate-queues': { type: 'string', default: '' },
    'one-redis-validate-queues': { type: 'string', default: '' },
    'no-fanout': { type: 'boolean', default: false },
    'no-paced': { type: 'boolean', default: false },
    replicas: { type: 'string', default: '0' },
    'one-master': { type: 'boolean', default: false },
  },
});
const REDIS_URL = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const clusterNodes = () => {
  if (process.env.REDIS_CLUSTER_NODES) return clusterNodesOf(process.env.REDIS_CLUSTER_NODES);
  if (args.replicas !== '0' && args.replicas !== '1') throw new Error('--replicas: 0 or 1');
  return localCluster(3, args.replicas, args.replicas === '0' ? 7200 : 7000);
};
const TARGETS: { name: string; target: RedisTarget }[] = [
  { name: 'one Redis', target: { redisUrl: REDIS_URL, redisClusterNodes: [] } },
  // the cluster client's path (hash-tagged queues, sharded channels, the Cluster client) on one
  // server process: what the client costs, apart from spreading the work over three processes
  ...(args['one-master']
    ? [{ name: '1-master', target: { redisUrl: REDIS_URL, redisClusterNodes: localCluster(1, '0', 7210) } }]
    : []),
  { name: 'cluster', target: { redisUrl: REDIS_URL, redisClusterNodes: clusterNodes() } },
];

interface E2eSummary {
  readonly accepted: number;
  readonly errors: number;
  readonly movesPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** each process group's CPU and read/write calls per move over the measured window (bench/e2e/cpu.ts) */
  readonly usage?: WindowUsage;
}

/** Runs a bench script to its end, its output passed through; resolves with the output. */
function runBench(script: string, argv: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@shogi/source', script, ...argv], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited with ${code}`))));
  });
}

const summaryOf = (out: string): E2eSummary => {
  const line = out.split('\n').find((l) => l.startsWith('e2e-summary '));
  if (line === undefined) throw new Error('the e2e bench printed no summary');
  return JSON.parse(line.slice('e2e-summary '.length)) as E2eSummary;
};

/** The servers' settings beyond the defaults: VALIDATE_QUEUES on the clusters, or on one Redis, when asked. */
const serverEnv = (target: RedisTarget): Record<string, string> => {
  const queues = target.redisClusterNodes?.length ? args['validate-queues'] : args['one-redis-validate-queues'];
  return queues === '' ? {} : { VALIDATE_QUEUES: queues };
};

async function e2e(
  target: RedisTarget,
  rate: number,
  warmup: number,
): Promise<{
  summary: E2eSummary;
  perMaster: PerMaster[];
  perMove: Map<string, number>;
  usecPerMove: Map<string, number>;
}> {
  const topology = await startTopology(target, serverEnv(target));
  try {
    const before = await masterStats(target);
    const t0 = performance.now();
    const out = await runBench('bench/e2e/main.ts', [
      ...['--url', topology.urls.join(','), '--games', args.games, '--seconds', args.seconds],
      ...['--warmup', String(warmup), '--rate', String(rate), '--stagger', rate > 0 ? '5' : '0', '--summary'],
      ...['--prefix', topology.prefix, '--redis', target.redisUrl],
      ...(target.redisClusterNodes?.length ? ['--redis-cluster', clusterNodesText(target.redisClusterNodes)] : []),
    ]);
    const seconds = (performance.now() - t0) / 1000;
    const after = await masterStats(target);
    const moves = await topology.movesAccepted();
    return {
      summary: summaryOf(out),
      perMaster: perMaster(before, after, seconds),
      perMove: perMove(before, after, moves, (s) => s.calls),
      usecPerMove: perMove(before, after, moves, (s) => s.usec),
    };
  } finally {
    await topology.stop();
  }
}

interface PerMaster {
  readonly node: string;
  readonly commandsPerSecond: number;
  readonly keys: number;
}

function perMaster(before: readonly MasterStats[], after: readonly MasterStats[], seconds: number): PerMaster[] {
  return after.map((a) => {
    const b = before.find((x) => x.node === a.node);
    return { node: a.node, commandsPerSecond: (a.commands - (b?.commands ?? 0)) / seconds, keys: a.keys };
  });
}

/** Each command's calls (or µs) per validated move over a run, summed over the masters. */
function perMove(
  before: readonly MasterStats[],
  after: readonly MasterStats[],
  moves: number,
  counted: (stats: MasterStats) => ReadonlyMap<string, number>,
): Map<string, number> {
  const calls = new Map<string, number>();
  for (const a of after) {
    const b = before.find((x) => x.node === a.node);
    for (const [command, n] of counted(a))
      calls.set(
        command,
        (calls.get(command) ?? 0) + n - ((b === undefined ? undefined : counted(b).get(command)) ?? 0),
      );
  }
  return new Map([...calls].filter(([, n]) => n > 0).map(([command, n]) => [command, n / Math.max(moves, 1)]));
}

/** The gateways' row of the fan-out bench's target phase: delivered/s, p50, p99. */
async function fanout(target: RedisTarget): Promise<{ delivered: number; p50: number; p99: number }> {
  const out = await runBench('bench/fanout/main.ts', [
    ...[
      '--servers',
      'gateway',
      '--gateways',
      '2',
      '--no-saturation',
      '--spectators',
      args.spectators,
      '--games',
      args['fanout-games'],
    ],
    ...['--seconds', args.seconds, '--redis', target.redisUrl],
    ...['--redis-cluster', clusterNodesText(target.redisClusterNodes ?? [])],
  ]);
  const row = out.split('\n').find((l) => l.trimStart().startsWith('gateway '));
  const cells = row?.trim().split(/\s+/) ?? [];
  const num = (s: string | undefined) => Number((s ?? '').replace(/,/g, ''));
  return { delivered: num(cells[2]), p50: num(cells[3]), p99: num(cells[4]) };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const results: {
  name: string;
  unbounded: E2eSummary;
  paced: E2eSummary;
  fan: Awaited<ReturnType<typeof fanout>>;
  perMaster: PerMaster[];
  perMove: Map<string, number>;
  usecPerMove: Map<string, number>;
}[] = [];
console.log(
  `cluster bench: ${args.games} games, two gateways and two workers, on one Redis (${REDIS_URL}) and on the cluster (${clusterNodesText(TARGETS.find((t) => t.name === 'cluster')?.target.redisClusterNodes ?? [])}${process.env.REDIS_CLUSTER_NODES ? '' : `, ${args.replicas === '0' ? 'no replicas' : 'a replica each'}`}), ${new Date().toISOString()}`,
);
for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? TARGETS : [...TARGETS].reverse();
  for (const { name, target } of order) {
    console.log(`\n=== round ${round + 1}: ${name}: unbounded`);
    const unbounded = await e2e(target, 0, Number(args.warmup));
    const skipped = {
      summary: { accepted: 0, errors: 0, movesPerSecond: Number.NaN, p50: Number.NaN, p99: Number.NaN },
    };
    if (!args['no-paced']) console.log(`\n=== round ${round + 1}: ${name}: paced at ${args.rate} moves/s`);
    const paced = args['no-paced'] ? skipped : await e2e(target, Number(args.rate), Math.max(Number(args.warmup), 10));
    if (!args['no-fanout']) console.log(`\n=== round ${round + 1}: ${name}: fan-out`);
    const fan = args['no-fanout'] ? { delivered: Number.NaN, p50: Number.NaN, p99: Number.NaN } : await fanout(target);
    results.push({
      name,
      unbounded: unbounded.summary,
      paced: paced.summary,
      fan,
      perMaster: unbounded.perMaster,
      perMove: unbounded.perMove,
      usecPerMove: unbounded.usecPerMove,
    });
  }
}

console.log('\nsummary (each row one run):');
console.log(
  '  redis        unbounded moves/s  errors   paced moves/s  p50 ms  p99 ms   fan-out delivered/s  p50 ms  p99 ms',
);
for (const r of results)
  console.log(
    `  ${r.name.padEnd(12)} ${fmt(r.unbounded.movesPerSecond).padStart(17)} ${String(r.unbounded.errors + r.paced.errors).padStart(7)} ${fmt(r.paced.movesPerSecond).padStart(15)} ${r.paced.p50.toFixed(1).padStart(7)} ${r.paced.p99.toFixed(1).padStart(7)} ${fmt(r.fan.delivered).padStart(21)} ${r.fan.p50.toFixed(1).padStart(7)} ${r.fan.p99.toFixed(1).padStart(7)}`,
  );
const mean = (name: string, f: (r: (typeof results)[number]) => number) => {
  const rows = results.filter((r) => r.name === name);
  return rows.reduce((s, r) => s + f(r), 0) / rows.length;
};
const ratio = (name: string, f: (r: (typeof results)[number]) => number) =>
  `${((mean(name, f) / mean('one Redis', f)) * 100).toFixed(0)} %`;
for (const name of TARGETS.slice(1).map((t) => t.name)) {
  const parts = [
    `unbounded ${ratio(name, (r) => r.unbounded.movesPerSecond)}${name === 'cluster' ? ' (target: within 10 %)' : ''}`,
    // a paced run offers the same moves to both: what differs is how long each waits for its verdict
    ...(args['no-paced']
      ? []
      : [
          `paced submit → verdict p50 ×${(mean(name, (r) => r.paced.p50) / mean('one Redis', (r) => r.paced.p50)).toFixed(2)}`,
        ]),
    ...(args['no-fanout'] ? [] : [`fan-out ${ratio(name, (r) => r.fan.delivered)}`]),
  ];
  console.log(`${name} ÷ one Redis: ${parts.join(', ')}`);
}
console.log('\nper master over the unbounded e2e run (INFO commandstats, DBSIZE after):');
for (const r of results)
  for (const m of r.perMaster)
    console.log(
      `  ${r.name.padEnd(12)} ${m.node.padEnd(16)} ${fmt(m.commandsPerSecond).padStart(9)} commands/s ${fmt(m.keys).padStart(8)} keys`,
    );
console.log('\nRedis commands per validated move over the unbounded e2e runs, by command (mean of the rounds):');
const names = TARGETS.map((t) => t.name);
const commandsOf = (name: string) => {
  const rows = results.filter((r) => r.name === name);
  const sum = new Map<string, number>();
  for (const r of rows) for (const [c, n] of r.perMove) sum.set(c, (sum.get(c) ?? 0) + n / rows.length);
  return sum;
};
const table = new Map(names.map((n) => [n, commandsOf(n)]));
const allCommands = [...new Set(names.flatMap((n) => [...(table.get(n)?.keys() ?? [])]))].sort(
  (a, b) => (table.get('one Redis')?.get(b) ?? 0) - (table.get('one Redis')?.get(a) ?? 0),
);
console.log(`  ${'command'.padEnd(22)} ${names.map((n) => n.padStart(10)).join(' ')}`);
const cell = (n: number | undefined) => (n ?? 0).toFixed(2).padStart(10);
for (const c of allCommands)
  if (names.some((n) => (table.get(n)?.get(c) ?? 0) >= 0.01))
    console.log(`  ${c.padEnd(22)} ${names.map((n) => cell(table.get(n)?.get(c))).join(' ')}`);
const total = (n: string) => [...(table.get(n)?.values() ?? [])].reduce((s, x) => s + x, 0);
console.log(`  ${'all'.padEnd(22)} ${names.map((n) => cell(total(n))).join(' ')}`);
// Redis's own time in commands (INFO commandstats' usec, wall time inside the command): the
// same scripts on every target, so a longer time per call is the machine's (a master
// descheduled in a script, cold caches), not more work
const usecOf = (name: string) => {
  const rows = results.filter((r) => r.name === name);
  const sum = new Map<string, number>();
  for (const r of rows) for (const [c, n] of r.usecPerMove) sum.set(c, (sum.get(c) ?? 0) + n / rows.length);
  return sum;
};
const usecTable = new Map(names.map((n) => [n, usecOf(n)]));
const usecTotal = (n: string) => [...(usecTable.get(n)?.values() ?? [])].reduce((s, x) => s + x, 0);
console.log(`  ${'µs in commands'.padEnd(22)} ${names.map((n) => cell(usecTotal(n))).join(' ')}`);
const perCall = (n: string, c: string) => (usecTable.get(n)?.get(c) ?? 0) / Math.max(table.get(n)?.get(c) ?? 0, 1e-9);
console.log(`  ${'µs per evalsha'.padEnd(22)} ${names.map((n) => cell(perCall(n, 'evalsha'))).join(' ')}`);

console.log(
  '\nper validated move over the unbounded e2e runs, by process group (mean of the rounds; /proc: CPU ms, read and write calls):',
);
const groupsOf = (name: string) => {
  const rows = results.filter((r) => r.name === name && r.unbounded.usage !== undefined);
  const sum = new Map<string, { cpuMs: number; reads: number; writes: number }>();
  for (const r of rows)
    for (const g of r.unbounded.usage?.groups ?? []) {
      const was = sum.get(g.group) ?? { cpuMs: 0, reads: 0, writes: 0 };
      sum.set(g.group, {
        cpuMs: was.cpuMs + g.cpuMs / rows.length,
        reads: was.reads + g.reads / rows.length,
        writes: was.writes + g.writes / rows.length,
      });
    }
  const busy = rows.map((r) => r.unbounded.usage?.machineBusy).filter((b): b is number => typeof b === 'number');
  const switches = rows
    .map((r) => r.unbounded.usage?.switchesPerMove)
    .filter((s): s is number => typeof s === 'number');
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
  return { sum, busy: mean(busy), switches: mean(switches) };
};
console.log(`  ${'group'.padEnd(20)} ${names.map((n) => `${n} cpu / reads / writes`.padStart(34)).join(' ')}`);
const usageTable = new Map(names.map((n) => [n, groupsOf(n)]));
const groupNames = [...new Set(names.flatMap((n) => [...(usageTable.get(n)?.sum.keys() ?? [])]))];
for (const g of groupNames)
  console.log(
    `  ${g.padEnd(20)} ${names
      .map((n) => {
        const u = usageTable.get(n)?.sum.get(g);
        return (
          u === undefined ? '' : `${u.cpuMs.toFixed(3)} / ${u.reads.toFixed(2)} / ${u.writes.toFixed(2)}`
        ).padStart(34);
      })
      .join(' ')}`,
  );
// the server's and Redis's socket calls together: on a machine whose kernel round trips are the
// cost, the ratio of these sums tracks the ratio of the throughputs
const isServerOrRedis = (g: string) => g.startsWith('server') || g === 'redis';
console.log(
  `  ${'server + redis calls'.padEnd(20)} ${names
    .map((n) => {
      const rows = [...(usageTable.get(n)?.sum ?? [])].filter(([g]) => isServerOrRedis(g));
      return (rows.length === 0 ? '' : rows.reduce((t, [, u]) => t + u.reads + u.writes, 0).toFixed(2)).padStart(34);
    })
    .join(' ')}`,
);
console.log(
  `  ${'machine busy'.padEnd(20)} ${names
    .map((n) => {
      const b = usageTable.get(n)?.busy;
      return (b === null || b === undefined ? '' : `${(b * 100).toFixed(0)} %`).padStart(34);
    })
    .join(' ')}`,
);
console.log(
  `  ${'context switches'.padEnd(20)} ${names
    .map((n) => {
      const s = usageTable.get(n)?.switches;
      return (s === null || s === undefined ? '' : s.toFixed(1)).padStart(34);
    })
    .join(' ')}`,
);
