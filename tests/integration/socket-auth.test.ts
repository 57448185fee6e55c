/**
 * Authenticated sockets against revocation and floods, on two gateways sharing PostgreSQL
 * and Redis: a logout, a revoked personal token, a password change and an expiry close
 * every socket opened with the token, on both gateways, without the client sending
 * anything; sockets are capped per player and per IP; unknown bearer tokens are capped per IP.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { buildApp } from '@shogi/gateway';
import { insertToken } from '@shogi/store';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { bearer, call, NO_LIMIT, REDIS_ENV, type Stack, silentLogger, startStack } from './harness.js';

const execFileAsync = promisify(execFile);

let stack: Stack;
/** a second gateway on the same database and Redis */
let appB: FastifyInstance;
let urlA: string;
let urlB: string;

beforeAll(async () => {
  stack = await startStack({
    listen: true,
    worker: false,
    config: {
      // a revocation must reach the other gateway through its Redis notice, not the cache age
      authCacheMs: 60_000,
      socketMaxPerPlayer: 3,
      socketMaxPerIp: 8,
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
    },
  });
  urlA = stack.baseUrl;
  appB = await buildApp(stack.config, silentLogger());
  urlB = await appB.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await appB?.close();
  await stack?.close();
});

let accounts = 0;
async function account() {
  const username = `player${++accounts}`;
  const password = 'correct horse battery';
  const created = await call(stack.app, 'POST', '/api/accounts', { username, password });
  expect(created.status).toBe(201);
  const login = async () => (await call(stack.app, 'POST', '/api/session', { username, password })).body;
  return { id: created.body.id as string, username, password, login };
}

interface OpenSocket {
  readonly ws: WebSocket;
  /** resolves with the close code */
  readonly closed: Promise<number>;
}

function open(base: string, path: string, token: string): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, { headers: bearer(token) });
    const closed = new Promise<number>((done) => ws.once('close', (code) => done(code)));
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** The HTTP status of a refused upgrade (101 when it opened). */
function upgradeStatus(base: string, path: string, token: string): Promise<number> {
  return open(base, path, token).then(
    (s) => {
      s.ws.close();
      return 101;
    },
    (err: Error) => Number(/refused: (\d+)/.exec(err.message)?.[1] ?? 0),
  );
}

/** The close code, if the socket closes within `ms`. */
const closesWithin = (socket: OpenSocket, ms: number) =>
  Promise.race([socket.closed, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

describe('a token that goes closes its sockets on every gateway within a second', () => {
  test('logout: lobby sockets on both gateways close with 4001', async () => {
    const a = await account();
    const session = await a.login();
    const onA = await open(urlA, '/api/lobby/ws', session.token);
    const onB = await open(urlB, '/api/lobby/ws', session.token);
    expect((await call(stack.app, 'DELETE', '/api/session', undefined, bearer(session.token))).status).toBe(204);
    expect(await closesWithin(onA, 1000)).toBe(4001);
    expect(await closesWithin(onB, 1000)).toBe(4001);
  });

  test('a revoked personal token: its player socket on the other gateway closes with 4001', async () => {
    const a = await account();
    const session = await a.login();
    const personal = (
      await call(stack.app, 'POST', '/api/tokens', { name: 'bot', scopes: ['play'] }, bearer(session.token))
    ).body;
    // a game of this account's (the admin route takes any two players)
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'guest' })).body;
    const created = await call(
      stack.app,
      'POST',
      '/api/games',
      { sente: a.id, gote: guest.id },
      bearer(stack.adminToken),
    );
    expect(created.status).toBe(201);
    const socket = await open(urlB, `/api/games/${created.body.id}/ws`, personal.token);
    const other = await open(urlA, '/api/lobby/ws', session.token);
    const revoked = await call(stack.app, 'DELETE', `/api/tokens/${personal.id}`, undefined, bearer(session.token));
    expect(revoked.status).toBe(204);
    expect(await closesWithin(socket, 1000)).toBe(4001);
    // the session's own socket stays
    expect(await closesWithin(other, 300)).toBe('still open');
    other.ws.close();
  });

  test("a password change closes the account's other sessions' sockets and, by default, its personal tokens' sockets", async () => {
    const a = await account();
    const [kept, stolen] = [await a.login(), await a.login()];
    const minted = (
      await call(stack.app, 'POST', '/api/tokens', { name: 'minted', scopes: ['play'] }, bearer(stolen.token))
    ).body;
    const thief = await open(urlB, '/api/lobby/ws', stolen.token);
    const thiefsToken = await open(urlB, '/api/lobby/ws', minted.token);
    const owner = await open(urlA, '/api/lobby/ws', kept.token);
    const changed = await call(
      stack.app,
      'POST',
      '/api/me/password',
      { currentPassword: a.password, newPassword: 'another good passphrase' },
      bearer(kept.token),
    );
    expect(changed.status).toBe(204);
    expect(await closesWithin(thief, 1000)).toBe(4001);
    expect(await closesWithin(thiefsToken, 1000)).toBe(4001);
    expect(await closesWithin(owner, 300)).toBe('still open');
    owner.ws.close();
  });

  test('an expiring token closes its socket when it expires', async () => {
    const a = await account();
    const token = `expiring-${randomUUID()}`;
    const { createHash } = await import('node:crypto');
    await insertToken(stack.db, {
      id: randomUUID(),
      playerId: a.id,
      kind: 'personal',
      name: 'short',
      tokenHash: createHash('sha256').update(token).digest('hex'),
      scopes: ['play', 'read'],
      expiresAt: new Date(Date.now() + 1500),
    });
    const socket = await open(urlA, '/api/lobby/ws', token);
    expect(await closesWithin(socket, 3000)).toBe(4001);
  });
});

