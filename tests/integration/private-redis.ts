/**
 * A redis-server of a test's own, on a random free-ish port, that the test may kill -9 and
 * start again (the shared Redis on 6379 is never stopped).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';

export class PrivateRedis {
  readonly port: number;
  readonly url: string;
  private child: ChildProcess | null = null;

  constructor(portBase: number, portRange = 500) {
    this.port = portBase + Math.floor(Math.random() * portRange);
    this.url = `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts redis-server with `args` beyond port and bind, and resolves once it answers PING. */
  async start(args: readonly string[] = ['--save', '', '--appendonly', 'no']): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', ...args], {
      stdio: 'ignore',
    });
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    for (let i = 0; ; i++) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        if (i > 100) throw new Error(`redis-server on port ${this.port} did not start`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  /** kill -9, resolved once the process is gone. */
  kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
