/** Command line and environment of the launcher (its only reader of process.env and argv). */

import { type EngineSettings, engineSettingsFromEnv } from '@shogi/engine-worker';
import { type GatewayConfig, loadConfig } from '@shogi/gateway';
import { DEFAULT_CONCURRENCY } from '@shogi/worker';
import { DEFAULT_SEEK_WAIT_MS } from './demo/seek-answerer.js';
import { processCountOf } from './supervisor/plan.js';

export const ROLES = ['all', 'gateway', 'worker', 'engine'] as const;
export type Role = (typeof ROLES)[number];

export interface LaunchOptions {
  readonly role: Role;
  /**
   * `npm start` without --role or --single-process: a supervisor runs a process per role and
   * several gateways behind one port (supervisor/); false: the roles run in this process.
   */
  readonly supervise: boolean;
  /** this process was started by the supervisor (which migrated the database already) */
  readonly supervised: boolean;
  /** GATEWAY_PROCESSES, WORKER_PROCESSES (default: by the cores, supervisor/plan.ts) */
  readonly processes: { readonly gateways?: number; readonly workers?: number };
  readonly demo: boolean;
  readonly gateway: GatewayConfig;
  readonly workerConcurrency: number;
  /** the address people are told to open */
  readonly publicUrl: string;
  /** the engine role's engines (house-bot moves and analyses) */
  readonly engine: EngineSettings;
  /** how long a casual seek waits for a person before the demo's bot-lobby takes it (LOBBY_BOT_WAIT_SECONDS) */
  readonly seekWaitMs: number;
  /** where /metrics is served (METRICS_HOST, METRICS_PORT); null: nowhere (METRICS_PORT=0) */
  readonly metrics: { readonly host: string; readonly port: number } | null;
}

export const DEFAULT_METRICS_PORT = 9464;

/** METRICS_PORT and METRICS_HOST: a port 1-65535 (0: no /metrics), on the loopback unless told otherwise. */
export function metricsOf(
  env: Readonly<Record<string, string | undefined>>,
): { host: string; port: number } | null | { error: string } {
  const raw = env.METRICS_PORT?.trim() ?? '';
  const port = raw === '' ? DEFAULT_METRICS_PORT : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { error: `METRICS_PORT must be a port number (0: no metrics), not "${raw}"` };
  if (port === 0) return null;
  return { host: env.METRICS_HOST?.trim() || '127.0.0.1', port };
}

/** LOBBY_BOT_WAIT_SECONDS as milliseconds: a whole number of seconds, 0 or more, else the default. */
export function seekWaitMsOf(value: string | undefined): number {
  const seconds = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isSafeInteger(seconds) && seconds >= 0
    ? seconds * 1000
    : DEFAULT_SEEK_WAIT_MS;
}

export const USAGE = `usage: npm start -- [--single-process | --role all|gateway|worker|engine] [--no-demo]
  (neither)  a supervisor with a process per role and several gateways behind one port, started again when they die
  --single-process  gateway, worker and engine in one process (the same as --role all)
  --role     all: every role in one process; gateway, worker or engine alone to scale them apart
  --no-demo  do not start the two demo bots (also DEMO=0)
environment: GATEWAY_PROCESSES, WORKER_PROCESSES (the supervisor's: half the cores each, at least 2 gateways and 1 worker), DATABASE_URL, REDIS_URL (or REDIS_CLUSTER_NODES, host:port,... of a Redis Cluster), PORT (3000),
  CSA_PORT (4081, the CSA protocol; 0: off), HOST, LOG_LEVEL,
  WORKER_CONCURRENCY (${DEFAULT_CONCURRENCY}), QUEUE_PREFIX, VALIDATE_QUEUES (1; 3 on a cluster),
  ENGINE_PATH (/usr/games/fairy-stockfish), ENGINE_WORKERS (CPU count - 1, at least 1), ENGINE_HASH_MB (16), ANALYSIS_DEPTH (12),
  LOBBY_BOT_WAIT_SECONDS (${DEFAULT_SEEK_WAIT_MS / 1000}: how long a casual seek waits for a person before the demo's bot-lobby takes it),
  METRICS_PORT (${DEFAULT_METRICS_PORT}: Prometheus's /metrics, apart from the API; 0: none), METRICS_HOST (127.0.0.1)`;

export function parseLaunchOptions(
  argv: readonly string[] = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
): LaunchOptions | { error: string } {
  let role: Role = (env.ROLE as Role | undefined) ?? 'all';
  let demo = env.DEMO !== '0' && env.DEMO !== 'false';
  const supervised = env.SHOGI_SUPERVISED === '1';
  // a role named anywhere means one process of it, as before the supervisor
  let oneProcess = supervised || env.ROLE !== undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--single-process') {
      oneProcess = true;
      role = 'all';
    } else if (arg === '--no-demo') demo = false;
    else if (arg === '--demo') demo = true;
    else if (arg === '--role' || arg.startsWith('--role=')) {
      const value = arg === '--role' ? argv[++i] : arg.slice('--role='.length);
      if (!ROLES.includes(value as Role)) return { error: `unknown role "${value ?? ''}"` };
      role = value as Role;
      oneProcess = true;
    } else if (arg === '--help' || arg === '-h') return { error: '' };
    else return { error: `unknown argument "${arg}"` };
  }
  if (!ROLES.includes(role)) return { error: `unknown ROLE "${role}"` };
  const metrics = metricsOf(env);
  if (metrics !== null && 'error' in metrics) return metrics;
  const gateways = processCountOf(env.GATEWAY_PROCESSES, 'GATEWAY_PROCESSES');
  const workers = processCountOf(env.WORKER_PROCESSES, 'WORKER_PROCESSES');
  for (const n of [gateways, workers]) if (typeof n === 'object') return n;
  const gateway = loadConfig(env);
  const concurrency = Number(env.WORKER_CONCURRENCY ?? DEFAULT_CONCURRENCY);
  const host = gateway.host === '0.0.0.0' || gateway.host === '::' ? 'localhost' : gateway.host;
  return {
    role,
    supervise: !oneProcess,
    supervised,
    processes: {
      ...(typeof gateways === 'number' ? { gateways } : {}),
      ...(typeof workers === 'number' ? { workers } : {}),
    },
    // the demo plays through this process' gateway
    demo: demo && (role === 'all' || role === 'gateway'),
    gateway,
    workerConcurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : DEFAULT_CONCURRENCY,
    publicUrl: `http://${host}:${gateway.port}`,
    engine: engineSettingsFromEnv(env),
    seekWaitMs: seekWaitMsOf(env.LOBBY_BOT_WAIT_SECONDS),
    metrics,
  };
}
