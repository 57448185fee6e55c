/**
 * A client that breaks the WebSocket protocol (an oversized frame, invalid UTF-8) is closed
 * with the protocol's code and logged as the client's doing, never at error level: error
 * lines are for the operator.
 */
import { Writable } from 'node:stream';
import { buildApp, createLogger } from '@shogi/gateway';
import { CLOSE_CODES } from '@shogi/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { ApiClient } from '../../apps/server/src/client.js';
import { type Stack, startStack } from './harness.js';

let stack: Stack;
let app: FastifyInstance;
let url: string;
const lines: { level: number; msg?: string }[] = [];

beforeAll(async () => {
  stack = await startStack({ worker: false });
  const sink = new Writable({
    write(chunk, _e, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  app = await buildApp(stack.config, createLogger({ level: 'trace' }, sink));
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

async function playerSocket(): Promise<WebSocket> {
  const api = new ApiClient(url);
  const [a, b] = await Promise.all([api.createPlayer('ws-err-a'), api.createPlayer('ws-err-b')]);
  const game = await api.startGame(a, b);
  return new WebSocket(`${url.replace(/^http/, 'ws')}/api/games/${game.id}/ws`, {
    headers: { authorization: `Bearer ${a.token}` },
  });
}

test.each([
  ['an oversized frame', (ws: WebSocket) => ws.send('x'.repeat(1 << 20)), CLOSE_CODES.MESSAGE_TOO_BIG],
  ['invalid UTF-8', (ws: WebSocket) => ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false }), 1007],
])('%s closes the socket with its code and logs no error', async (_name, send, code) => {
  const ws = await playerSocket();
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const before = lines.length;
  const closed = new Promise<number>((resolve) => ws.once('close', (c) => resolve(c)));
  send(ws);
  expect(await closed).toBe(code);
  await new Promise((r) => setTimeout(r, 100));
  const after = lines.slice(before);
  expect(after.filter((l) => l.level >= 50)).toEqual([]);
  expect(after.some((l) => l.msg?.includes('the client broke the protocol'))).toBe(true);
});
