/**
 * Redis restarted with nothing kept (as production Redis keeps nothing on disk): announcements
 * of new tokens made while a gateway's subscription was down are lost, so the gateway reads
 * every valid token from PostgreSQL again when it reconnects, and a token it was never told of
 * works from an address past its failures. The test runs its own redis-server on a private
 * port (the shared one is never touched) and kills it with SIGKILL.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createAccount, insertToken } from '@shogi/store';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';
import { PrivateRedis } from './private-redis.js';

const redis = new PrivateRedis(6890);

let stack: Stack;
beforeAll(async () => {
  await redis.start();
  stack = await startStack({
    worker: false,
    config: {
      redisUrl: redis.url,
      // no cache: every use of a token is looked up or braked
      authCacheMs: 0,
      authFailures: { max: 5, windowMs: 60_000 },
    },
  });
});
afterAll(async () => {
  if (!redis.running) await redis.start().catch(() => undefined);
  await stack?.close();
  await redis.kill();
});

test('a token made while the notices were lost works from an address past its failures once the gateway reconnects', async () => {
  let last = 0;
  for (let i = 0; i < 7; i++) {
    last = (await call(stack.app, 'GET', '/api/me', undefined, bearer(`guess-${randomUUID()}`))).status;
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(last).toBe(429);

  await redis.kill();
  // made meanwhile, elsewhere (another gateway whose announcement no one heard)
  const id = randomUUID();
  await createAccount(stack.db, { id, name: 'unheard', username: 'unheard', passwordHash: '!' });
  const token = randomBytes(32).toString('base64url');
  await insertToken(stack.db, {
    id: randomUUID(),
    playerId: id,
    kind: 'personal',
    name: 'script',
    tokenHash: createHash('sha256').update(token).digest('hex'),
    scopes: ['read'],
    expiresAt: null,
  });
  await redis.start();

  // the address is still past its failures on this gateway (its memory outlives Redis), and a
  // guess is still refused without a lookup
  const me = (t: string) => call(stack.app, 'GET', '/api/me', undefined, bearer(t));
  let status = 0;
  for (let i = 0; i < 200 && status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await me(token)).status;
  }
  expect(status).toBe(200);
  expect((await me(`guess-${randomUUID()}`)).status).toBe(429);
}, 30_000);
