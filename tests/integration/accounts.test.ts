/**
 * Accounts, sessions, personal tokens, scopes, revocation, expiry and rate limits through
 * app.inject() on real PostgreSQL and Redis, with the gateway's own logger writing into
 * memory: no password or token may appear in any line it wrote.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { buildApp, createLogger, type GatewayConfig, loadConfig } from '@shogi/gateway';
import { createDb, type Db, migrateToLatest } from '@shogi/store';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import {
  createTestDatabase,
  mintAdminToken,
  NO_LIMIT,
  REDIS_CONFIG,
  REDIS_ENV,
  startTestWorker,
  type TestDatabase,
} from './harness.js';

const lines: string[] = [];
/** every password and token handed out or sent, to look for in the logs */
const secrets: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});

let database: TestDatabase;
let db: Db;
let app: FastifyInstance;
/** a second gateway on the same database and Redis */
let appB: FastifyInstance;
let worker: { close(): Promise<void> };
let prefix: string;
let adminToken: string;

function configFor(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    ...loadConfig({}),
    databaseUrl: database.url,
    ...REDIS_CONFIG,
    queuePrefix: prefix,
    channelPrefix: `${prefix}:`,
    dbPoolSize: 4,
    closeGraceMs: 2000,
    // per-request lines too, so the log check sees every URL and header path
    logLevel: 'trace',
    // the revocation test must see the Redis notice work, not the cache age run out
    authCacheMs: 60_000,
    rateLimits: {
      auth: { max: 1000, windowMs: 60_000 },
      moves: { max: 1000, windowMs: 1000 },
      lobby: { max: 1000, windowMs: 60_000 },
      lobbyPerIp: { max: 1000, windowMs: 60_000 },
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
    ...overrides,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  prefix = `t${randomBytes(4).toString('hex')}`;
  db = createDb(database.url, { max: 2 });
  await migrateToLatest(db);
  adminToken = await mintAdminToken(db);
  const logger = createLogger({ level: 'trace' }, sink);
  app = await buildApp(configFor(), logger);
  appB = await buildApp(configFor(), logger);
  worker = await startTestWorker(database.url, prefix);
});

afterAll(async () => {
  await worker?.close();
  await app?.close();
  await appB?.close();
  await db?.destroy();
  await database?.drop();
});

