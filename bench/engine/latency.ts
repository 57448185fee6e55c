/**
 * The engine role under load, against a fresh server of its own (bench/e2e/fresh-server.ts:
 * scratch database and Redis prefix, the built launcher with its default role, all, so the
 * engine role runs in it with its shipped settings). Parts, each printed beside references
 * measured in the same run:
 *
 * - `bot`: house-bot reply latency. For each concurrency, that many people (bot-games.ts)
 *   play the house bot of one level, each answering at once with a random legal move; for
 *   each of their moves, the time from its accepted verdict on their socket to the bot's
 *   MoveAccepted on it. References: the level's fixed budget, the bot's pause before a move,
 *   and the bare engine's time for the same search (bare-engine.ts).
 * - `validation`: bench/e2e's human-vs-human games at a modest rate, submit → verdict, once
 *   with no bot game and once while the largest concurrency of bot games runs.
 * - `analysis`: finished games analysed at once by the engine role at its analysis depth, in
 *   positions per second; reference: the same positions searched by one bare engine here
 *   (analysis-throughput.ts).
 *
 *   npm run bench:engine:latency
 *   npm run bench:engine:latency -- --part bot --level 4 --concurrency 1,10 --seconds 20
 *   npm run bench:engine:latency -- --env ENGINE_WORKERS=2
 *
 * Options: --part (bot,validation,analysis) --analysis-games G (4) --analysis-plies P (40) --level L (1) --concurrency (1,10,50) --seconds S (30, each
 * concurrency's measured window) --warmup S (5) --validation-games G (50) --validation-rate R
 * (200 moves/s) --validation-seconds S (20) --validation-warmup S (5) --positions N (24, for
 * the bare engine) --server-dir DIR (.) --port N --env NAME=VALUE (repeatable, for the
 * server) --seed N (1). Needs `npm run build` first; DATABASE_URL and REDIS_URL as for the tests.
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { isLevel, LEVELS, type Level, levelOptions } from '@shogi/engine-bots';
import { engineSettingsFromEnv } from '@shogi/engine-worker';
import { ApiClient } from '../../apps/server/src/client.js';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { DEFAULT_MOVE_DELAY_MS, houseBotId } from '../../apps/server/src/house/house-bots.js';
import { envPairs, type FreshServer, startFreshServer } from '../e2e/fresh-server.js';
import { runAnalysisLoad } from './analysis-throughput.js';
import { bareEngineTimes } from './bare-engine.js';
import { BotGames } from './bot-games.js';
import { drained, engineJobs } from './engine-jobs.js';
import { ms, spread, spreadText, table, tally } from './figures.js';
import { runValidationLoad, type ValidationFigures } from './validation-load.js';

const PARTS = ['bot', 'validation', 'analysis'] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: PARTS.join(',') },
    level: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '1,10,50' },
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    'validation-games': { type: 'string', default: '50' },
    'validation-rate': { type: 'string', default: '200' },
    'validation-seconds': { type: 'string', default: '20' },
    'validation-warmup': { type: 'string', default: '5' },
    positions: { type: 'string', default: '24' },
    'analysis-games': { type: 'string', default: '4' },
    'analysis-plies': { type: 'string', default: '40' },
    'server-dir': { type: 'string', default: '.' },
    port: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    seed: { type: 'string', default: '1' },
  },
});
const parts = values.part.split(',') as Part[];
for (const p of parts) if (!PARTS.includes(p)) throw new Error(`--part: one or more of ${PARTS.join(',')}, not ${p}`);
const level = Number(values.level);
if (!isLevel(level)) throw new Error('--level: 1-8');
const concurrencies = values.concurrency.split(',').map(Number);
if (!concurrencies.every((n) => Number.isInteger(n) && n > 0)) throw new Error('--concurrency: whole numbers above 0');
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const validationLoad = {
  games: Number(values['validation-games']),
  rate: Number(values['validation-rate']),
  seconds: Number(values['validation-seconds']),
  warmup: Number(values['validation-warmup']),
};
const underLoad = Math.max(...concurrencies);
const serverEnv = {
  // the bench's people all start bot games from this address, one after another
  RATE_LIMIT_BOT_GAMES_MAX: '0',
  RATE_LIMIT_BOT_GAMES_IP_MAX: '0',
  ...envPairs(values.env),
};
// the server's engine settings, as its launcher reads them on this machine
const engine = engineSettingsFromEnv({ ...process.env, ...serverEnv });
const random = seeded(Number(values.seed));
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

let problemsShown = 0;
const onProblem = (message: string) => {
  if (problemsShown++ < 20) console.log(`  ! ${message}`);
};

/**
 * `games` bot games played, warmed up, measured while `during` runs, then stopped and the
 * engine's queue drained, so that the next phase starts with no engine work left over.
 */
