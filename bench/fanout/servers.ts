/**
 * The two servers bench/fanout measures, each in its own process: the gateway
 * (apps/gateway/src/server.ts through tsx) and the bare `ws` broadcast server; and their
 * CPU time and RSS from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../e2e/server-process.js';

export type ServerKind = 'gateway' | 'bare-ws';

export interface RunningServer {
  readonly kind: ServerKind;
  readonly port: number;
  readonly pid: number;
  watchUrl(gameId: string): string;
  stop(): Promise<void>;
}

async function waitForHttp(port: number, child: ChildProcess): Promise<void> {
  // up to 2 minutes: tsx compiles the gateway at start, slow on a busy machine
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server on port ${port} did not start`);
}

export async function startServer(
  kind: ServerKind,
  env: { databaseUrl: string; redisUrl: string; redisClusterNodes?: string; channelPrefix: string },
): Promise<RunningServer> {
  const port = await freePort();
  const script = kind === 'gateway' ? 'apps/gateway/src/server.ts' : 'bench/fanout/bare-server.ts';
  // FANOUT_SERVER_ARGS: extra node flags for the server (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof)
  const extra = (process.env.FANOUT_SERVER_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', '--conditions=@shogi/source', script], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: env.redisUrl,
      // not this process's: empty is one Redis
      REDIS_CLUSTER_NODES: env.redisClusterNodes ?? '',
      CHANNEL_PREFIX: env.channelPrefix,
      // this bench is not about the CSA listener, and several gateways would take one port
      CSA_PORT: '0',
      QUEUE_PREFIX: `${env.channelPrefix.replace(/[^a-z0-9]/gi, '')}q`,
      LOG_LEVEL: 'warn',
      WATCH_MAX_PER_IP: '0',
      // the bench starts its games as players do (challenge, accept), all from two players
      RATE_LIMIT_LOBBY_MAX: '0',
      RATE_LIMIT_LOBBY_IP_MAX: '0',
      // every player comes from this address
      RATE_LIMIT_GUESTS_MAX: '0',
      WATCH_MAX_BUFFERED: String(1 << 20),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForHttp(port, child);
  const pid = child.pid as number;
  return {
    kind,
    port,
    pid,
    watchUrl: (gameId) =>
      kind === 'gateway' ? `ws://127.0.0.1:${port}/api/games/${gameId}/watch` : `ws://127.0.0.1:${port}/g/${gameId}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) of a process so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size of a process, MiB. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
