/**
 * Two gateways, one game: sente plays on gateway A and gote on gateway B. Each sees the
 * other's moves and its own verdicts through Redis pub/sub (one subscriber per gateway),
 * with no gaps in the stream, each move in one frame with its verdict.
 */
import { buildApp } from '@shogi/gateway';
import type { ServerMessage } from '@shogi/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient } from '../../apps/server/src/client.js';
import { MATE_GAME } from './fixtures.js';
import { type Stack, silentLogger, startStack } from './harness.js';

let stack: Stack;
let second: FastifyInstance;
let apiB: ApiClient;
beforeAll(async () => {
  stack = await startStack({ listen: true });
  second = await buildApp(stack.config, silentLogger());
  apiB = new ApiClient(await second.listen({ host: '127.0.0.1', port: 0 }));
});
afterAll(async () => {
  await second?.close();
  await stack?.close();
});

test('a game played across two gateways: both players see every event, in order', async () => {
  const sente = await stack.api.createPlayer('alice');
  const gote = await apiB.createPlayer('bob');
  const game = await stack.api.createGame({ sente: sente.id, gote: gote.id });
  const sockets = [await stack.api.playerSocket(game.id, sente.token), await apiB.playerSocket(game.id, gote.token)];
  // each socket's catch-up read is done (it sent GameCreated): from here on events come live
  // (a read racing the first move could find a submission before its verdict is written)
  for (const socket of sockets) await socket.waitFor((m) => m.type === 'events');
  for (const [ply, usi] of MATE_GAME.entries()) {
    const socket = sockets[ply % 2];
    if (!socket) throw new Error('unreachable');
    socket.send({ type: 'move', usi, ply });
    const ack = await socket.waitFor(
      (m): m is Extract<ServerMessage, { type: 'ack' }> => m.type === 'ack' && m.ply === ply,
    );
    await socket.waitFor((m) => m.type === 'verdict' && m.submittedSeq === ack.seq && m.accepted);
  }
  for (const socket of sockets) {
    await socket.waitFor((m) => m.type === 'events' && m.events.some((e) => e.type === 'GameEnded'));
    const seqs = socket.received.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.seq) : []));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const moves = socket.received
      .flatMap((m) => (m.type === 'events' ? m.events : []))
      .filter((e) => e.type === 'MoveAccepted')
      .map((e) => e.payload.usi);
    expect(moves).toEqual([...MATE_GAME]);
    // a submission reaches every socket in the frame of its verdict (the worker publishes
    // them together; the gateway does not publish a submission alone)
    const frames = socket.received.flatMap((m) => (m.type === 'events' ? [m.events] : []));
    const submissions = frames.flatMap((events) =>
      events
        .filter((e) => e.type === 'MoveSubmitted')
        .map((e) => events.some((v) => v.type === 'MoveAccepted' && v.payload.submittedSeq === e.seq)),
    );
    expect(submissions, JSON.stringify(frames.map((events) => events.map((e) => `${e.seq}:${e.type}`)))).toEqual(
      MATE_GAME.map(() => true),
    );
  }
  await Promise.all(sockets.map((s) => s.close()));
});

test('closing a gateway closes its player sockets with 1001 (going away)', async () => {
  const extra = await buildApp(stack.config, silentLogger());
  const api = new ApiClient(await extra.listen({ host: '127.0.0.1', port: 0 }));
  const a = await api.createPlayer('carol');
  const b = await api.createPlayer('dave');
  const game = await api.startGame(a, b);
  const socket = await api.playerSocket(game.id, a.token);
  await socket.waitFor((m) => m.type === 'hello');
  const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
  await extra.close();
  expect(await closed).toBe(1001);
});
