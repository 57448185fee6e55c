/**
 * `npm start`: checks PostgreSQL and Redis, runs the migrations, then starts the gateway, a
 * worker and the engine role in this process (or one of them: --role gateway|worker|engine),
 * and the demo bots unless --no-demo / DEMO=0. SIGTERM and SIGINT close everything with grace.
 */

import { availableParallelism } from 'node:os';
import { type RunningEngineWorker, startEngineWorker } from '@shogi/engine-worker';
import {
  BotRegistry,
  createLogger,
  type HousePlayer,
  LocalDelivery,
  type RunningGateway,
  startGateway,
} from '@shogi/gateway';
import { collectProcessMetrics, type MetricsServer, startMetricsServer } from '@shogi/metrics';
import { closeClient, type RedisClient, redisClient } from '@shogi/redis';
import type { WorkerOptions } from '@shogi/worker';
import type { Logger } from 'pino';
import { v5 as uuidV5 } from 'uuid';
import { runDemo } from './demo/demo.js';
import { startBotOpponent } from './demo/opponent.js';
import { EngineClient } from './house/engine-client.js';
import { redisGameClaims } from './house/game-claims.js';
import { type HouseBots, startHouseBots } from './house/house-bots.js';
import { type LaunchOptions, parseLaunchOptions, USAGE } from './options.js';
import { HOW_TO_START, preflight } from './preflight.js';
import { migrate, type RunningWorker, startValidationWorker } from './services.js';
import { planProcesses } from './supervisor/plan.js';
import { supervise } from './supervisor/supervise.js';

/** The demo bot's player, the same on every gateway and at every start (a name-based UUID). */
const DEMO_BOT_PLAYER_ID = uuidV5('demo-bot', '5b0f3c57-2a55-4a63-9d4e-7f1c1d8f6a20');

/** How long a dead process's house bot games wait before another process takes them up. */
const HOUSE_CLAIM_TTL_MS = 30_000;

async function main(): Promise<number> {
  const options = parseLaunchOptions();
  if ('error' in options) {
    if (options.error !== '') console.error(options.error);
    console.error(USAGE);
    return options.error === '' ? 0 : 2;
  }
  const { gateway: config, role } = options;
  const logger = createLogger({ level: config.logLevel, name: 'shogi' });
  if (options.supervise) return runSupervisor(options, logger);

  const problems = await preflight(config.databaseUrl, config, { postgres: true, redis: true });
  if (problems.length > 0) {
    for (const p of problems) console.error(`Cannot reach ${p.service} at ${p.url}: ${p.error}`);
    console.error(HOW_TO_START);
    return 1;
  }

  // under the supervisor, which migrated before it started the processes
  if (!options.supervised) await migrate(config.databaseUrl, logger);
  const metricsServer = await serveMetrics(options.metrics, role, logger);
  let gateway: RunningGateway | null = null;
  const localDelivery = new LocalDelivery();
  let worker: RunningWorker | null = null;
  let engines: RunningEngineWorker | null = null;
  let engineClient: EngineClient | null = null;
  let houseBots: HouseBots | null = null;
  let claimsRedis: RedisClient | null = null;
  let demoBotPlayer: HousePlayer | null = null;
  const bots = new BotRegistry();
  if (role === 'all' || role === 'engine') {
    engines = await startEngineWorker({
      redisUrl: config.redisUrl,
      redisClusterNodes: config.redisClusterNodes,
      prefix: config.queuePrefix,
      databaseUrl: config.databaseUrl,
      channelPrefix: config.channelPrefix,
      settings: options.engine,
      logger: logger.child({ role: 'engine' }),
    });
  }
  if (role === 'all' || role === 'worker') {
    // with the gateway in this process too, verdicts reach its sockets without a Redis round trip
    const deliver: WorkerOptions['onPublish'] =
      role === 'worker' ? undefined : (gameId, events, message) => localDelivery.deliver(gameId, events, message);
    worker = await startValidationWorker(config, options.workerConcurrency, logger.child({ role: 'worker' }), deliver);
    logger.info(`Worker started: validating moves with concurrency ${options.workerConcurrency}`);
  }
  if (role === 'all' || role === 'gateway') {
    gateway = await startGateway(config, logger.child({ role: 'gateway' }), {
      bots,
      localDelivery,
      // submissions and verdicts in the same batched statements
      ...(worker === null ? {} : { events: worker.events }),
    });
    logger.info(`Gateway listening on ${options.publicUrl} (web client: ${options.publicUrl}/, API docs: /docs)`);
    if (gateway.csaPort !== null) logger.info(`CSA protocol on port ${gateway.csaPort} (engines: docs/csa.md)`);
    // a person who opens the web client can play at once, against this bot; one player on
    // every gateway (a fixed id), so the bot listed by one is the bot another starts a game with
    const started = gateway;
    await startBotOpponent({
      baseUrl: gateway.url,
      registry: bots,
      logger: logger.child({ role: 'bot' }),
      createPlayer: async (name) => {
        const player = await started.housePlayer(DEMO_BOT_PLAYER_ID, name);
        demoBotPlayer = player;
        return { id: player.id, name: player.name, token: player.token };
      },
    });
    // the house bots ask whichever engine role runs, here or in a process of its own
    engineClient = await EngineClient.start({
      redisUrl: config.redisUrl,
      redisClusterNodes: config.redisClusterNodes,
      prefix: config.queuePrefix,
      logger: logger.child({ role: 'bot' }),
    });
    // one process plays each house bot game; a game whose process stopped or died is taken up
    claimsRedis = redisClient(config, 'house-claims', { maxRetriesPerRequest: 3 });
    claimsRedis.on('error', (err: Error) => logger.warn({ err: err.message }, 'house bots: Redis connection error'));
    houseBots = await startHouseBots({
      baseUrl: gateway.url,
      registry: bots,
      logger: logger.child({ role: 'bot' }),
      engine: engineClient,
      housePlayer: gateway.housePlayer,
      claims: redisGameClaims(claimsRedis, config.channelPrefix, HOUSE_CLAIM_TTL_MS),
    });
  }

  const demo = new AbortController();
  if (options.demo && gateway) {
    runDemo({
      baseUrl: gateway.url,
      publicUrl: options.publicUrl,
      logger,
      signal: demo.signal,
      createPlayer: gateway.createPlayer,
      engine: engineClient,
      registry: bots,
      seekWaitMs: options.seekWaitMs,
      lobbyLookers: gateway.lobbyLookers,
    }).catch((err: unknown) => {
      if (!demo.signal.aborted) logger.error({ err }, 'Demo: stopped after an error');
    });
  }

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info(`Shutting down (${signal}): finishing requests and jobs in flight`);
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  demo.abort();
  // the engines get the signal too when it comes from a terminal (one process group): the
  // engine role stops taking work at once, and its pool replaces no engine on the way out
  const enginesClosed = engines?.close();
  // awaited after the other roles close: until then a failure must not count as unhandled
  enginesClosed?.catch(() => {});
  const force = setTimeout(() => {
    logger.error('Shutdown took too long; exiting');
    process.exit(1);
  }, config.closeGraceMs + 5000);
  force.unref();
  // the bots' tokens of this process end with it; their players stay for the next start
  await houseBots?.release().catch((err: unknown) => logger.warn({ err }, 'house bots: tokens not revoked'));
  await (demoBotPlayer as HousePlayer | null)
    ?.release()
    .catch((err: unknown) => logger.warn({ err }, 'demo bot: token not revoked'));
  await gateway?.close();
  await worker?.close();
  await engineClient?.close();
  if (claimsRedis !== null) await closeClient(claimsRedis);
  await enginesClosed;
  await metricsServer?.close();
  logger.info('Stopped.');
  return 0;
}

