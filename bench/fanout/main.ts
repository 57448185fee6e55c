/**
 * Fan-out bench: K spectators on one gateway process, G games at R moves/s, measured side
 * by side with a bare `ws` broadcast server (one Redis pattern subscriber, no ordering or
 * bounds) in the same run, as the ceiling. The bench plays the worker: it publishes each
 * move ([MoveSubmitted, MoveAccepted], one message, as the worker publishes its verdict
 * right after the commit) on the game's Redis channel with its publish time, and K `ws`
 * clients in this process measure publish→receive. Every run starts a fresh server process.
 *
 *   npx tsx --conditions=@shogi/source bench/fanout/main.ts
 *   npx tsx --conditions=@shogi/source bench/fanout/main.ts --spectators 1000,5000,10000 --games 1000 --seconds 10
 *
 * Options: --spectators K,K,.. (1000,5000,10000) --games G (1000; fewer when K < G) --rate moves/s per game (1)
 *          --seconds S (10) --warmup S (2) --sat-games G (20) --sat-seconds S (4) --no-saturation
 *          --servers bare-ws,gateway --gateways N (1: processes of each server, the spectators of every game spread over them)
 *          --database URL (admin, postgres://postgres@localhost:5432/postgres) --redis URL
 * Phases: "target" (G games at R moves/s each: K×R deliveries/s offered), then "saturation": K sockets
 * on --sat-games games, the rate raised step by step until the server falls behind twice; the peak delivered/s.
 * The bench process (publisher and all clients) shares the cores: at the highest delivery rates it is the limit
 * itself (bench/fanout/README.md).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gameChannel, validateQueueCount } from '@shogi/pipeline';
import { closeClient, clusterNodesOf, publish, redisClient } from '@shogi/redis';
import { createDb, migrateToLatest } from '@shogi/store';
import pg from 'pg';
import { ApiClient } from '../../apps/server/src/client.js';
import { connectSpectators } from './clients.js';
import { cpuSeconds, type RunningServer, rssMiB, type ServerKind, startServer } from './servers.js';

const { values: args } = parseArgs({
  options: {
    spectators: { type: 'string', default: '1000,5000,10000' },
    games: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    'sat-games': { type: 'string', default: '20' },
    'sat-seconds': { type: 'string', default: '4' },
    'no-saturation': { type: 'boolean', default: false },
    servers: { type: 'string', default: 'bare-ws,gateway' },
    gateways: { type: 'string', default: '1' },
    database: { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/postgres' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    // a Redis Cluster's nodes instead (host:port,...): the gateway on sharded channels
    'redis-cluster': { type: 'string', default: process.env.REDIS_CLUSTER_NODES ?? '' },
  },
});
const KS = args.spectators.split(',').map(Number);
const GAMES = Number(args.games);
const RATE_PER_GAME = Number(args.rate);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const SAT_GAMES = Number(args['sat-games']);
const SAT_SECONDS = Number(args['sat-seconds']);
const SERVERS = args.servers.split(',') as ServerKind[];
const PROCESSES = Number(args.gateways);
if (!Number.isInteger(PROCESSES) || PROCESSES < 1) throw new Error('--gateways: a whole number, at least 1');
const CLUSTER_NODES = clusterNodesOf(args['redis-cluster'], '--redis-cluster');
// the gateways' validate queues (their default), which games' channels follow
const SHARES = validateQueueCount(CLUSTER_NODES.length > 0);
if (CLUSTER_NODES.length > 0 && SERVERS.includes('bare-ws'))
  throw new Error(
    '--redis-cluster: the bare-ws server needs one Redis (a pattern subscription); use --servers gateway',
  );
const SAT_TARGETS = [10_000, 20_000, 40_000, 60_000, 80_000, 100_000, 130_000, 160_000];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Measure {
  offered: number;
  delivered: number;
  p50: number;
  p99: number;
  serverCpu: number;
  benchCpu: number;
  rss: number;
  closes: string;
}

// --- setup: a bench database with games created through a gateway
const suffix = randomBytes(4).toString('hex');
const dbName = `shogi_bench_fanout_${suffix}`;
const admin = new pg.Client({ connectionString: args.database });
await admin.connect();
await admin.query(`create database ${dbName}`);
const dbUrl = new URL(args.database);
dbUrl.pathname = `/${dbName}`;
const databaseUrl = dbUrl.toString();
const db = createDb(databaseUrl, { max: 2 });
await migrateToLatest(db);
await db.destroy();
const env = {
  databaseUrl,
  redisUrl: args.redis,
  redisClusterNodes: args['redis-cluster'],
  channelPrefix: `fanout${suffix}:`,
};
const gameIds = await createGames(Math.max(GAMES, SAT_GAMES));
const publisher = redisClient({ redisUrl: args.redis, redisClusterNodes: CLUSTER_NODES }, 'bench-fanout-publisher', {
  enableAutoPipelining: true,
});

async function createGames(count: number): Promise<string[]> {
  const server = await startServer('gateway', env);
  const base = `http://127.0.0.1:${server.port}`;
  const api = new ApiClient(base);
  // a pair of players per game started at once: a player has few challenges pending at a time
  const pairs = await Promise.all(
    Array.from(
      { length: 50 },
      async (_, n) => [await api.createPlayer(`s${n}`), await api.createPlayer(`g${n}`)] as const,
    ),
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i += pairs.length) {
    const batch = pairs.slice(0, Math.min(pairs.length, count - i)).map(([a, b]) => api.startGame(a, b));
    for (const g of await Promise.all(batch)) ids.push(g.id);
  }
  await server.stop();
  return ids;
}

const SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';

/**
 * Publishes moves round-robin over `games` at `rate` moves/s until stopped. `seqs` (the
 * next seq of each game) lives as long as the server: the gateway drops repeated seqs.
 */
