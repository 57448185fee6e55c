/**
 * `npm start`'s launcher (apps/server/src/main.ts, from source) as child processes on a test
 * database and the tests' Redis, for the tests that need separate processes: a Prometheus
 * scraping each, a supervisor restarting them, a load balancer in front of them.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, REDIS_ENV } from './harness.js';

export const LAUNCHER = fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Launched {
  readonly child: ChildProcess;
  /** the HTTP port (a gateway's), else 0 */
  readonly port: number;
  readonly metricsPort: number;
  /** resolves once the process has exited */
  readonly exited: Promise<number | null>;
}

export interface LaunchEnv {
  readonly databaseUrl: string;
  readonly queuePrefix: string;
  readonly channelPrefix: string;
  readonly extra?: Readonly<Record<string, string>>;
}

/** The environment every launched process of a test shares: no limits a load would hit, no CSA port unless asked. */
export function launchEnv(env: LaunchEnv): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    DATABASE_URL: env.databaseUrl,
    ...REDIS_ENV,
    QUEUE_PREFIX: env.queuePrefix,
    CHANNEL_PREFIX: env.channelPrefix,
    HOST: '127.0.0.1',
    CSA_PORT: '0',
    LOG_LEVEL: 'warn',
    ENGINE_INSTALL: '0',
    RATE_LIMIT_GUESTS_MAX: '0',
    RATE_LIMIT_MOVES_MAX: '0',
    RATE_LIMIT_LOBBY_MAX: '0',
    RATE_LIMIT_LOBBY_IP_MAX: '0',
    ...env.extra,
  };
}

/** One process of `role` (and `args`), its metrics on a free port; a gateway's HTTP port free too. */
export async function launch(
  role: 'all' | 'gateway' | 'worker' | 'engine',
  env: LaunchEnv,
  args: readonly string[] = ['--no-demo'],
): Promise<Launched> {
  const [port, metricsPort] = await Promise.all([freePort(), freePort()]);
  const child = fork(LAUNCHER, ['--role', role, ...args], {
    execArgv: ['--import', 'tsx', '--conditions=@shogi/source'],
    env: { ...launchEnv(env), PORT: String(port), METRICS_PORT: String(metricsPort) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port: role === 'gateway' || role === 'all' ? port : 0, metricsPort, exited };
}

/** Resolves once `url` answers 200, within `ms`; fails at once when the process exits first. */
export async function waitUp(url: string, launched: Launched, ms = 150_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (launched.child.exitCode !== null || launched.child.signalCode !== null)
      throw new Error(
        `process exited (${launched.child.exitCode ?? launched.child.signalCode}) before ${url} answered`,
      );
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${ms} ms`);
    await sleep(100);
  }
}

/** SIGTERM, then SIGKILL if it has not exited within `ms`. */
export async function stop(launched: Launched, ms = 15_000): Promise<void> {
  if (launched.child.exitCode !== null || launched.child.signalCode !== null) return;
  launched.child.kill('SIGTERM');
  const timer = setTimeout(() => launched.child.kill('SIGKILL'), ms);
  await launched.exited;
  clearTimeout(timer);
}
