/**
 * Spectating across gateway processes (two app instances on one Redis): spectators on
 * gateway B see every move submitted through gateway A, in order; and a stalled reader
 * is cut off with RESYNC while the others keep receiving.
 */

import { buildApp } from '@shogi/gateway';
import { gameChannel } from '@shogi/pipeline';
import { CLOSE_CODES } from '@shogi/protocol';
import { publish } from '@shogi/redis';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MATE_GAME } from './fixtures.js';
import { call, newGame, playMove, type Stack, silentLogger, startStack, testRedis } from './harness.js';
import { range, Watcher } from './spectate-client.js';

const MAX_BUFFERED = 256 * 1024;

let stack: Stack;
let second: FastifyInstance;
let urlB: string;
beforeAll(async () => {
  stack = await startStack({ listen: true, config: { watchMaxBuffered: MAX_BUFFERED } });
  second = await buildApp(stack.config, silentLogger());
  urlB = await second.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await second?.close();
  await stack?.close();
});

test('spectators on gateway B see every move submitted through gateway A, in order', async () => {
  const { game, players } = await newGame(stack.app);
  const onB = await Promise.all([Watcher.open(urlB, game.id), Watcher.open(urlB, game.id)]);
  const onA = await Watcher.open(stack.baseUrl, game.id);
  for (const w of [...onB, onA]) await w.waitFor(() => w.received[0]?.type === 'snapshot');
  for (const [ply, usi] of MATE_GAME.entries())
    await playMove(stack.app, game.id, ply % 2 ? players.gote.token : players.sente.token, usi, ply);
  const { lastSeq } = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
  for (const w of [...onB, onA]) {
    await w.waitForSeq(lastSeq);
    expect(w.seqs).toEqual(range(2, lastSeq));
    expect(w.moves).toEqual([...MATE_GAME]);
  }
  // the count covers both gateways: 2 on B + 1 on A, on either side
  for (const w of [onB[0], onA])
    await w?.waitFor(() => w.received.some((m) => m.type === 'spectators' && m.count === 3));
  await Promise.all([...onB, onA].map((w) => w.close()));
});

test('a stalled reader is closed with RESYNC; the others keep receiving', async () => {
  const { game } = await newGame(stack.app);
  const readers = await Promise.all([Watcher.open(urlB, game.id), Watcher.open(urlB, game.id)]);
  const stalled = await Watcher.open(urlB, game.id);
  for (const w of [...readers, stalled]) await w.waitFor(() => w.received[0]?.type === 'snapshot');
  // 1. the stalled client stops reading its TCP socket
  const tcp = (stalled.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  tcp.pause();
  // 2. a burst of large events on the game's channel (as a worker would publish them),
  //    far more than the kernel buffers of a paused loopback socket hold
  const channel = gameChannel(game.id, stack.config.channelPrefix, stack.config.validateQueues);
  const publisher = testRedis('publisher');
  // one event per message, so a reader that keeps reading stays far below the bound
  const filler = 'x'.repeat(16 * 1024);
  const count = 800;
  for (let seq = 2; seq < 2 + count; seq++) {
    const event = { gameId: game.id, seq, type: 'Filler', data: { filler }, recordedAt: new Date().toISOString() };
    await publish(publisher, channel, JSON.stringify([event]));
  }
  publisher.disconnect();
  // 3. the readers get every event, and see the count drop to 2 as the gateway drops the
  //    stalled one (server side first: that client is not reading)
  for (const w of readers) {
    await w.waitForSeq(count + 1, 30_000);
    expect(w.seqs).toEqual(range(2, count + 1));
    await w.waitFor(() => {
      const last = w.received.findLast((m) => m.type === 'spectators');
      return last?.type === 'spectators' && last.count === 2;
    });
  }
  // 4. once it reads again, the stalled client finds its socket closed (RESYNC, or cut)
  tcp.resume();
  expect([4010, 1006]).toContain(await stalled.closed);
  expect(stalled.seqs.length).toBeLessThan(count);
  await Promise.all(readers.map((w) => w.close()));
});

test('per-IP connection limit: one more watcher than allowed is refused with 429', async () => {
  const limited = await buildApp({ ...stack.config, watchMaxPerIp: 2 }, silentLogger());
  const url = await limited.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { game } = await newGame(stack.app);
    const ok = await Promise.all([Watcher.open(url, game.id), Watcher.open(url, game.id)]);
    await expect(Watcher.open(url, game.id)).rejects.toThrow('HTTP 429');
    await ok[0]?.close();
    // the slot is free again once a watcher leaves
    await new Promise((r) => setTimeout(r, 50));
    const again = await Watcher.open(url, game.id);
    await Promise.all([again.close(), ok[1]?.close()]);
  } finally {
    await limited.close();
  }
});

test('per-IP connection limit: upgrades started together cannot exceed it', async () => {
  const limited = await buildApp({ ...stack.config, watchMaxPerIp: 3 }, silentLogger());
  const url = await limited.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { game } = await newGame(stack.app);
    const tries = await Promise.allSettled(Array.from({ length: 12 }, () => Watcher.open(url, game.id)));
    const opened = tries.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []));
    // an upgrade past the limit is refused (429) or closed at once with 1013
    const codes = await Promise.all(
      opened.map((w) => Promise.race([w.closed, new Promise<null>((r) => setTimeout(() => r(null), 300))])),
    );
    expect(codes.filter((c) => c === null)).toHaveLength(3);
    expect(codes.filter((c) => c !== null).every((c) => c === CLOSE_CODES.TRY_AGAIN_LATER)).toBe(true);
    await Promise.all(opened.map((w) => w.close()));
  } finally {
    await limited.close();
  }
});
