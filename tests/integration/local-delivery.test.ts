/**
 * One process (`npm start`): the gateway uses the worker's event store (submissions and
 * verdicts share batched statements), the worker hands what it publishes to the gateway's
 * hub at once (LocalDelivery), and the hub drops the copy Redis brings back unparsed.
 */
import { randomBytes } from 'node:crypto';
import { buildApp, LocalDelivery, loadConfig } from '@shogi/gateway';
import { createDb, migrateToLatest } from '@shogi/store';
import { type RunningWorker, startWorker } from '@shogi/worker';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHub } from '../../apps/gateway/src/domain/hub.js';
import { ApiClient } from '../../apps/server/src/client.js';
import { MATE_GAME } from './fixtures.js';
import { createTestDatabase, REDIS_CONFIG, REDIS_URL, silentLogger, type TestDatabase } from './harness.js';

describe('a worker beside the gateway', () => {
  let database: TestDatabase;
  let worker: RunningWorker;
  let app: FastifyInstance;
  let api: ApiClient;
  const localDelivery = new LocalDelivery();
  beforeAll(async () => {
    database = await createTestDatabase();
    const db = createDb(database.url, { max: 1 });
    await migrateToLatest(db);
    await db.destroy();
    const prefix = `t${randomBytes(4).toString('hex')}`;
    // the worker publishes where the gateway does not listen: only the local path reaches it
    const elsewhere = `t${randomBytes(4).toString('hex')}`;
    worker = await startWorker({
      databaseUrl: database.url,
      ...REDIS_CONFIG,
      logger: silentLogger(),
      concurrency: 4,
      prefix,
      channelPrefix: `${elsewhere}:`,
      onPublish: (gameId, events, message) => localDelivery.deliver(gameId, events, message),
    });
    const config = {
      ...loadConfig({}),
      databaseUrl: database.url,
      ...REDIS_CONFIG,
      queuePrefix: prefix,
      channelPrefix: `${prefix}:`,
    };
    app = await buildApp(config, silentLogger(), { localDelivery, events: worker.events });
    api = new ApiClient(await app.listen({ host: '127.0.0.1', port: 0 }));
  });
  afterAll(async () => {
    await app?.close();
    await worker?.close();
    await database?.drop();
  });

  test('verdicts and the opponent’s moves reach the sockets without Redis', async () => {
    const sente = await api.createPlayer('alice');
    const gote = await api.createPlayer('bob');
    const game = await api.startGame(sente, gote);
    const sockets = {
      sente: await api.playerSocket(game.id, sente.token),
      gote: await api.playerSocket(game.id, gote.token),
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
    // the log holds each event once, in order, whichever side appended it
    const { events } = await api.events(game.id);
    expect(events.map((e: { seq: number }) => e.seq)).toEqual(events.map((_: unknown, i: number) => i + 1));
    expect(events.filter((e: { type: string }) => e.type === 'MoveAccepted')).toHaveLength(MATE_GAME.length);
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
    // the hub leaves its subscriber to its owner
    subscriber?.disconnect();
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
