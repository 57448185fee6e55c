/**
 * Before anything starts: PostgreSQL and Redis must answer. When they do not, say
 * exactly how to start them, instead of a stack trace.
 */
import { describeTarget, mastersOf, onCluster, type RedisTarget, redisClient } from '@shogi/redis';
import pg from 'pg';

export const HOW_TO_START = [
  'Start them on this machine with:',
  '  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  '  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
  'A Redis Cluster (REDIS_CLUSTER_NODES) on this machine: infra/start-redis-cluster.sh',
  'or with Docker:',
  '  docker compose up -d postgres redis',
  'and point DATABASE_URL / REDIS_URL at them (defaults: postgres://postgres@localhost:5432/shogi, redis://127.0.0.1:6379).',
].join('\n');

export interface PreflightProblem {
  readonly service: 'PostgreSQL' | 'Redis';
  readonly url: string;
  readonly error: string;
}

const redactUrl = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

/** Connects to the database; creates it when the server answers but the database is missing. */
async function checkPostgres(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '3D000') return createDatabase(url);
    return (err as Error).message || String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

async function createDatabase(url: string): Promise<string | null> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`create database "${name.replace(/"/g, '""')}"`);
    return null;
  } catch (err) {
    return `database "${name}" does not exist and could not be created: ${(err as Error).message}`;
  } finally {
    await admin.end().catch(() => {});
  }
}

/**
 * The preflight's own deadline on Redis: a cluster whose nodes announce addresses the client
 * cannot use, or whose state is not ok, leaves ioredis' connect pending with nothing left to
 * wait on, and the process would end there without a word.
 */
export const REDIS_PREFLIGHT_MS = 10_000;

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function checkRedis(target: RedisTarget, deadlineMs: number): Promise<string | null> {
  const redis = redisClient(target, 'preflight', {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    reconnect: false,
  });
  let first: string | null = null;
  redis.on('error', (err: Error) => {
    first ??= err.message;
  });
  try {
    await within(
      redis.connect(),
      deadlineMs,
      `no answer within ${deadlineMs / 1000} s${onCluster(target) ? ": are the nodes reachable at the addresses CLUSTER SLOTS gives, and is CLUSTER INFO's cluster_state ok?" : ''}`,
    );
    if (onCluster(target)) {
      const info = String(await redis.cluster('INFO'));
      if (!/cluster_state:ok/.test(info)) return 'the cluster is not ok (CLUSTER INFO: cluster_state is not ok)';
    }
    // every master keeps queues: each must keep its keys
    for (const node of mastersOf(redis)) {
      const policy = await node.config('GET', 'maxmemory-policy').catch(() => null);
      const value = Array.isArray(policy) ? policy[1] : null;
      if (value !== null && value !== undefined && value !== 'noeviction') {
        return `maxmemory-policy is ${String(value)} on ${node.options.host}:${node.options.port}; BullMQ needs noeviction (redis-cli config set maxmemory-policy noeviction)`;
      }
    }
    return null;
  } catch (err) {
    return first ?? ((err as Error).message || String(err));
  } finally {
    redis.disconnect();
  }
}

export async function preflight(
  databaseUrl: string,
  redis: RedisTarget,
  needs: { postgres: boolean; redis: boolean },
  redisDeadlineMs = REDIS_PREFLIGHT_MS,
) {
  const problems: PreflightProblem[] = [];
  const [pgError, redisError] = await Promise.all([
    needs.postgres ? checkPostgres(databaseUrl) : null,
    needs.redis ? checkRedis(redis, redisDeadlineMs) : null,
  ]);
  if (pgError !== null) problems.push({ service: 'PostgreSQL', url: redactUrl(databaseUrl), error: pgError });
  if (redisError !== null) problems.push({ service: 'Redis', url: describeTarget(redis), error: redisError });
  return problems;
}
