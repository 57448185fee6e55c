/**
 * One process (`npm start`): the worker hands what it publishes to the gateway's hub at
 * once (LocalDelivery), and the hub drops the copy Redis brings back without parsing it.
 */
import { randomBytes } from 'node:crypto';
import { LocalDelivery } from '@shogi/gateway';
import { startWorker } from '@shogi/worker';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHub } from '../../apps/gateway/src/domain/hub.js';
import { MATE_GAME } from './fixtures.js';
import { REDIS_URL, type Stack, silentLogger, startStack } from './harness.js';

describe('a worker beside the gateway', () => {
  let stack: Stack;
  let worker: { close(): Promise<void> };
  const localDelivery = new LocalDelivery();
  beforeAll(async () => {
    stack = await startStack({ listen: true, worker: false, extras: { localDelivery } });
    // the worker publishes where this gateway does not listen: only the local path reaches it
    const elsewhere = `t${randomBytes(4).toString('hex')}`;
    worker = await startWorker({
      databaseUrl: stack.config.databaseUrl,
      redisUrl: REDIS_URL,
      logger: silentLogger(),
      concurrency: 4,
      prefix: stack.config.queuePrefix,
      channelPrefix: `${elsewhere}:`,
      onPublish: (gameId, events, message) => localDelivery.deliver(gameId, events, message),
    });
  });
  afterAll(async () => {
    await worker?.close();
    await stack?.close();
  });

  test('verdicts and the opponent’s moves reach the sockets without Redis', async () => {
    const sente = await stack.api.createPlayer('alice');
    const gote = await stack.api.createPlayer('bob');
    const game = await stack.api.createGame({ sente: sente.id, gote: gote.id });
    const sockets = {
      sente: await stack.api.playerSocket(game.id, sente.token),
      gote: await stack.api.playerSocket(game.id, gote.token),
    };
    for (const [ply, usi] of MATE_GAME.entries()) {
      const mover = ply % 2 === 0 ? sockets.sente : sockets.gote;
      mover.send({ type: 'move', usi, ply });
      const ack = await mover.waitFor((m) => m.type === 'ack' && m.ply === ply);
      if (ack.type !== 'ack') throw new Error('no ack');
      expect(await mover.waitFor((m) => m.type === 'verdict' && m.submittedSeq === ack.seq)).toMatchObject({
        accepted: true,
        usi,
      });
    }
    for (const socket of Object.values(sockets)) {
      await socket.waitFor((m) => m.type === 'events' && m.events.some((e) => e.type === 'GameEnded'));
      const seqs = socket.received.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.seq) : []));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      socket.close();
    }
  });
});

describe('the hub', () => {
  const channel = `t${randomBytes(4).toString('hex')}:game:g1`;
  let subscriber: Redis;
  let publisher: Redis;
  beforeAll(async () => {
    subscriber = new Redis(REDIS_URL);
    publisher = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    publisher?.disconnect();
  });

  test('drops the Redis copy of what it delivered locally, once per local delivery', async () => {
    const hub = createHub(subscriber, () => channel, silentLogger());
    const seen: unknown[][] = [];
    await hub.join('g1', (events) => seen.push([...events]));
    const first = [{ gameId: 'g1', seq: 1, type: 'MoveAccepted', data: {}, recordedAt: 'x' }];
    const message = JSON.stringify(first);
    hub.deliver('g1', first, message);
    expect(seen).toEqual([first]);
    await publisher.publish(channel, message); // the echo: dropped
    const second = [{ ...first[0], seq: 2 }];
    await publisher.publish(channel, JSON.stringify(second)); // from elsewhere: delivered
    await publisher.publish(channel, message); // the same text again, not delivered locally this time
    await expect.poll(() => seen.length).toBe(3);
    expect(seen).toEqual([first, second, first]);
    await hub.close();
  });
});
