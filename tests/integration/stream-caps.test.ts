/**
 * Long-lived HTTP streams under the same caps as sockets, over real connections to listening
 * gateways: the public game stream and the record downloads count against the address's
 * public connections (WATCH_MAX_PER_IP) with the spectator sockets; lishogi's event and game
 * streams count against SOCKET_MAX_PER_IP and SOCKET_MAX_PER_PLAYER with the player and lobby
 * sockets, an account's tokens together. Past a cap: 429 TOO_MANY_CONNECTIONS with Retry-After
 * before the first byte; a stream that closes, whoever closes it, gives its slot back.
 */
import { request as httpRequest } from 'node:http';
import { createConnection } from 'node:net';
import { buildApp, loadConfig } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { bearer, call, NO_LIMIT, newGame, type Stack, silentLogger, startStack } from './harness.js';
import { accountWithToken, type TestAccount } from './lishogi-event-stream.js';

let stack: Stack;
/** a second gateway on the same database and Redis, with low caps */
let low: FastifyInstance;
let lowUrl: string;
const LOW = { watchMaxPerIp: 3, socketMaxPerIp: 5, socketMaxPerPlayer: 3 } as const;

beforeAll(async () => {
  const defaults = loadConfig({});
  stack = await startStack({
    listen: true,
    worker: false,
    // many accounts and guests from 127.0.0.1; the caps under test are not rate limits
    config: { rateLimits: { ...defaults.rateLimits, auth: NO_LIMIT, guests: NO_LIMIT, exports: NO_LIMIT } },
  });
  low = await buildApp({ ...stack.config, ...LOW }, silentLogger());
  lowUrl = await low.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await low?.close();
  await stack?.close();
});

interface Opened {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
  /** resolves once the connection has closed */
  readonly closed: Promise<void>;
  /** the client leaves: the connection is torn down */
  close(): void;
}

/**
 * One request on a connection of its own. A 200 is left open (its body read and dropped, as a
 * client that keeps up reads it); any other answer is read to its end.
 */
function openStream(base: string, path: string, token?: string): Promise<Opened> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, agent: false, headers: token ? bearer(token) : {} },
      (res) => {
        const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
        const retryAfter = res.headers['retry-after'];
        const status = res.statusCode ?? 0;
        if (status === 200) {
          res.resume();
          resolve({ status, retryAfter, body: '', closed, close: () => req.destroy() });
          return;
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status, retryAfter, body, closed, close: () => req.destroy() }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** `count` streams opened `batch` at a time from this address. */
async function openMany(base: string, path: string, token: string, count: number, batch = 100): Promise<Opened[]> {
  const all: Opened[] = [];
  for (let i = 0; i < count; i += batch) {
    const n = Math.min(batch, count - i);
    all.push(...(await Promise.all(Array.from({ length: n }, () => openStream(base, path, token)))));
  }
  return all;
}

const connectionsOf = (app: FastifyInstance) =>
  new Promise<number>((resolve, reject) =>
    app.server.getConnections((err, n) => (err === null || err === undefined ? resolve(n) : reject(err))),
  );

async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function closeAll(streams: readonly Opened[]): Promise<void> {
  for (const s of streams) s.close();
  await Promise.all(streams.map((s) => s.closed));
}

function openSocket(base: string, path: string, token?: string): Promise<{ ws: WebSocket; status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, { headers: token ? bearer(token) : {} });
    ws.once('open', () => resolve({ ws, status: 101 }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ ws, status: res.statusCode ?? 0 });
      res.resume();
    });
  });
}

const expectRefused = (opened: Opened) => {
  expect(opened.status).toBe(429);
  expect(Number(opened.retryAfter)).toBeGreaterThan(0);
};

