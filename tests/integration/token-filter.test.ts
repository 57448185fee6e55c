/**
 * The brake on unknown tokens against every valid token: past AUTH_FAILURES_MAX an address's
 * tokens are looked up only if the gateway's filter of the valid tokens may hold them, so a
 * valid token works from it whoever else guessed there, and a guess costs no PostgreSQL
 * lookup. The tokens here are ones no gateway has looked up: made in PostgreSQL before the
 * gateway started, and issued on another gateway with the Redis keys of the former "known
 * token" scheme gone. token-filter-redis-restart.test.ts: a Redis restart.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { buildApp, type CsaFrontEnd } from '@shogi/gateway';
import { createAccount, createPlayer, insertToken, revokeToken, scanValidTokenHashes } from '@shogi/store';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient } from './csa-client.js';
import { bearer, type CsaStack, call, NO_LIMIT, silentLogger, startCsaStack, testRedis } from './harness.js';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

// Every PostgreSQL lookup of a token (the credential query), on every pool of this process.
let credentialLookups = 0;
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
function countLookups(this: unknown, ...args: unknown[]): unknown {
  const query = args[0];
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  if (typeof text === 'string' && text.includes('where p.token_hash = $1')) credentialLookups++;
  return clientQuery.apply(this, args);
}

let stack: CsaStack;
/** a gateway started after the tokens made before it */
let gatewayB: { app: FastifyInstance; csaPort: number };
const before = { guest: newToken(), session: newToken(), trip: newToken(), username: 'engine_before' };

async function gateway(): Promise<{ app: FastifyInstance; csaPort: number }> {
  let csa: CsaFrontEnd | null = null;
  const app = await buildApp(stack.config, silentLogger(), {
    bindCsa: (bound) => {
      csa = bound;
    },
  });
  const csaPort = await (csa as unknown as CsaFrontEnd).listen('127.0.0.1', 0);
  return { app, csaPort };
}

