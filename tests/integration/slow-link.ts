/**
 * A TCP proxy in front of a single Redis server whose answers to chosen connections come
 * late: those whose client named itself (CLIENT SETNAME, which ioredis sends on connecting
 * with its `connectionName`) with a name containing `slowName`. Every other connection, the
 * pub/sub subscribers among them, passes at full speed. It stands for a busy gateway that
 * reads a command's answer late while another process (the worker) already acted on it.
 */
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

export interface SlowLink {
  /** the proxy's Redis URL */
  readonly url: string;
  close(): Promise<void>;
}

export async function openSlowLink(redisUrl: string, slowName: string, delayMs: number): Promise<SlowLink> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };
  const server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 6379), target.hostname);
    track(client);
    track(upstream);
    let slow = false;
    let sent = '';
    client.on('data', (chunk: Buffer) => {
      if (!slow && sent.length < 4096) {
        sent += chunk.toString('latin1');
        slow = sent.includes(slowName);
      }
      upstream.write(chunk);
    });
    // timers of one delay fire in the order they were set: the answers keep their order
    upstream.on('data', (chunk: Buffer) => {
      if (slow) setTimeout(() => client.write(chunk), delayMs);
      else client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => setTimeout(() => client.destroy(), slow ? delayMs : 0));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('slow link: no port');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