function startPublishing(games: readonly string[], rate: number, seqs: Map<string, number>) {
  const started = performance.now();
  let sent = 0;
  let next = 0;
  const tick = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * rate) - sent;
    for (let i = 0; i < Math.min(due, Math.max(1, rate / 20)); i++) {
      const id = games[next++ % games.length] as string;
      const seq = seqs.get(id) ?? 2;
      seqs.set(id, seq + 2);
      const ply = seq / 2;
      const at = new Date().toISOString();
      const message =
        `[{"gameId":"${id}","seq":${seq},"type":"MoveSubmitted","data":{"playerId":"p","color":"sente","usi":"7g7f","ply":${ply - 1},"receivedAt":"${at}"},"recordedAt":"${at}"},` +
        `{"gameId":"${id}","seq":${seq + 1},"type":"MoveAccepted","data":{"submittedSeq":${seq},"ply":${ply},"usi":"7g7f","sfen":"${SFEN}","check":false,"t":${performance.now()}},"recordedAt":"${at}"}]`;
      void publish(publisher, gameChannel(id, env.channelPrefix, SHARES), message);
      sent++;
    }
  }, 5);
  return {
    get sent() {
      return sent;
    },
    stop: () => clearInterval(tick),
  };
}

/** One step: `rate` moves/s over `games` with K spectators connected; measured for `seconds`. */
async function measure(
  servers: readonly RunningServer[],
  spectators: Awaited<ReturnType<typeof connectSpectators>>,
  games: readonly string[],
  perGame: number,
  rate: number,
  seconds: number,
  warmup: number,
  seqs: Map<string, number>,
): Promise<Measure> {
  const pub = startPublishing(games, rate, seqs);
  await sleep(warmup * 1000);
  spectators.histogram.reset();
  spectators.received = 0;
  const sent0 = pub.sent;
  const cpu = () => servers.reduce((sum, server) => sum + cpuSeconds(server.pid), 0);
  const cpu0 = cpu();
  const bench0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const received = spectators.received;
  const sent = pub.sent - sent0;
  const serverCpu = (cpu() - cpu0) / elapsed;
  const b = process.cpuUsage(bench0);
  pub.stop();
  const result: Measure = {
    offered: (sent * perGame) / elapsed,
    delivered: received / elapsed,
    p50: spectators.histogram.percentile(0.5),
    p99: spectators.histogram.percentile(0.99),
    serverCpu,
    benchCpu: (b.user + b.system) / 1e6 / elapsed,
    rss: servers.reduce((sum, server) => sum + rssMiB(server.pid), 0),
    closes: [...spectators.closes].map(([code, n]) => `${n}×${code}`).join(' ') || '-',
  };
  await sleep(1500); // drain before the next step
  return result;
}

