/**
 * The integration harness: a fresh PostgreSQL database and fresh Redis prefixes per test
 * file, the gateway app (inject, or listening on an ephemeral port for WebSockets), and
 * a real worker in-process through @shogi/worker's startWorker. With REDIS_CLUSTER_NODES
 * (the integration-cluster project), all of it runs on that Redis Cluster.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type EngineSettings, type RunningEngineWorker, startEngineWorker } from '@shogi/engine-worker';
import {
  type AppExtras,
  buildApp,
  type CsaFrontEnd,
  type GatewayConfig,
  type HousePlayers,
  type LobbyLookers,
  loadConfig,
} from '@shogi/gateway';
import { validateQueueCount } from '@shogi/pipeline';
import {
  type ClientOptions,
  closeClient,
  clusterNodesOf,
  clusterNodesText,
  isCluster,
  mastersOf,
  queuePrefix,
  type RedisClient,
  redisClient,
  type SlotShare,
} from '@shogi/redis';
import { createAccount, createDb, type Db, insertToken, migrateToLatest } from '@shogi/store';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { ApiClient } from '../../apps/server/src/client.js';

export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/postgres';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** the Redis Cluster of the integration-cluster project; empty: the single Redis at REDIS_URL */
export const REDIS_CLUSTER_NODES = clusterNodesOf(process.env.REDIS_CLUSTER_NODES);
/** Where the tests' Redis is, for @shogi/redis and the apps' options. */
export const REDIS = { redisUrl: REDIS_URL, redisClusterNodes: REDIS_CLUSTER_NODES } as const;
export const ON_CLUSTER = REDIS_CLUSTER_NODES.length > 0;
/** The tests' Redis as a gateway's config or a worker's options name it, with the validate queues' default for it. */
export const REDIS_CONFIG = { ...REDIS, validateQueues: validateQueueCount(ON_CLUSTER) } as const;
/** The same for a process the tests start (`npm run …`, a gateway process). */
export const REDIS_ENV = {
  REDIS_URL,
  REDIS_CLUSTER_NODES: clusterNodesText(REDIS_CLUSTER_NODES),
  VALIDATE_QUEUES: String(REDIS_CONFIG.validateQueues),
} as const;

/** A connection of a test's own to the tests' Redis (a single server or the cluster). */
export const testRedis = (role: string, options: ClientOptions = {}): RedisClient =>
  redisClient(REDIS, `test-${role}`, options);

/**
 * How many connections listen on each channel: PUBSUB NUMSUB on a single server, SHARDNUMSUB
 * summed over the masters on a cluster (a sharded channel is counted by its slot's master).
 */
export async function channelListeners(redis: RedisClient, ...channels: string[]): Promise<number[]> {
  const counts = channels.map(() => 0);
  await redis.ping(); // a cluster client knows its masters once connected
  for (const node of mastersOf(redis)) {
    const reply = (await node.call('PUBSUB', isCluster(redis) ? 'SHARDNUMSUB' : 'NUMSUB', ...channels)) as unknown[];
    channels.forEach((_, i) => {
      counts[i] = (counts[i] ?? 0) + Number(reply[2 * i + 1]);
    });
  }
  return counts;
}

/** Each testQueue's own connection, which closeTestQueue closes (BullMQ leaves a connection it was given open). */
const testQueueConnections = new WeakMap<Queue, RedisClient>();

/**
 * A BullMQ queue of the tests' Redis under a stack's prefix, where the apps put it (its keys in
 * a hash tag on a cluster; `share`: one of several validate queues, in its part of the slots).
 */
export function testQueue<Data>(name: string, prefix: string, share?: SlotShare): Queue<Data> {
  const connection = testRedis(`queue-${name}`, { maxRetriesPerRequest: null });
  const queue = new Queue<Data>(name, { connection, prefix: queuePrefix(ON_CLUSTER, prefix, name, share) });
  testQueueConnections.set(queue, connection);
  return queue;
}