type Method = 'GET' | 'POST' | 'DELETE';
async function req(
  method: Method,
  url: string,
  options: { body?: unknown; token?: string; on?: FastifyInstance } = {},
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await (options.on ?? app).inject({
    method,
    url,
    headers,
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
  return { status: res.statusCode, body: res.body === '' ? null : JSON.parse(res.body), headers: res.headers };
}

let counter = 0;
async function register(username = `user_${++counter}_${randomBytes(3).toString('hex')}`, password = pw()) {
  const res = await req('POST', '/api/accounts', { body: { username, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...(res.body as { id: string; name: string; username: string }), password };
}
function pw(): string {
  const p = `pw-${randomBytes(12).toString('base64url')}`;
  secrets.push(p);
  return p;
}
async function login(username: string, password: string, on?: FastifyInstance) {
  const res = await req('POST', '/api/session', { body: { username, password }, ...(on ? { on } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  secrets.push(res.body.token);
  return res.body as { id: string; token: string; scopes: string[]; expiresAt: string };
}
async function personal(session: string, scopes: string[], extra: Record<string, unknown> = {}) {
  const res = await req('POST', '/api/tokens', { token: session, body: { name: 'bot', scopes, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  secrets.push(res.body.token);
  return res.body as { id: string; token: string; scopes: string[]; expiresAt: string | null };
}
async function gameBetween(sente: string, gote: string): Promise<string> {
  const res = await req('POST', '/api/games', { body: { sente, gote }, token: adminToken });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}
const move = (gameId: string, token: string, usi: string, ply: number, on?: FastifyInstance) =>
  req('POST', `/api/games/${gameId}/moves`, { token, body: { usi, ply }, ...(on ? { on } : {}) });

describe('accounts', () => {
  test('register: 201 with the player id; the username is unique case-insensitively (409)', async () => {
    const a = await register('Sakura_1');
    expect(a).toMatchObject({ name: 'Sakura_1', username: 'Sakura_1' });
    const again = await req('POST', '/api/accounts', { body: { username: 'sakura_1', password: pw() } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('USERNAME_TAKEN');
    // the account is a player: games take its id
    const row = await db.selectFrom('accounts').selectAll().where('player_id', '=', a.id).executeTakeFirstOrThrow();
    expect(row.password_hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(row.password_hash).not.toContain(a.password);
  });

  test.each([
    ['too short a username', { username: 'ab', password: 'long enough' }],
    ['a username with a space', { username: 'a b c', password: 'long enough' }],
    ['too long a username', { username: 'x'.repeat(25), password: 'long enough' }],
    ['too short a password', { username: 'valid_name', password: 'short' }],
    ['too long a password', { username: 'valid_name', password: 'x'.repeat(201) }],
    ['an extra field', { username: 'valid_name', password: 'long enough', admin: true }],
  ])('register with %s: 400', async (_name, body) => {
    const res = await req('POST', '/api/accounts', { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
  });

  test('login: a session token with play and read; a wrong password and an unknown user get the same 401', async () => {
    const a = await register();
    const session = await login(a.username.toUpperCase(), a.password);
    expect(session.scopes).toEqual(['play', 'read']);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
    const days = (Date.parse(session.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
    const wrong = await req('POST', '/api/session', { body: { username: a.username, password: `${a.password}x` } });
    const unknown = await req('POST', '/api/session', { body: { username: 'nobody_here', password: a.password } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    // only the hash is stored
    const stored = await db
      .selectFrom('tokens')
      .select('token_hash')
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.token_hash).not.toBe(session.token);
  });

  test('GET /api/me tells the player, the username and the token', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const me = await req('GET', '/api/me', { token: session.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: a.id,
      name: a.username,
      username: a.username,
      token: { id: session.id, kind: 'session', scopes: ['play', 'read'], expiresAt: session.expiresAt },
    });
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    secrets.push(guest.token);
    const guestMe = await req('GET', '/api/me', { token: guest.token });
    expect(guestMe.body).toEqual({
      id: guest.id,
      name: 'guest',
      username: null,
      token: { id: null, kind: 'guest', scopes: ['play', 'read'], expiresAt: null },
    });
    expect((await req('GET', '/api/me')).status).toBe(401);
  });

  test('a session token plays a game against a guest; accepted moves come back', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    secrets.push(guest.token);
    const gameId = await gameBetween(a.id, guest.id);
    expect((await move(gameId, session.token, '7g7f', 0)).status).toBe(202);
    await untilAccepted(gameId, 1);
    expect((await move(gameId, guest.token, '3c3d', 1)).status).toBe(202);
    await untilAccepted(gameId, 2);
    const resign = await req('POST', `/api/games/${gameId}/resign`, { token: session.token, body: {} });
    expect(resign.status).toBe(202);
  });

  test('personal tokens: read-only cannot move (403 INSUFFICIENT_SCOPE) but lists tokens; play moves', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const reader = await personal(session.token, ['read']);
    const player = await personal(session.token, ['play'], { expiresInDays: 7 });
    expect(player.expiresAt).not.toBeNull();
    expect(reader.expiresAt).toBeNull();
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    const gameId = await gameBetween(a.id, guest.id);

    const denied = await move(gameId, reader.token, '7g7f', 0);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('INSUFFICIENT_SCOPE');
    const deniedResign = await req('POST', `/api/games/${gameId}/resign`, { token: reader.token, body: {} });
    expect(deniedResign.body.code).toBe('INSUFFICIENT_SCOPE');
    // the player WebSocket checks the scope before the upgrade
    const socket = await req('GET', `/api/games/${gameId}/ws`, { token: reader.token });
    expect(socket.status).toBe(403);
    expect(socket.body.code).toBe('INSUFFICIENT_SCOPE');
    expect((await move(gameId, player.token, '7g7f', 0)).status).toBe(202);

    const list = await req('GET', '/api/tokens', { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.body.tokens.map((t: { id: string }) => t.id).sort()).toEqual([session.id, reader.id, player.id].sort());
    expect(JSON.stringify(list.body)).not.toContain(reader.token);
    expect(JSON.stringify(list.body)).not.toContain(session.token);
    // a play-only token cannot read the list; personal tokens cannot make tokens
    expect((await req('GET', '/api/tokens', { token: player.token })).body.code).toBe('INSUFFICIENT_SCOPE');
    const minted = await req('POST', '/api/tokens', { token: player.token, body: { name: 'x', scopes: ['play'] } });
    expect(minted.status).toBe(403);
    expect(minted.body.code).toBe('SESSION_REQUIRED');
    // nor can a guest token
    const guestMint = await req('POST', '/api/tokens', { token: guest.token, body: { name: 'x', scopes: ['play'] } });
    expect(guestMint.body.code).toBe('SESSION_REQUIRED');
    const badScope = await req('POST', '/api/tokens', { token: session.token, body: { name: 'x', scopes: ['admin'] } });
    expect(badScope.status).toBe(400);
  });

  test('a revoked token stops at once, on this gateway and on another one', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const bot = await personal(session.token, ['play', 'read']);
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    const gameId = await gameBetween(a.id, guest.id);
    // both gateways have the token in their caches
    expect((await req('GET', '/api/me', { token: bot.token })).status).toBe(200);
    expect((await req('GET', '/api/me', { token: bot.token, on: appB })).status).toBe(200);

    const revoke = await req('DELETE', `/api/tokens/${bot.id}`, { token: session.token });
    expect(revoke.status).toBe(204);
    const refused = await move(gameId, bot.token, '7g7f', 0);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('UNAUTHORIZED');
    // gateway B hears of it on Redis (its cache would otherwise trust the token for 60 s)
    await until(async () => (await req('GET', '/api/me', { token: bot.token, on: appB })).status === 401);
    // revoked again, or someone else's token: 404
    expect((await req('DELETE', `/api/tokens/${bot.id}`, { token: session.token })).body.code).toBe('TOKEN_NOT_FOUND');
    const other = await register();
    const otherSession = await login(other.username, other.password);
    const theirs = await req('DELETE', `/api/tokens/${session.id}`, { token: otherSession.token });
    expect(theirs.status).toBe(404);
    expect((await req('GET', '/api/me', { token: session.token })).status).toBe(200);
    // the list no longer shows it
    const list = await req('GET', '/api/tokens', { token: session.token });
    expect(list.body.tokens.map((t: { id: string }) => t.id)).toEqual([session.id]);
  });

  test('a player socket whose token is revoked closes with 4001 at once, and nothing it sent after counts', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const bot = await personal(session.token, ['play']);
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    const gameId = await gameBetween(a.id, guest.id);
    const base = await appB.listen({ host: '127.0.0.1', port: 0 });
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/games/${gameId}/ws`, {
      headers: { authorization: `Bearer ${bot.token}` },
    });
    const frames: { type: string; error?: { code: string } }[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'move', usi: '7g7f', ply: 0 }));
    await until(async () => frames.some((f) => f.type === 'ack'));
    // revoked on the other gateway: the notice reaches the socket's gateway over Redis, which
    // closes the socket without waiting for its next frame
    expect((await req('DELETE', `/api/tokens/${bot.id}`, { token: session.token })).status).toBe(204);
    expect(await closed).toBe(4001);
    expect((await req('GET', '/api/me', { token: bot.token, on: appB })).status).toBe(401);
    expect((await req('GET', `/api/games/${gameId}`)).body.status).toBe('ongoing');
  });

  test('an expired token is refused with 401', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const bot = await personal(session.token, ['play'], { expiresInDays: 1 });
    await db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', bot.id)
      .execute();
    const res = await req('GET', '/api/me', { token: bot.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  test('a guest replaces its token: the old one stops at once on both gateways, the player and its games stay', async () => {
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    secrets.push(guest.token);
    const opponent = (await req('POST', '/api/players', { body: { name: 'other' } })).body;
    const gameId = await gameBetween(guest.id, opponent.id);
    expect((await move(gameId, guest.token, '7g7f', 0)).status).toBe(202);
    // gateway B has the old token in its cache
    expect((await req('GET', '/api/me', { token: guest.token, on: appB })).status).toBe(200);
    const replaced = await req('POST', '/api/me/token', { token: guest.token });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(201);
    const fresh = replaced.body.token as string;
    secrets.push(fresh);
    expect(fresh).not.toBe(guest.token);
    expect(Object.keys(replaced.body)).toEqual(['token']);
    expect((await req('GET', '/api/me', { token: guest.token })).status).toBe(401);
    await until(async () => (await req('GET', '/api/me', { token: guest.token, on: appB })).status === 401);
    // the same player, with every scope, playing on in its game
    const me = await req('GET', '/api/me', { token: fresh, on: appB });
    expect(me.body).toMatchObject({ id: guest.id, username: null, token: { kind: 'guest', scopes: ['play', 'read'] } });
    await until(async () => (await req('GET', `/api/games/${gameId}`)).body.ply === 1);
    expect((await move(gameId, opponent.token, '3c3d', 1)).status).toBe(202);
    await until(async () => (await req('GET', `/api/games/${gameId}`)).body.ply === 2);
    expect((await move(gameId, fresh, '2g2f', 2)).status).toBe(202);
    // the old token cannot replace the new one; an account's token is not a guest's
    expect((await req('POST', '/api/me/token', { token: guest.token })).status).toBe(401);
    const a = await register();
    const session = await login(a.username, a.password);
    const refused = await req('POST', '/api/me/token', { token: session.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('GUEST_TOKEN_REQUIRED');
    expect((await req('GET', '/api/me', { token: session.token })).status).toBe(200);
  });

  test('two replacements of one guest token at once: one wins, the other is refused', async () => {
    const guest = (await req('POST', '/api/players', { body: { name: 'racer' } })).body;
    secrets.push(guest.token);
    const [a, b] = await Promise.all([
      req('POST', '/api/me/token', { token: guest.token }),
      req('POST', '/api/me/token', { token: guest.token, on: appB }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 401]);
    const winner = (a.status === 201 ? a : b).body.token as string;
    secrets.push(winner);
    expect((await req('GET', '/api/me', { token: winner })).body.id).toBe(guest.id);
  });

  test('a password change with revokePersonalTokens: false: the old password stops, the other sessions end on both gateways, this session and personal tokens stay', async () => {
    const a = await register();
    const here = await login(a.username, a.password);
    const elsewhere = await login(a.username, a.password, appB);
    const bot = await personal(here.token, ['read']);
    expect((await req('GET', '/api/me', { token: elsewhere.token, on: appB })).status).toBe(200);
    const next = pw();
    const wrong = await req('POST', '/api/me/password', {
      token: here.token,
      body: { currentPassword: `${a.password}x`, newPassword: next },
    });
    expect(wrong).toMatchObject({ status: 403, body: { code: 'WRONG_PASSWORD' } });
    const short = await req('POST', '/api/me/password', {
      token: here.token,
      body: { currentPassword: a.password, newPassword: 'short' },
    });
    expect(short).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    // a personal token is not a login: it cannot change the password
    const byBot = await req('POST', '/api/me/password', {
      token: bot.token,
      body: { currentPassword: a.password, newPassword: next },
    });
    expect(byBot.body.code).toBe('SESSION_REQUIRED');

    const changed = await req('POST', '/api/me/password', {
      token: here.token,
      body: { currentPassword: a.password, newPassword: next, revokePersonalTokens: false },
    });
    expect(changed.status).toBe(204);
    const oldLogin = await req('POST', '/api/session', { body: { username: a.username, password: a.password } });
    expect(oldLogin.body.code).toBe('INVALID_CREDENTIALS');
    await login(a.username, next);
    expect((await req('GET', '/api/me', { token: here.token })).status).toBe(200);
    expect((await req('GET', '/api/me', { token: bot.token })).status).toBe(200);
    // the other session ends at once here, and on gateway B through the Redis notice
    expect((await req('GET', '/api/me', { token: elsewhere.token })).status).toBe(401);
    await until(async () => (await req('GET', '/api/me', { token: elsewhere.token, on: appB })).status === 401);
    // the same change again: the current password is no longer the old one
    const replay = await req('POST', '/api/me/password', {
      token: here.token,
      body: { currentPassword: a.password, newPassword: next },
    });
    expect(replay.body.code).toBe('WRONG_PASSWORD');
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    const byGuest = await req('POST', '/api/me/password', {
      token: guest.token,
      body: { currentPassword: 'whatever1', newPassword: next },
    });
    expect(byGuest.body.code).toBe('SESSION_REQUIRED');
  });

  test('a password change revokes every personal token by default, on both gateways', async () => {
    const a = await register();
    const here = await login(a.username, a.password);
    const elsewhere = await login(a.username, a.password);
    const bots = [await personal(here.token, ['play', 'read']), await personal(here.token, ['read'])];
    // both gateways hold them in their caches, so only the revocation notices can end them there
    for (const bot of bots) {
      expect((await req('GET', '/api/me', { token: bot.token })).status).toBe(200);
      expect((await req('GET', '/api/me', { token: bot.token, on: appB })).status).toBe(200);
    }
    const notABoolean = await req('POST', '/api/me/password', {
      token: here.token,
      body: { currentPassword: a.password, newPassword: pw(), revokePersonalTokens: 'yes' },
    });
    expect(notABoolean).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    const other = await register();
    const othersBot = await personal((await login(other.username, other.password)).token, ['read']);

    const changed = await req('POST', '/api/me/password', {
      token: here.token,
      // no revokePersonalTokens: revoking them is the default
      body: { currentPassword: a.password, newPassword: pw() },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    for (const bot of bots) {
      expect((await req('GET', '/api/me', { token: bot.token })).status).toBe(401);
      await until(async () => (await req('GET', '/api/me', { token: bot.token, on: appB })).status === 401);
    }
    expect((await req('GET', '/api/me', { token: elsewhere.token })).status).toBe(401);
    // the session that changed the password goes on, and is all the list shows
    const list = await req('GET', '/api/tokens', { token: here.token });
    expect(list.body.tokens.map((t: { id: string }) => t.id)).toEqual([here.id]);
    // another account's personal tokens are untouched
    expect((await req('GET', '/api/me', { token: othersBot.token })).status).toBe(200);
  });

  test('an operator resets a forgotten password (npm run accounts:reset-password): a temporary one, every session and personal token ended', async () => {
    const a = await register(`Reset_${randomBytes(3).toString('hex')}`);
    const here = await login(a.username, a.password);
    const elsewhere = await login(a.username, a.password, appB);
    const bot = await personal(here.token, ['read']);
    expect((await req('GET', '/api/me', { token: elsewhere.token, on: appB })).status).toBe(200);
    const env = { ...process.env, DATABASE_URL: database.url, ...REDIS_ENV, CHANNEL_PREFIX: `${prefix}:` };
    // the username in another case: usernames are compared case-insensitively
    const out = execFileSync('npm', ['run', '-s', 'accounts:reset-password', '--', a.username.toUpperCase()], {
      env,
      encoding: 'utf8',
    });
    expect(out).toContain('3 token(s) revoked (sessions and personal tokens)');
    const temporary = /temporary password \(shown once\): (\S+)/.exec(out)?.[1] as string;
    secrets.push(temporary);
    expect(temporary.length).toBeGreaterThanOrEqual(16);
    expect((await req('POST', '/api/session', { body: { username: a.username, password: a.password } })).status).toBe(
      401,
    );
    expect((await req('GET', '/api/me', { token: here.token })).status).toBe(401);
    await until(async () => (await req('GET', '/api/me', { token: elsewhere.token, on: appB })).status === 401);
    // whoever knew the old password may have minted personal tokens: they end too
    expect((await req('GET', '/api/me', { token: bot.token })).status).toBe(401);
    const fresh = await login(a.username, temporary);
    const next = pw();
    const changed = await req('POST', '/api/me/password', {
      token: fresh.token,
      body: { currentPassword: temporary, newPassword: next },
    });
    expect(changed.status).toBe(204);
    // --keep-personal-tokens: the player only forgot the password, the scripts keep working
    const kept = await personal((await login(a.username, next)).token, ['read']);
    const keeping = execFileSync(
      'npm',
      ['run', '-s', 'accounts:reset-password', '--', a.username, '--keep-personal-tokens'],
      { env, encoding: 'utf8' },
    );
    expect(keeping).toContain('(sessions; personal tokens kept)');
    secrets.push(/temporary password \(shown once\): (\S+)/.exec(keeping)?.[1] as string);
    expect((await req('GET', '/api/me', { token: kept.token })).status).toBe(200);
    // an unknown username: exit code 1 and a message
    const unknown = spawnSync('npm', ['run', '-s', 'accounts:reset-password', '--', 'no_such_user_x'], {
      env,
      encoding: 'utf8',
    });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no account has the username');
  });

  test('an operator mints an admin token (npm run admin:token): it creates games, and no route hands one out', async () => {
    const op = await register(`Op_${randomBytes(3).toString('hex')}`);
    const session = await login(op.username, op.password);
    const env = { ...process.env, DATABASE_URL: database.url, ...REDIS_ENV, CHANNEL_PREFIX: `${prefix}:` };
    const out = execFileSync('npm', ['run', '-s', 'admin:token', '--', op.username, '--days', '2'], {
      env,
      encoding: 'utf8',
    });
    const admin = /token \(shown once\): (\S+)/.exec(out)?.[1] as string;
    secrets.push(admin);
    const me = await req('GET', '/api/me', { token: admin });
    expect(me.body.token.scopes).toEqual(['admin']);
    const [a, b] = [
      (await req('POST', '/api/players', { body: { name: 'white' } })).body,
      (await req('POST', '/api/players', { body: { name: 'black' } })).body,
    ];
    expect((await req('POST', '/api/games', { token: admin, body: { sente: a.id, gote: b.id } })).status).toBe(201);
    // an admin token plays no game, and a player's tokens create none
    expect(
      (await req('POST', '/api/games', { token: session.token, body: { sente: a.id, gote: b.id } })).body.code,
    ).toBe('ADMIN_REQUIRED');
    const asked = await req('POST', '/api/tokens', { token: session.token, body: { name: 'x', scopes: ['admin'] } });
    expect(asked.status).toBe(400);
    // it is revoked like any personal token
    const listed = (await req('GET', '/api/tokens', { token: session.token })).body.tokens as {
      id: string;
      scopes: string[];
    }[];
    const row = listed.find((t) => t.scopes.includes('admin'));
    expect((await req('DELETE', `/api/tokens/${row?.id}`, { token: session.token })).status).toBe(204);
    expect((await req('GET', '/api/me', { token: admin })).status).toBe(401);
    const unknown = spawnSync('npm', ['run', '-s', 'admin:token', '--', 'no_such_user_x'], { env, encoding: 'utf8' });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no account has the username');
  });

  test('two password changes at once from one session: one wins, the other is refused', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const [x, y] = [pw(), pw()];
    const answers = await Promise.all(
      [x, y].map((newPassword, i) =>
        req('POST', '/api/me/password', {
          token: session.token,
          body: { currentPassword: a.password, newPassword },
          ...(i === 1 ? { on: appB } : {}),
        }),
      ),
    );
    // the loser read the old hash before the winner wrote (409 CONFLICT), or after (403 WRONG_PASSWORD)
    expect(answers.filter((r) => r.status === 204)).toHaveLength(1);
    expect(answers.map((r) => r.body?.code).filter(Boolean)).toEqual([
      expect.stringMatching(/^(CONFLICT|WRONG_PASSWORD)$/),
    ]);
    const winner = answers[0]?.status === 204 ? x : y;
    const loser = winner === x ? y : x;
    await login(a.username, winner);
    const lost = await req('POST', '/api/session', { body: { username: a.username, password: loser } });
    expect(lost.body.code).toBe('INVALID_CREDENTIALS');
  });

  test('logout revokes the session token; a guest token cannot log out', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    const other = await login(a.username, a.password);
    expect((await req('DELETE', '/api/session', { token: session.token })).status).toBe(204);
    expect((await req('GET', '/api/me', { token: session.token })).status).toBe(401);
    expect((await req('DELETE', '/api/session', { token: session.token })).status).toBe(401);
    // the account's other session lives on
    expect((await req('GET', '/api/me', { token: other.token })).status).toBe(200);
    const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
    expect((await req('DELETE', '/api/session', { token: guest.token })).body.code).toBe('SESSION_REQUIRED');
  });
});

describe('rate limits', () => {
  test('login per IP: 429 RATE_LIMITED with Retry-After, then allowed after the window', async () => {
    const limited = await buildApp(
      configFor({
        // its own counters
        channelPrefix: `${prefix}-limited:`,
        rateLimits: {
          auth: { max: 2, windowMs: 1000 },
          moves: { max: 2, windowMs: 60_000 },
          lobby: { max: 0, windowMs: 1000 },
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
      }),
      createLogger({ level: 'trace' }, sink),
    );
    try {
      const a = await register();
      const attempt = () =>
        req('POST', '/api/session', { body: { username: a.username, password: 'wrong-password' }, on: limited });
      expect((await attempt()).status).toBe(401);
      expect((await attempt()).status).toBe(401);
      const third = await attempt();
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('RATE_LIMITED');
      expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // the window passes: answered again (no clock assertion: wait until it is)
      await until(async () => (await attempt()).status === 401);

      // moves per token: a third move in the window is refused; another player's token is not
      const session = await login(a.username, a.password, limited);
      const guest = (await req('POST', '/api/players', { body: { name: 'guest' } })).body;
      const gameId = await gameBetween(a.id, guest.id);
      expect((await move(gameId, session.token, '7g7f', 0, limited)).status).toBe(202);
      await untilAccepted(gameId, 1);
      expect((await move(gameId, guest.token, '3c3d', 1, limited)).status).toBe(202);
      await untilAccepted(gameId, 2);
      expect((await move(gameId, session.token, '2g2f', 2, limited)).status).toBe(202);
      await untilAccepted(gameId, 3);
      const over = await move(gameId, session.token, '2f2e', 2, limited);
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('RATE_LIMITED');
      expect((await move(gameId, guest.token, '8c8d', 3, limited)).status).toBe(202);
    } finally {
      await limited.close();
    }
  });
});

describe('logs', () => {
  test('no password and no token appears in any log line', () => {
    expect(lines.length).toBeGreaterThan(50);
    expect(secrets.length).toBeGreaterThan(20);
    const text = lines.join('');
    for (const secret of secrets) expect(text.includes(secret), `a secret is in the logs`).toBe(false);
    // the per-request lines were written
    expect(text).toContain('"url":"/api/session"');
  });

  test('the redacted paths hide secrets wherever a handler might log them', () => {
    const out: string[] = [];
    const logger = createLogger(
      { level: 'info' },
      new Writable({
        write(chunk, _e, done) {
          out.push(String(chunk));
          done();
        },
      }),
    );
    logger.info(
      {
        req: { headers: { authorization: 'Bearer s3cret-a' } },
        headers: { authorization: 'Bearer s3cret-b' },
        password: 's3cret-c',
        body: { password: 's3cret-d', username: 'visible' },
        token: 's3cret-e',
        session: { token: 's3cret-f', tokenHash: 's3cret-g' },
      },
      'x',
    );
    logger.info({ req: { url: '/api/games/g/ws?token=s3cret-h&after=1' } }, 'y');
    const text = out.join('');
    expect(text).toContain('visible');
    expect(text).not.toMatch(/s3cret/);
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function untilAccepted(gameId: string, ply: number): Promise<void> {
  await until(async () => (await req('GET', `/api/games/${gameId}`)).body.ply >= ply);
}

describe('the personal-token limit under concurrency', () => {
  test('twelve tokens asked at once with 45 held: 50 active, the rest TOO_MANY_TOKENS', async () => {
    const a = await register();
    const session = await login(a.username, a.password);
    for (let i = 0; i < 45; i++) await personal(session.token, ['read']);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        req('POST', '/api/tokens', { token: session.token, body: { name: 'burst', scopes: ['read'] } }),
      ),
    );
    for (const r of answers) if (r.status === 201) secrets.push(r.body.token);
    expect(answers.filter((r) => r.status === 201)).toHaveLength(5);
    expect(answers.filter((r) => r.body.code === 'TOO_MANY_TOKENS')).toHaveLength(7);
    const list = await req('GET', '/api/tokens', { token: session.token });
    expect(list.body.tokens.filter((t: { kind: string }) => t.kind === 'personal')).toHaveLength(50);
  });
});