/** An account with a session and a csa:play personal token, written to PostgreSQL only. */
async function storedAccount(username: string, tokens: { session: string; trip: string }): Promise<void> {
  const id = randomUUID();
  await createAccount(stack.db, { id, name: username, username, passwordHash: '!' });
  const base = { playerId: id, expiresAt: null };
  await insertToken(stack.db, {
    ...base,
    id: randomUUID(),
    kind: 'session',
    name: 'session',
    tokenHash: sha256(tokens.session),
    scopes: ['read', 'play'],
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  await insertToken(stack.db, {
    ...base,
    id: randomUUID(),
    kind: 'personal',
    name: 'engine',
    tokenHash: sha256(tokens.trip),
    scopes: ['csa:play'],
  });
}

async function csaLogin(port: number, name: string, trip: string): Promise<string> {
  const client = await CsaClient.open(port);
  try {
    return await client.login(name, `filter-300-10,${trip}`);
  } finally {
    client.close();
  }
}

/**
 * Puts 127.0.0.1 past its failures on the gateway, with guesses over HTTP and CSA guesses at
 * as many accounts (the address's share of account reads, which the brake before the filter
 * spent on them): none of them costs a lookup once it is past.
 */
async function block(on: { app: FastifyInstance; csaPort: number }): Promise<void> {
  let last = 0;
  for (let i = 0; i < 7; i++) {
    last = (await call(on.app, 'GET', '/api/me', undefined, bearer(`guess-${randomUUID()}`))).status;
    // the counter is kept in Redis: give its count a moment to come back
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(last).toBe(429);
  const lookups = credentialLookups;
  for (let i = 0; i < 20; i++)
    expect((await call(on.app, 'GET', '/api/me', undefined, bearer(`guess-${randomUUID()}`))).status).toBe(429);
  for (let i = 0; i < 8; i++) expect(await csaLogin(on.csaPort, `nobody_${i}`, newToken())).toBe('LOGIN:incorrect');
  expect(credentialLookups - lookups).toBe(0);
}

beforeAll(async () => {
  pg.Client.prototype.query = countLookups as typeof pg.Client.prototype.query;
  stack = await startCsaStack({
    // no cache: every use of a token is a lookup, so the counts below see each one
    authCacheMs: 0,
    authFailures: { max: 5, windowMs: 60_000 },
    rateLimits: {
      auth: NO_LIMIT,
      moves: NO_LIMIT,
      lobby: NO_LIMIT,
      lobbyPerIp: NO_LIMIT,
      guests: NO_LIMIT,
      botGames: NO_LIMIT,
      botGamesPerIp: NO_LIMIT,
      analysis: NO_LIMIT,
      chat: NO_LIMIT,
      imports: NO_LIMIT,
      exports: NO_LIMIT,
      positionAnalysis: NO_LIMIT,
      positionAnalysisPerIp: NO_LIMIT,
      reports: NO_LIMIT,
      explorer: NO_LIMIT,
    },
  });
  await createPlayer(stack.db, { id: randomUUID(), name: 'before', tokenHash: sha256(before.guest) });
  await storedAccount(before.username, before);
  gatewayB = await gateway();
});

afterAll(async () => {
  pg.Client.prototype.query = clientQuery as typeof pg.Client.prototype.query;
  await gatewayB?.app.close();
  await stack?.close();
});

describe('past its failures, an address still gets in with any valid token', () => {
  test('tokens made in PostgreSQL before the gateway started: a guest, a session and a trip, over HTTP and CSA', async () => {
    await block(gatewayB);
    for (const token of [before.guest, before.session, before.trip])
      expect((await call(gatewayB.app, 'GET', '/api/me', undefined, bearer(token))).status).toBe(200);
    expect(await csaLogin(gatewayB.csaPort, before.username, before.trip)).toBe(`LOGIN:${before.username} OK`);
    // a valid token of another account is still no trip of this one
    expect(await csaLogin(gatewayB.csaPort, before.username, before.session)).toBe('LOGIN:incorrect');
  });

  test('tokens issued on another gateway work at once, with no Redis key telling of them', async () => {
    await block(gatewayB);
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'issued' })).body.token as string;
    const username = 'engine_issued';
    const password = 'correct horse battery';
    expect((await call(stack.app, 'POST', '/api/accounts', { username, password })).status).toBe(201);
    const session = (await call(stack.app, 'POST', '/api/session', { username, password })).body.token as string;
    const trip = (
      await call(stack.app, 'POST', '/api/tokens', { name: 'engine', scopes: ['csa:play'] }, bearer(session))
    ).body.token as string;
    // whatever Redis held of them is lost, as a Redis that keeps nothing on disk loses it
    const redis = testRedis('token-filter');
    try {
      for (const token of [guest, session, trip])
        await redis.del(`${stack.config.channelPrefix}known-token:${sha256(token)}`);
    } finally {
      redis.disconnect();
    }
    for (const token of [guest, session, trip])
      expect((await call(gatewayB.app, 'GET', '/api/me', undefined, bearer(token))).status).toBe(200);
    expect(await csaLogin(gatewayB.csaPort, username, trip)).toBe(`LOGIN:${username} OK`);
  });
});

test("the seeding reads every valid token, guests' and accounts', and no revoked or expired one", async () => {
  const id = randomUUID();
  await createAccount(stack.db, { id, name: 'scanned', username: 'scanned', passwordHash: '!' });
  const made = { live: newToken(), revoked: newToken(), expired: newToken() };
  const tokenIds: Record<string, string> = {};
  for (const [which, token] of Object.entries(made)) {
    tokenIds[which] = randomUUID();
    await insertToken(stack.db, {
      id: tokenIds[which] as string,
      playerId: id,
      kind: 'personal',
      name: which,
      tokenHash: sha256(token),
      scopes: ['read'],
      expiresAt: which === 'expired' ? new Date(Date.now() - 1000) : null,
    });
  }
  await revokeToken(stack.db, id, { id: tokenIds.revoked as string }, new Date());
  let count = -1;
  const hashes: string[] = [];
  // batches of 3: the cursor is read on past the first
  await scanValidTokenHashes(
    stack.db,
    new Date(),
    (n) => (count = n),
    (batch) => hashes.push(...batch),
    3,
  );
  expect(hashes).toHaveLength(count);
  expect(new Set(hashes).size).toBe(count);
  for (const token of [before.guest, before.session, before.trip, made.live]) expect(hashes).toContain(sha256(token));
  for (const token of [made.revoked, made.expired]) expect(hashes).not.toContain(sha256(token));
});