/** Closes a testQueue and its connection. */
export async function closeTestQueue(queue: Queue): Promise<void> {
  await queue.close();
  const connection = testQueueConnections.get(queue);
  if (connection !== undefined) await closeClient(connection);
}

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `shogi_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface Stack {
  readonly app: FastifyInstance;
  readonly config: GatewayConfig;
  readonly db: Db;
  /** the base URL when listening (WebSocket tests), else '' */
  readonly baseUrl: string;
  /** the CSA listener's port when listening with `config.csaListen`, else null */
  readonly csaPort: number | null;
  /** a token with the admin scope, as an operator mints one: it creates games directly */
  readonly adminToken: string;
  /** the API client, with the admin token for `createGame` */
  readonly api: ApiClient;
  /** a shared player with a token of this stack's own, as RunningGateway.housePlayer (the house bots) */
  readonly housePlayer: HousePlayers;
  /** who follows the seeks on a lobby socket, as RunningGateway.lobbyLookers (the seek-answering bot) */
  readonly lobbyLookers: LobbyLookers;
  close(): Promise<void>;
}

/** Each app's admin token, for `newGame`. */
const adminTokens = new WeakMap<FastifyInstance, string>();

/** An operator account with an admin-scoped token, as `npm run admin:token` makes one. */
export async function mintAdminToken(db: Db, scope: 'admin' | 'mod' = 'admin'): Promise<string> {
  const id = randomUUID();
  const username = `operator-${randomBytes(4).toString('hex')}`;
  await createAccount(db, { id, name: username, username, passwordHash: '!' });
  const token = randomBytes(32).toString('base64url');
  await insertToken(db, {
    id: randomUUID(),
    playerId: id,
    kind: 'personal',
    name: scope,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    scopes: [scope],
    expiresAt: null,
  });
  return token;
}

export interface StackOptions {
  readonly listen?: boolean;
  readonly worker?: boolean;
  readonly config?: Partial<GatewayConfig>;
  /** bot opponents, the web client's folder (tests/e2e) */
  readonly extras?: AppExtras;
}

export const silentLogger = () => pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** a limit that is off; `max` 0 */
export const NO_LIMIT = { max: 0, windowMs: 60_000 } as const;

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const database = await createTestDatabase();
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const defaults = loadConfig({});
  const config: GatewayConfig = {
    ...defaults,
    // the tests make many guests, bot games and lobby writes from 127.0.0.1, and many rated
    // games between the same two players; abuse-limits.test.ts and rating-farming.test.ts turn these on
    rateLimits: {
      ...defaults.rateLimits,
      guests: NO_LIMIT,
      botGames: NO_LIMIT,
      botGamesPerIp: NO_LIMIT,
      lobbyPerIp: NO_LIMIT,
    },
    ratedGamesPerPairPerDay: 0,
    host: '127.0.0.1',
    port: 0,
    databaseUrl: database.url,
    ...REDIS_CONFIG,
    queuePrefix: prefix,
    channelPrefix: `${prefix}:`,
    dbPoolSize: 8,
    closeGraceMs: 2000,
    // the CSA tests open it (on a free port); no other test listens on 4081
    csaListen: false,
    csaPort: 0,
    ...options.config,
  };
  const db = createDb(database.url, { max: 4 });
  await migrateToLatest(db);
  // minted before the gateway starts, as an operator's token is: the gateway reads it with
  // every other valid token into its filter (domain/valid-tokens.ts)
  const adminToken = await mintAdminToken(db);
  const logger = silentLogger();
  let csa: CsaFrontEnd | null = null;
  let housePlayers: HousePlayers | null = null;
  let lobbyLookers: LobbyLookers | null = null;
  const app = await buildApp(config, logger, {
    ...options.extras,
    bindLobbyLookers: (bound) => {
      lobbyLookers = bound;
    },
    bindCsa: (bound) => {
      csa = bound;
    },
    bindHousePlayers: (bound) => {
      housePlayers = bound;
    },
  });
  adminTokens.set(app, adminToken);
  let baseUrl = '';
  if (options.listen) baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const csaPort =
    options.listen && config.csaListen
      ? ((await (csa as CsaFrontEnd | null)?.listen('127.0.0.1', config.csaPort)) ?? null)
      : null;
  const worker = options.worker === false ? null : await startTestWorker(database.url, prefix);
  return {
    app,
    config,
    db,
    baseUrl,
    csaPort,
    adminToken,
    api: new ApiClient(baseUrl, { adminToken }),
    housePlayer: (id, name) => (housePlayers as HousePlayers)(id, name),
    lobbyLookers: (except) => (lobbyLookers as LobbyLookers)(except),
    async close() {
      await worker?.close();
      // as the gateway process does after its grace period (apps/gateway/src/server.ts): a
      // client still connected (a demo bot in mid-game reconnects) must not hold the close
      const grace = setTimeout(() => app.server.closeAllConnections(), 2_000);
      await app.close();
      clearTimeout(grace);
      await db.destroy();
      await database.drop();
    },
  };
}

/** The engine role on this stack's database, queues and channels, as `npm start` runs it; null when its engine does not start. */
export function startStackEngines(stack: Stack, settings: EngineSettings): Promise<RunningEngineWorker | null> {
  return startEngineWorker({
    ...REDIS,
    prefix: stack.config.queuePrefix,
    databaseUrl: stack.config.databaseUrl,
    channelPrefix: stack.config.channelPrefix,
    settings,
    logger: silentLogger(),
  });
}

/** A port free on 127.0.0.1 a moment ago, for a process or server a test starts itself: the benches' own. */
export { freePort } from '../../bench/e2e/server-process.js';

/** A listening stack with its CSA front end on a port of its own. */
export type CsaStack = Stack & { readonly csaPort: number };

export async function startCsaStack(config: Partial<GatewayConfig> = {}): Promise<CsaStack> {
  const stack = await startStack({ listen: true, config: { ...config, csaListen: true, csaPort: 0 } });
  const { csaPort } = stack;
  if (csaPort === null) throw new Error('the CSA front end did not listen');
  return { ...stack, csaPort };
}

/** An HTTP answer through app.inject(). */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await app.inject({
    method,
    url,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined
      ? {}
      : { payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.body === '' ? null : JSON.parse(res.body) };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface Players {
  sente: { id: string; name: string; token: string };
  gote: { id: string; name: string; token: string };
}

export async function newGame(app: FastifyInstance, extra: Record<string, unknown> = {}) {
  const sente = (await call(app, 'POST', '/api/players', { name: 'alice' })).body;
  const gote = (await call(app, 'POST', '/api/players', { name: 'bob' })).body;
  const admin = adminTokens.get(app);
  if (admin === undefined) throw new Error('newGame: the app was not started by startStack');
  const created = await call(app, 'POST', '/api/games', { sente: sente.id, gote: gote.id, ...extra }, bearer(admin));
  if (created.status !== 201) throw new Error(`create game: ${created.status} ${JSON.stringify(created.body)}`);
  return { game: created.body, players: { sente, gote } as Players };
}

/** Polls the game's events until one matches (the verdict of a submission, the end...). */
export async function waitForEvent(
  app: FastifyInstance,
  gameId: string,
  match: (e: { seq: number; type: string; payload: any }) => boolean,
  timeoutMs = 10_000,
): Promise<{ seq: number; type: string; payload: any }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await call(app, 'GET', `/api/games/${gameId}/events?after=0`);
    const found = (body.events as { seq: number; type: string; payload: any }[]).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for an event in game ${gameId}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Submits a move over HTTP and waits for its verdict. */
export async function playMove(app: FastifyInstance, gameId: string, token: string, usi: string, ply: number) {
  const res = await call(app, 'POST', `/api/games/${gameId}/moves`, { usi, ply }, bearer(token));
  if (res.status !== 202) throw new Error(`move ${usi} at ply ${ply}: ${res.status} ${JSON.stringify(res.body)}`);
  const verdict = await waitForEvent(
    app,
    gameId,
    (e) => (e.type === 'MoveAccepted' || e.type === 'MoveRejected') && e.payload.submittedSeq === res.body.seq,
  );
  return { seq: res.body.seq as number, verdict };
}

/** A real worker in this process (the store helper's startWorker). */
export async function startTestWorker(databaseUrl: string, prefix: string): Promise<{ close(): Promise<void> }> {
  const { startWorker } = await import('@shogi/worker');
  return startWorker({
    databaseUrl,
    ...REDIS,
    logger: silentLogger(),
    concurrency: 4,
    prefix,
    channelPrefix: `${prefix}:`,
  });
}