describe('limits', () => {
  test('sockets per player: past SOCKET_MAX_PER_PLAYER the upgrade is 429', async () => {
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'many tabs' })).body;
    const sockets = [];
    for (let i = 0; i < 3; i++) sockets.push(await open(urlA, '/api/lobby/ws', guest.token));
    expect(await upgradeStatus(urlA, '/api/lobby/ws', guest.token)).toBe(429);
    sockets[0]?.ws.close();
    await sockets[0]?.closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(await upgradeStatus(urlA, '/api/lobby/ws', guest.token)).toBe(101);
    for (const s of sockets) s.ws.close();
    await Promise.all(sockets.map((s) => s.closed));
  });

  test('sockets per IP: past SOCKET_MAX_PER_IP the upgrade is 429, whoever the player', async () => {
    const guests = [];
    for (let i = 0; i < 9; i++) guests.push((await call(stack.app, 'POST', '/api/players', { name: `g${i}` })).body);
    const sockets = [];
    for (const g of guests.slice(0, 8)) sockets.push(await open(urlA, '/api/lobby/ws', g.token));
    expect(await upgradeStatus(urlA, '/api/lobby/ws', guests[8].token)).toBe(429);
    for (const s of sockets) s.ws.close();
    await Promise.all(sockets.map((s) => s.closed));
  });

  test('unknown bearer tokens: past AUTH_FAILURES_MAX an IP gets 429 with Retry-After, a valid or newly issued token still works', async () => {
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'known' })).body;
    // looked up once, so it is in the gateway's cache
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(guest.token))).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await stack.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: bearer(`random-${i}-${randomUUID()}`),
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(guest.token))).status).toBe(200);
    // the guesser shares the address with others: tokens issued to them here since are no
    // guesses, and work from that address at once (a guest's, a session's, a personal one)
    const neighbour = (await call(stack.app, 'POST', '/api/players', { name: 'neighbour' })).body;
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(neighbour.token))).status).toBe(200);
    const a = await account();
    const session = await a.login();
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(session.token))).status).toBe(200);
    const personal = (
      await call(stack.app, 'POST', '/api/tokens', { name: 'script', scopes: ['read'] }, bearer(session.token))
    ).body;
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(personal.token))).status).toBe(200);
    // a guess is still refused
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(`random-${randomUUID()}`))).status).toBe(429);
  });

  test("a guest's replaced token works at once from an address past its failures, on either gateway", async () => {
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'rotating' })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await call(stack.app, 'GET', '/api/me', undefined, bearer(`random-r-${i}-${randomUUID()}`))).status,
      );
      statuses.push((await call(appB, 'GET', '/api/me', undefined, bearer(`random-r-${i}-${randomUUID()}`))).status);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // the guest replaces its token from that address: the new one was issued here, no guess
    const replaced = await call(stack.app, 'POST', '/api/me/token', undefined, bearer(guest.token));
    expect(replaced.status).toBe(201);
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(replaced.body.token))).status).toBe(200);
    expect((await call(appB, 'GET', '/api/me', undefined, bearer(replaced.body.token))).status).toBe(200);
    // and the one it replaced is refused: the filters still hold it until their next seeding,
    // so it costs a lookup, as a false positive does
    expect((await call(appB, 'GET', '/api/me', undefined, bearer(guest.token))).status).toBe(401);
  });

  test('an admin token an operator mints with the CLI works at once from an address past its failures', async () => {
    const op = await account();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await call(stack.app, 'GET', '/api/me', undefined, bearer(`random-cli-${randomUUID()}`))).status);
      statuses.push((await call(appB, 'GET', '/api/me', undefined, bearer(`random-cli-${randomUUID()}`))).status);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // minted outside every gateway, as `npm run admin:token` does: no gateway has looked it up
    const env = {
      ...process.env,
      DATABASE_URL: stack.config.databaseUrl,
      ...REDIS_ENV,
      CHANNEL_PREFIX: stack.config.channelPrefix,
    };
    // run apart, not with execFileSync: the gateways here read its announcement meanwhile
    const { stdout: out } = await execFileAsync('npm', ['run', '-s', 'admin:token', '--', op.username], {
      env,
      encoding: 'utf8',
    });
    const admin = /token \(shown once\): (\S+)/.exec(out)?.[1] as string;
    expect((await call(stack.app, 'GET', '/api/me', undefined, bearer(admin))).status).toBe(200);
    expect((await call(appB, 'GET', '/api/me', undefined, bearer(admin))).status).toBe(200);
  }, 60_000);

  test('a token issued on one gateway works on another from an address past its failures there', async () => {
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'elsewhere' })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await call(appB, 'GET', '/api/me', undefined, bearer(`random-b-${i}-${randomUUID()}`))).status);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(statuses.at(-1)).toBe(429);
    // gateway B has never looked it up: gateway A, which issued it, announced it to the others
    expect((await call(appB, 'GET', '/api/me', undefined, bearer(guest.token))).status).toBe(200);
    expect((await call(appB, 'GET', '/api/me', undefined, bearer(`random-${randomUUID()}`))).status).toBe(429);
  });
});