describe('1,500 streams of each kind on one token from one address, with the default caps', () => {
  test('past the caps each is 429 with Retry-After, the gateway holds only the capped ones, and closing them frees the slots', async () => {
    const defaults = loadConfig({});
    expect({
      watch: stack.config.watchMaxPerIp,
      ip: stack.config.socketMaxPerIp,
      player: stack.config.socketMaxPerPlayer,
    }).toEqual({ watch: defaults.watchMaxPerIp, ip: defaults.socketMaxPerIp, player: defaults.socketMaxPerPlayer });
    const account = await accountWithToken(stack.app, 'Streamer', ['challenge:read', 'board:play']);
    const { game } = await newGame(stack.app);
    const gamePath = `/api/games/${game.id}/stream`;

    const gameStreams = await openMany(stack.baseUrl, gamePath, account.token, 1_500);
    const eventStreams = await openMany(stack.baseUrl, '/api/stream/event', account.token, 1_500);
    const open = [...gameStreams, ...eventStreams].filter((s) => s.status === 200);
    expect(gameStreams.filter((s) => s.status === 200)).toHaveLength(defaults.watchMaxPerIp);
    // the event stream needs the token: the player's cap, which every token of the account shares
    expect(eventStreams.filter((s) => s.status === 200)).toHaveLength(defaults.socketMaxPerPlayer);
    for (const refused of [...gameStreams, ...eventStreams].filter((s) => s.status !== 200)) expectRefused(refused);
    expect(JSON.parse(gameStreams.at(-1)?.body ?? '{}')).toMatchObject({ code: 'TOO_MANY_CONNECTIONS' });
    // what the gateway keeps is bounded by the caps, not by what was asked: the refused
    // connections are closed, only the streams it serves stay
    await until(async () => (await connectionsOf(stack.app)) <= open.length);

    await closeAll(open);
    await until(async () => (await openStream(stack.baseUrl, gamePath)).status === 200);
    const again = await openMany(stack.baseUrl, '/api/stream/event', account.token, defaults.socketMaxPerPlayer, 5);
    expect(again.map((s) => s.status)).toEqual(again.map(() => 200));
    await closeAll(again);
  }, 60_000);
});

