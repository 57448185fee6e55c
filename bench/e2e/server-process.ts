/** Helpers for benches that start the built server as a child process (fresh-run, soak). */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 just now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Resolves once `url`/health answers 200, within 60 s; with `child`, fails at once if it
 * exits first (so a server that could not listen is not mistaken for another one on the port).
 */
export async function waitHealthy(url: string, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child !== undefined && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${url} was up`);
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become healthy within 60 s`);
}
