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
import WebSocket from 'ws';
import { ApiClient } from '../../apps/server/src/client.js';
import { type Stack, startStack } from './harness.js';

/** short, so the test waits little (the default is 15 s) */
const REQUEST_TIMEOUT_MS = 600;

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
  app = await buildApp(
    { ...stack.config, requestTimeoutMs: REQUEST_TIMEOUT_MS },
    createLogger({ level: 'trace' }, sink),
  );
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

/** Everything the server sent until it closed the connection, and when it closed it. */
const untilClosed = (socket: Socket) =>
  new Promise<{ text: string; at: number }>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
    });
    socket.on('error', () => {});
    socket.once('close', () => resolve({ text, at: Date.now() }));
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

test('a body that trickles in is cut soon after REQUEST_TIMEOUT_MS (408, connection closed)', async () => {
  const body = JSON.stringify({ name: 'trickling-body' });
  const before = lines.length;
  const socket = await open();
  const started = Date.now();
  const closed = untilClosed(socket);
  socket.write(head(body.length));
  // one byte every 100 ms: never idle long, never done within the timeout
  let sent = 0;
  const trickle = setInterval(() => {
    if (sent < body.length - 1 && !socket.destroyed) socket.write(body[sent++] as string);
  }, 100);
  try {
    const { text, at } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    // the server checks its connections every quarter of the timeout
    expect(at - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
    expect(at - started).toBeLessThan(REQUEST_TIMEOUT_MS * 3);
    // the cut is the client's doing too
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.slice(before).filter((l) => l.level >= 50)).toEqual([]);
  } finally {
    clearInterval(trickle);
    socket.destroy();
  }
}, 15_000);

test('headers that trickle in are cut the same way', async () => {
  const socket = await open();
  const started = Date.now();
  const closed = untilClosed(socket);
  const text = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(200)}`;
  let sent = 0;
  const trickle = setInterval(() => {
    if (sent < text.length && !socket.destroyed) socket.write(text[sent++] as string);
  }, 50);
  try {
    const { at } = await closed;
    expect(at - started).toBeLessThan(REQUEST_TIMEOUT_MS * 3);
  } finally {
    clearInterval(trickle);
    socket.destroy();
  }
}, 15_000);

test('an open WebSocket outlives REQUEST_TIMEOUT_MS many times over', async () => {
  const base = `http://127.0.0.1:${port}`;
  const api = new ApiClient(base);
  const [a, b] = await Promise.all([api.createPlayer('conn-a'), api.createPlayer('conn-b')]);
  const game = await api.startGame(a, b);
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/games/${game.id}/ws`, {
    headers: { authorization: `Bearer ${a.token}` },
  });
  const frames: { type: string }[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data))));
  let closedWith: number | null = null;
  ws.on('close', (code) => {
    closedWith = code;
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS * 4));
  expect(closedWith).toBeNull();
  // and it still works: a move is acknowledged
  ws.send(JSON.stringify({ type: 'move', usi: '7g7f', ply: 0 }));
  await expect.poll(() => frames.some((f) => f.type === 'ack'), { timeout: 5_000 }).toBe(true);
  ws.close();
});

test('neither an idle keep-alive connection nor a long response is cut by the request timeout', async () => {
  const api = new ApiClient(`http://127.0.0.1:${port}`);
  const [a, b] = await Promise.all([api.createPlayer('conn-c'), api.createPlayer('conn-d')]);
  const game = await api.startGame(a, b);
  const socket = await open();
  let text = '';
  socket.on('data', (chunk) => {
    text += String(chunk);
  });
  let closed = false;
  socket.once('close', () => {
    closed = true;
  });
  const get = (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  get('/health');
  await expect.poll(() => text.includes('"ok"')).toBe(true);
  await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS * 3));
  expect(closed).toBe(false);
  // the same connection, now with a response that lasts: the game's NDJSON stream
  get(`/api/games/${game.id}/stream`);
  await expect.poll(() => text.includes('application/x-ndjson')).toBe(true);
  await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS * 3));
  expect(closed).toBe(false);
  // a 408 status line, not the digits anywhere (an id in the stream's JSON may hold them)
  expect(text).not.toMatch(/HTTP\/1\.1 408/);
  socket.destroy();
});