async function withBotGames<T>(server: FreshServer, games: number, during: () => Promise<T>) {
  const load = new BotGames({
    api: new ApiClient(server.url),
    botId: houseBotId(level as Level),
    games,
    random,
    stallMs: 60_000,
    onProblem,
  });
  await load.start();
  await sleep(WARMUP);
  const [from, fromEpoch] = [performance.now(), Date.now()];
  const result = await during();
  const [to, toEpoch] = [performance.now(), Date.now()];
  const jobs = await engineJobs(server.redisUrl, server.prefix, fromEpoch, toEpoch);
  await load.stop();
  if (!(await drained(server.redisUrl, server.prefix, 60_000)))
    console.log('  ! engine move jobs still queued after 60 s');
  const replies = load.between(from, to);
  return { result, replies, seconds: (to - from) / 1000, jobs, load };
}

async function botPart(server: FreshServer): Promise<void> {
  const spec = LEVELS[level as Level];
  console.log(`\nreferences (this run):`);
  console.log(
    `  fixed budget: level ${level}, go depth ${spec.depth} movetime ${spec.movetimeMs} (Skill Level ${levelOptions(level as Level, { hash: 1, threads: 1 })['Skill Level']})`,
  );
  console.log(`  the house bot's pause before each move: ${DEFAULT_MOVE_DELAY_MS} ms`);
  const bare = await bareEngineTimes({
    path: engine.path,
    hashMb: engine.hashMb,
    level: level as Level,
    positions: Number(values.positions),
  });
  console.log(
    `  bare engine (${bare.engineName}, one UsiEngine here, ${engine.hashMb} MB hash, options set + search, ${bare.times.length} positions): ${spreadText(spread([...bare.times]))}`,
  );
  console.log(
    `  floor of a reply: pause + bare engine p50 = ${ms(DEFAULT_MOVE_DELAY_MS + spread([...bare.times]).p50)} ms`,
  );
  console.log(
    `\nbot reply: the person's move accepted (its verdict on the person's socket) → the bot's move accepted (its MoveAccepted on that socket), ${SECONDS} s after ${WARMUP} s warmup each:`,
  );
  const rows = [
    [
      'games',
      'replies',
      'replies/s',
      'p50',
      'p99',
      'max ms',
      'from send p50',
      'p99',
      'queued p50',
      'p99',
      'run p50',
      'p99',
    ],
  ];
  for (const games of concurrencies) {
    const { replies, seconds, jobs, load } = await withBotGames(server, games, () => sleep(SECONDS));
    const after = spread(replies.map((r) => r.afterVerdictMs));
    const send = spread(replies.map((r) => r.afterSendMs));
    const [wait, run] = [spread(jobs.waitMs), spread(jobs.runMs)];
    rows.push([
      String(games),
      String(replies.length),
      (replies.length / seconds).toFixed(1),
      ...[after.p50, after.p99, after.max, send.p50, send.p99, wait.p50, wait.p99, run.p50, run.p99].map(ms),
    ]);
    console.log(
      `  ${games} games: ${load.gamesStarted} started; endings ${tally(load.endings)}; engine answers ${tally(jobs.answers)}, failed jobs ${jobs.failed}`,
    );
  }
  for (const line of table(rows)) console.log(line);
  console.log("  (queued, run: the engine role's move jobs finished in the window, from BullMQ's stamps)");
}

