/**
 * What clients do to the connection itself, over raw TCP sockets: a body abandoned half way
 * is the client's doing (no error line for the operator), and a body that trickles in is cut
 * once REQUEST_TIMEOUT_MS has passed, while an open WebSocket is never cut by it.
 */
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { buildApp, createLogger } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Stack, startStack } from './harness.js';

let stack: Stack;
let app: FastifyInstance;
let port: number;
const lines: { level: number; msg?: string }[] = [];

beforeAll(async () => {
  stack = await startStack({ worker: false });
  const sink = new Writable({
    write(chunk, _e, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  app = await buildApp({ ...stack.config }, createLogger({ level: 'trace' }, sink));
  port = Number(new URL(await app.listen({ host: '127.0.0.1', port: 0 })).port);
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

const open = () =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

const head = (length: number) =>
  `POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

test('a client that closes the connection half way through its body is logged below error level', async () => {
  const body = JSON.stringify({ name: 'half-a-body' });
  const before = lines.length;
  const socket = await open();
  socket.write(head(body.length) + body.slice(0, 5));
  await new Promise((r) => setTimeout(r, 100));
  socket.destroy();
  // the server notices the reset, and its error handler runs
  await new Promise((r) => setTimeout(r, 300));
  const after = lines.slice(before);
  expect(after.filter((l) => l.level >= 50)).toEqual([]);
  const debug = after.filter((l) => l.level === 20).map((l) => l.msg);
  expect(debug).toContain('the client closed the connection mid-request');
});
