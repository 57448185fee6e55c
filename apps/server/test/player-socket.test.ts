import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { PlayerSocket } from '../src/client.js';

let server: WebSocketServer | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** A socket to a local server that sends `count` error frames (codes N1..N${count}) on connecting. */
async function socketGetting(count: number, options?: { keep?: number }): Promise<PlayerSocket> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  server.on('connection', (ws) => {
    for (let seq = 1; seq <= count; seq++)
      ws.send(JSON.stringify({ type: 'error', error: { code: `N${seq}`, message: '' } }));
  });
  const { port } = server.address() as AddressInfo;
  return PlayerSocket.open(`ws://127.0.0.1:${port}`, options);
}

const codes = (socket: PlayerSocket) => socket.received.map((m) => (m.type === 'error' ? m.error.code : m.type));

describe('PlayerSocket', () => {
  it('keeps every message by default', async () => {
    const socket = await socketGetting(20);
    await socket.waitFor((m) => m.type === 'error' && (m.error.code as string) === 'N20');
    expect(codes(socket)).toHaveLength(20);
    await socket.close();
  });

  it('keeps only the last `keep` messages, and still hands every one to its listeners', async () => {
    const socket = await socketGetting(0, { keep: 3 });
    const seen: string[] = [];
    socket.onMessage((m) => seen.push(m.type === 'error' ? m.error.code : m.type));
    for (const ws of server?.clients ?? [])
      for (let seq = 1; seq <= 10; seq++)
        ws.send(JSON.stringify({ type: 'error', error: { code: `N${seq}`, message: '' } }));
    await socket.waitFor((m) => m.type === 'error' && (m.error.code as string) === 'N10');
    expect(codes(socket)).toEqual(['N8', 'N9', 'N10']);
    expect(seen).toHaveLength(10);
    await socket.close();
  });

  it('keeps nothing with keep 0', async () => {
    const socket = await socketGetting(0, { keep: 0 });
    const got = new Promise<void>((resolve) => socket.onMessage(() => resolve()));
    for (const ws of server?.clients ?? [])
      ws.send(JSON.stringify({ type: 'error', error: { code: 'N1', message: '' } }));
    await got;
    expect(socket.received).toEqual([]);
    await socket.close();
  });

  it('refuses a negative or non-numeric keep', () => {
    expect(() => PlayerSocket.open('ws://127.0.0.1:9', { keep: -1 })).toThrow(RangeError);
    expect(() => PlayerSocket.open('ws://127.0.0.1:9', { keep: Number.NaN })).toThrow(RangeError);
  });
});