async function validationPart(server: FreshServer): Promise<void> {
  const { games, rate, seconds, warmup } = validationLoad;
  console.log(
    `\nvalidation: bench/e2e, ${games} human games at ${rate} moves/s, ${seconds} s after ${warmup} s warmup, submit → verdict at the mover`,
  );
  console.log('  without engine load:');
  const alone = await runValidationLoad(server, validationLoad);
  console.log(`  with ${underLoad} bot games at level ${level}:`);
  const loaded = await withBotGames(server, underLoad, () => runValidationLoad(server, validationLoad));
  const row = (name: string, f: ValidationFigures) => [
    name,
    f.movesPerSecond.toFixed(0),
    ms(f.p50),
    ms(f.p90),
    ms(f.p99),
    ms(f.max ?? Number.NaN),
    String(f.rejected + f.errors),
  ];
  console.log('\nvalidation p99, side by side:');
  for (const line of table([
    ['', 'moves/s', 'p50', 'p90', 'p99', 'max ms', 'rejected+errors'],
    row('without engine load', alone),
    row(`with ${underLoad} bot games`, loaded.result),
  ]))
    console.log(line);
  const bot = spread(loaded.replies.map((r) => r.afterVerdictMs));
  console.log(
    `  bot replies meanwhile: ${bot.n} (${(bot.n / loaded.seconds).toFixed(1)}/s), ${spreadText(bot)}; engine job queued ${spreadText(spread(loaded.jobs.waitMs))}`,
  );
}

async function analysisPart(server: FreshServer): Promise<void> {
  const load = {
    games: Number(values['analysis-games']),
    plies: Number(values['analysis-plies']),
    depth: engine.analysisDepth,
    enginePath: engine.path,
    hashMb: engine.hashMb,
  };
  console.log(
    `\nanalysis: ${load.games} finished games of ${load.plies} moves analysed at once, depth ${load.depth} (ANALYSIS_DEPTH), requests → last done:`,
  );
  const f = await runAnalysisLoad(server.url, load);
  const served = f.positions / f.seconds;
  const bare = f.bare.positions / f.bare.seconds;
  for (const line of table([
    ['', 'positions', 'seconds', 'positions/s', 'per engine'],
    [
      `server (${engine.workers} engine${engine.workers === 1 ? '' : 's'})`,
      String(f.positions),
      f.seconds.toFixed(1),
      served.toFixed(1),
      (served / engine.workers).toFixed(1),
    ],
    [
      `bare engine (${f.bare.engineName})`,
      String(f.bare.positions),
      f.bare.seconds.toFixed(1),
      bare.toFixed(1),
      bare.toFixed(1),
    ],
  ]))
    console.log(line);
  console.log(
    `  server per engine / bare: ${(served / engine.workers / bare).toFixed(2)}${f.failed > 0 ? `; ${f.failed} analyses failed` : ''}`,
  );
}

const RUNS: Record<Part, (server: FreshServer) => Promise<void>> = {
  bot: botPart,
  validation: validationPart,
  analysis: analysisPart,
};

async function main(): Promise<number> {
  console.log(
    `engine latency bench: parts ${parts.join(', ')}; ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; server engine role: ENGINE_WORKERS ${engine.workers}, ${engine.hashMb} MB hash, ${engine.path}`,
  );
  console.log(
    `server settings beside the shipped ones: ${Object.entries(serverEnv)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} (and the bench clients' limits off, as bench:e2e:fresh)`,
  );
  const server = await startFreshServer({
    serverDir: values['server-dir'],
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
    env: serverEnv,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  // Ctrl-C reaches the server too (one process group): what it made is still dropped
  process.once('SIGINT', () => {
    const exit = () => process.exit(130);
    server.stop().then(exit, exit);
  });
  try {
    for (const part of PARTS) if (parts.includes(part)) await RUNS[part](server);
    return 0;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
