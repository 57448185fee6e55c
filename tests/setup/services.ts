/**
 * Global setup of the integration tier: fail fast, with the fix spelled out, when
 * PostgreSQL or Redis is not reachable (no Docker engine here, so no testcontainers).
 */
import { Socket } from 'node:net';

const HOW_TO_START = `Start them with:
  infra/start-services.sh
(or: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
     redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
 or, with Docker: docker compose up -d postgres redis)
and point DATABASE_URL / REDIS_URL at them if they are not on localhost.`;

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const socket = new Socket();
  return new Promise<boolean>((resolve) => {
    socket.setTimeout(2000);
    socket.once('connect', () => resolve(true));
    socket.once('timeout', () => resolve(false));
    socket.once('error', () => resolve(false));
    socket.connect(Number(port || defaultPort), hostname || '127.0.0.1');
  }).finally(() => socket.destroy());
}

export default async function setup(): Promise<void> {
  const database = process.env.DATABASE_URL ?? 'postgres://localhost:5432/postgres';
  const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const missing: string[] = [];
  if (!(await reachable(database, 5432))) missing.push(`PostgreSQL (${database})`);
  if (!(await reachable(redis, 6379))) missing.push(`Redis (${redis})`);
  if (missing.length > 0) throw new Error(`The integration tests need ${missing.join(' and ')}.\n${HOW_TO_START}`);
}