async function run(kind: ServerKind, k: number, games: readonly string[], rates: number[]): Promise<Measure[]> {
  // one after another: each gateway migrates the database as it starts
  const servers: RunningServer[] = [];
  for (let i = 0; i < PROCESSES; i++) servers.push(await startServer(kind, env));
  const out: Measure[] = [];
  try {
    // spectator i watches game i mod G on process ⌊i / G⌋ mod N: every game's spectators on every process
    const spectators = await connectSpectators(
      (game, i) =>
        (servers[Math.floor(i / games.length) % servers.length] as RunningServer).watchUrl(games[game] as string),
      k,
      games.length,
    );
    await sleep(1000);
    const perGame = k / games.length;
    const seqs = new Map<string, number>();
    let misses = 0;
    for (const [i, rate] of rates.entries()) {
      const m = await measure(
        servers,
        spectators,
        games,
        perGame,
        rate,
        rates.length > 1 ? SAT_SECONDS : SECONDS,
        i === 0 ? WARMUP : 1,
        seqs,
      );
      out.push(m);
      if (rates.length > 1) {
        process.stderr.write(
          `  ${kind} K=${k}: ${fmt(m.offered)} offered, ${fmt(m.delivered)} delivered/s, p99 ${m.p99.toFixed(1)} ms, closes ${m.closes}\n`,
        );
        // one bad step on a shared machine is noise; two in a row (or a drowning backlog) is the limit
        misses = m.delivered < 0.9 * m.offered ? misses + 1 : 0;
        if (misses >= 2 || m.p99 > 3000) break;
      }
    }
    await spectators.close();
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  return out;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const row = (name: string, m: Measure) =>
  `  ${name.padEnd(9)} ${fmt(m.offered).padStart(9)} ${fmt(m.delivered).padStart(12)} ${m.p50.toFixed(1).padStart(8)} ${m.p99.toFixed(1).padStart(8)} ${(m.serverCpu * 100).toFixed(0).padStart(10)} % ${m.rss.toFixed(0).padStart(8)} ${(m.benchCpu * 100).toFixed(0).padStart(9)} %   ${m.closes}`;
const header = `  ${'server'.padEnd(9)} ${'offered/s'.padStart(9)} ${'delivered/s'.padStart(12)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'server CPU'.padStart(12)} ${'RSS MiB'.padStart(8)} ${'bench CPU'.padStart(11)}   closes`;

try {
  console.log(
    `fan-out bench: ${SERVERS.join(' vs ')}${PROCESSES > 1 ? ` (${PROCESSES} processes each; CPU and RSS their sum)` : ''}, publish→receive latency, on ${CLUSTER_NODES.length > 0 ? `the Redis Cluster at ${args['redis-cluster']}` : args.redis}, ${new Date().toISOString()}`,
  );
  for (const k of KS) {
    const g = Math.min(GAMES, k);
    const games = gameIds.slice(0, g);
    console.log(
      `\nK=${fmt(k)} spectators, ${fmt(g)} games at ${RATE_PER_GAME} move/s each (${fmt(g * RATE_PER_GAME)} moves/s, ${fmt(k * RATE_PER_GAME)} deliveries/s offered), ${SECONDS} s`,
    );
    console.log(header);
    for (const kind of SERVERS) {
      const [m] = await run(kind, k, games, [g * RATE_PER_GAME]);
      if (m) console.log(row(kind, m));
    }
    if (args['no-saturation']) continue;
    const satGames = gameIds.slice(0, Math.min(SAT_GAMES, k));
    const perGame = k / satGames.length;
    console.log(
      `saturation: K=${fmt(k)} on ${satGames.length} games (${perGame} per game), rate raised until delivered < 90 % of offered twice or p99 > 3 s; * = the step with the most delivered/s`,
    );
    console.log(header);
    const peaks = new Map<ServerKind, Measure>();
    for (const kind of SERVERS) {
      const steps = await run(
        kind,
        k,
        satGames,
        SAT_TARGETS.map((t) => Math.max(1, Math.round(t / perGame))),
      );
      const peak = steps.reduce<Measure | null>(
        (best, m) => (best === null || m.delivered > best.delivered ? m : best),
        null,
      );
      if (peak) {
        peaks.set(kind, peak);
        console.log(row(`${kind}*`, peak));
      }
    }
    const bare = peaks.get('bare-ws');
    const gw = peaks.get('gateway');
    if (bare && gw)
      console.log(`  gateway peak = ${((gw.delivered / bare.delivered) * 100).toFixed(0)} % of the bare ws ceiling`);
  }
} finally {
  await closeClient(publisher);
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