describe('the caps, lowered', () => {
  test("an account's tokens share one cap with its sockets; a closed stream frees its slot", async () => {
    const a = await accountWithToken(low, 'ManyTokens', ['challenge:read']);
    const second = (
      await call(low, 'POST', '/api/tokens', { name: 'second', scopes: ['challenge:read'] }, bearer(a.session))
    ).body.token as string;
    const lobby = await openSocket(lowUrl, '/api/lobby/ws', a.session);
    expect(lobby.status).toBe(101);
    const one = await openStream(lowUrl, '/api/stream/event', a.token);
    const two = await openStream(lowUrl, '/api/stream/event', second);
    expect([one.status, two.status]).toEqual([200, 200]);
    // SOCKET_MAX_PER_PLAYER (3) reached, whatever the token
    expectRefused(await openStream(lowUrl, '/api/stream/event', a.token));
    expectRefused(await openStream(lowUrl, '/api/stream/event', second));
    expect((await openSocket(lowUrl, '/api/lobby/ws', a.session)).status).toBe(429);
    // the client leaves: the slot is free again
    one.close();
    await until(async () => {
      const next = await openStream(lowUrl, '/api/stream/event', second);
      next.close();
      return next.status === 200;
    });
    two.close();
    lobby.ws.close();
  });

  test('per address, whoever the player: streams and sockets together, SOCKET_MAX_PER_IP', async () => {
    const players: TestAccount[] = [];
    for (let i = 0; i < 6; i++) players.push(await accountWithToken(low, `Neighbour${i}`, ['challenge:read']));
    const lobby = await openSocket(lowUrl, '/api/lobby/ws', players[0]?.session ?? '');
    expect(lobby.status).toBe(101);
    const streams: Opened[] = [];
    for (const p of players.slice(1, 5)) streams.push(await openStream(lowUrl, '/api/stream/event', p.token));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    expectRefused(await openStream(lowUrl, '/api/stream/event', players[5]?.token ?? ''));
    await closeAll(streams);
    lobby.ws.close();
    await until(async () => {
      const next = await openStream(lowUrl, '/api/stream/event', players[5]?.token ?? '');
      next.close();
      return next.status === 200;
    });
  });

  test("lishogi's game stream counts with the player's streams; a reconnect at the cap replaces the stream it left", async () => {
    const a = await accountWithToken(low, 'BoardPlayer', ['board:play']);
    const guest = (await call(low, 'POST', '/api/players', { name: 'opponent' })).body;
    const created = await call(low, 'POST', '/api/games', { sente: a.id, gote: guest.id }, bearer(stack.adminToken));
    expect(created.status).toBe(201);
    const path = `/api/board/game/stream/${created.body.id}`;
    const events = [
      await openStream(lowUrl, '/api/stream/event', a.token),
      await openStream(lowUrl, '/api/stream/event', a.token),
    ];
    const first = await openStream(lowUrl, path, a.token);
    expect([...events, first].map((s) => s.status)).toEqual([200, 200, 200]);
    expectRefused(await openStream(lowUrl, '/api/stream/event', a.token));
    // the same game again: its old stream ends and hands its slot over
    const second = await openStream(lowUrl, path, a.token);
    expect(second.status).toBe(200);
    await first.closed;
    expectRefused(await openStream(lowUrl, '/api/stream/event', a.token));
    await closeAll([...events, second]);
  });

  test('a revoked token ends its event stream at once, and the slot is free', async () => {
    const a = await accountWithToken(low, 'Revoked', ['challenge:read']);
    const tokens = (await call(low, 'GET', '/api/tokens', undefined, bearer(a.session))).body.tokens as {
      id: string;
      kind: string;
    }[];
    const personal = tokens.find((t) => t.kind === 'personal');
    const stream = await openStream(lowUrl, '/api/stream/event', a.token);
    expect(stream.status).toBe(200);
    expect((await call(low, 'DELETE', `/api/tokens/${personal?.id}`, undefined, bearer(a.session))).status).toBe(204);
    const within = await Promise.race([
      stream.closed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open'), 2_000)),
    ]);
    expect(within).toBe('closed');
  });

  test('the public game stream and the record downloads share the address cap (WATCH_MAX_PER_IP) with the spectator sockets', async () => {
    const { game, players } = await newGame(stack.app);
    const gamePath = `/api/games/${game.id}/stream`;
    const held = [await openStream(lowUrl, gamePath), await openStream(lowUrl, gamePath)];
    const watcher = await openSocket(lowUrl, `/api/games/${game.id}/watch`);
    expect([...held.map((s) => s.status), watcher.status]).toEqual([200, 200, 101]);
    for (const path of [
      gamePath,
      '/api/games/export',
      `/api/players/${players.sente.id}/games.ndjson`,
      `/api/players/${players.sente.id}/games.csa`,
    ])
      expectRefused(await openStream(lowUrl, path));
    expect((await openSocket(lowUrl, `/api/games/${game.id}/watch`)).status).toBe(429);
    await closeAll(held);
    watcher.ws.close();
    // a download the server finishes gives its slot back: more of them than the cap, one after another
    await until(async () => (await openStream(lowUrl, '/api/games/export')).status === 200);
    for (let i = 0; i < LOW.watchMaxPerIp + 2; i++) {
      const csa = await openStream(lowUrl, `/api/players/${players.sente.id}/games.csa`);
      expect(csa.status).toBe(200);
      await csa.closed;
    }
  });

  test('a public game stream on a game nobody moves in asks the TCP peer to prove it is there: a client gone without a FIN frees its slot', async () => {
    // a stream of a quiet game writes nothing, so without keep-alive probes a peer that
    // vanished (a dropped link, a NAT that forgot it) would hold its slot until the game ends
    const probes: unknown[][] = [];
    const watch = (socket: import('node:net').Socket) => {
      const setKeepAlive = socket.setKeepAlive.bind(socket);
      socket.setKeepAlive = (...args: Parameters<typeof socket.setKeepAlive>) => {
        probes.push(args);
        return setKeepAlive(...args);
      };
    };
    low.server.on('connection', watch);
    try {
      const { game } = await newGame(stack.app);
      const stream = await openStream(lowUrl, `/api/games/${game.id}/stream`);
      expect(stream.status).toBe(200);
      expect(probes.some(([enable, delay]) => enable === true && typeof delay === 'number' && delay > 0)).toBe(true);
      await closeAll([stream]);
    } finally {
      low.server.off('connection', watch);
    }
  });

  test('a player socket whose client stops answering pings is dropped, and its slot freed', async () => {
    // the player socket shares the player's cap with the streams: a client gone without a FIN
    // from a quiet game, where nothing is written, would otherwise hold its slot for good
    const quick = await buildApp({ ...stack.config, ...LOW, watchHeartbeatMs: 200 }, silentLogger());
    const quickUrl = await quick.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { game, players } = await newGame(stack.app);
      const path = `/api/games/${game.id}/ws`;
      const mute = new WebSocket(`${quickUrl.replace(/^http/, 'ws')}${path}`, {
        headers: bearer(players.sente.token),
        autoPong: false,
      });
      const closed = new Promise<number>((resolve) => mute.once('close', (code) => resolve(code)));
      await new Promise((resolve, reject) => {
        mute.once('open', resolve);
        mute.once('unexpected-response', () => reject(new Error('upgrade refused')));
      });
      const lively = await openSocket(quickUrl, path, players.sente.token);
      expect(lively.status).toBe(101);
      const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 3_000));
      expect(await Promise.race([closed, timeout])).toBe(1006);
      expect(lively.ws.readyState).toBe(WebSocket.OPEN);
      lively.ws.close();
    } finally {
      await quick.close();
    }
  });

  test('a client that leaves while its stream is being set up (before the first byte) leaves no slot held', async () => {
    const { game, players } = await newGame(stack.app);
    const { port } = new URL(lowUrl);
    // each request is sent and its connection dropped at once: the gateway is still reading
    // the game (delay=1 reads it first) or the player's games when it sees the client gone
    const leave = (path: string, token?: string) =>
      new Promise<void>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port: Number(port) }, () => {
          const auth = token === undefined ? '' : `Authorization: Bearer ${token}\r\n`;
          socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`, () => socket.destroy());
        });
        socket.on('close', () => resolve());
        socket.on('error', () => undefined);
      });
    for (let i = 0; i < 4 * LOW.watchMaxPerIp; i++) {
      await leave(`/api/games/${game.id}/stream?delay=1`);
      await leave(`/api/players/${players.sente.id}/games.ndjson`);
    }
    // lishogi's game stream reads the game and its players before it counts the stream
    const a = await accountWithToken(low, 'LeavingPlayer', ['board:play']);
    const guest = (await call(low, 'POST', '/api/players', { name: 'opponent' })).body;
    const created = await call(low, 'POST', '/api/games', { sente: a.id, gote: guest.id }, bearer(stack.adminToken));
    for (let i = 0; i < 4 * LOW.socketMaxPerPlayer; i++)
      await leave(`/api/board/game/stream/${created.body.id}`, a.token);
    await new Promise((r) => setTimeout(r, 300));
    const streams = [];
    for (let i = 0; i < LOW.watchMaxPerIp; i++) streams.push(await openStream(lowUrl, `/api/games/${game.id}/stream`));
    expect(streams.map((s) => s.status)).toEqual(Array(LOW.watchMaxPerIp).fill(200));
    const events = [];
    for (let i = 0; i < LOW.socketMaxPerPlayer; i++)
      events.push(await openStream(lowUrl, '/api/stream/event', a.token));
    expect(events.map((s) => s.status)).toEqual(Array(LOW.socketMaxPerPlayer).fill(200));
    await closeAll([...streams, ...events]);
  });
});