/**
 * `npm start`: checks and migrates once, then runs the planned processes under a supervisor
 * (supervisor/) until a signal stops them all. Its own /metrics (the restarts) is on
 * METRICS_PORT, its processes' on the ports after it.
 */
async function runSupervisor(options: LaunchOptions, logger: Logger): Promise<number> {
  const config = options.gateway;
  const problems = await preflight(config.databaseUrl, config, { postgres: true, redis: true });
  if (problems.length > 0) {
    for (const p of problems) console.error(`Cannot reach ${p.service} at ${p.url}: ${p.error}`);
    console.error(HOW_TO_START);
    return 1;
  }
  await migrate(config.databaseUrl, logger);
  const metricsServer = await serveMetrics(options.metrics, 'supervisor', logger);
  const slots = planProcesses({
    cores: availableParallelism(),
    ...options.processes,
    demo: options.demo,
    metricsPort: options.metrics === null ? null : options.metrics.port,
  });
  logger.info(`Gateways on ${options.publicUrl} (web client: ${options.publicUrl}/, API docs: /docs)`);
  const code = await supervise(slots, { logger, stopGraceMs: config.closeGraceMs + 10_000 });
  await metricsServer?.close();
  return code;
}

/**
 * /metrics on its own port. A port already taken is logged, not fatal: the server's players
 * come before its figures, and the operator reads why the scrape fails.
 */
async function serveMetrics(
  where: LaunchOptions['metrics'],
  role: string,
  logger: Logger,
): Promise<MetricsServer | null> {
  if (where === null) return null;
  collectProcessMetrics(role);
  try {
    const server = await startMetricsServer(where.host, where.port);
    logger.info(`Metrics for Prometheus on http://${where.host}:${server.port}/metrics`);
    return server;
  } catch (err) {
    logger.error(
      { err: (err as Error).message },
      `Metrics not served: cannot listen on ${where.host}:${where.port} (set METRICS_PORT to a free port, or 0)`,
    );
    return null;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
