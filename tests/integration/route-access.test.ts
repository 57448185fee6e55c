/**
 * Every route of the OpenAPI document, called without a token and with a token that lacks
 * what the route needs (apps/gateway/src/access.ts): 401 and 403 before anything else is
 * looked at, and the right token gets past the door. A route missing from the access table
 * stops the gateway at startup, and one whose document entry disagrees with the table fails
 * here. Tokens in URLs are refused on every API route.
 */
import { type Access, accessOf, BotRegistry, ROUTE_ACCESS } from '@shogi/gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, mintAdminToken, type Stack, startStack } from './harness.js';

let stack: Stack;
let tokens: Record<'guest' | 'session' | 'readOnly' | 'playOnly' | 'botPlay' | 'boardPlay' | 'admin' | 'mod', string>;
interface Operation {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** as Fastify registers it: `/api/games/:id` */
  readonly route: string;
  readonly url: string;
  readonly access: Access;
  readonly documented: unknown;
}
let operations: Operation[];

async function inject(method: Operation['method'], url: string, token?: string, body?: unknown) {
  const res = await stack.app.inject({
    method,
    url,
    headers: { ...(token === undefined ? {} : bearer(token)), 'content-type': 'application/json' },
    ...(method === 'GET' ? {} : { payload: JSON.stringify(body ?? {}) }),
  });
  return { status: res.statusCode, code: res.body === '' ? null : (JSON.parse(res.body) as { code?: string }).code };
}

beforeAll(async () => {
  // with a bot registry, so the bot routes are there too
  stack = await startStack({ worker: false, extras: { bots: new BotRegistry() } });
  const guest = (await call(stack.app, 'POST', '/api/players', { name: 'guest' })).body.token as string;
  await call(stack.app, 'POST', '/api/accounts', { username: 'someone', password: 'correct horse' });
  const session = (await call(stack.app, 'POST', '/api/session', { username: 'someone', password: 'correct horse' }))
    .body.token as string;
  const personal = async (scopes: string[]) =>
    (await call(stack.app, 'POST', '/api/tokens', { name: scopes.join('+'), scopes }, bearer(session))).body
      .token as string;
  tokens = {
    guest,
    session,
    readOnly: await personal(['read']),
    playOnly: await personal(['play']),
    botPlay: await personal(['bot:play']),
    boardPlay: await personal(['board:play']),
    admin: stack.adminToken,
    mod: await mintAdminToken(stack.db, 'mod'),
  };
  const doc = (await call(stack.app, 'GET', '/docs/json')).body as {
    paths: Record<string, Record<string, { 'x-access'?: unknown }>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'delete'].includes(method))
      .map(([method, op]) => {
        const route = path.replace(/\{(\w+)\}/g, ':$1');
        const upper = method.toUpperCase() as Operation['method'];
        const access = accessOf(upper, route);
        if (access === undefined) throw new Error(`${upper} ${route} is in the document but not in ROUTE_ACCESS`);
        const url = path.replace('{category}', 'byoyomi').replace(/\{\w+\}/g, 'x1');
        return { method: upper, route, url, access, documented: op['x-access'] };
      }),
  );
});

afterAll(async () => {
  await stack?.close();
});

/** The token that lacks just what each access asks for, and the code its refusal carries. */
const lacking: Record<Exclude<Access, 'public' | 'token'>, { token: keyof typeof tokens; code: string }> = {
  play: { token: 'readOnly', code: 'INSUFFICIENT_SCOPE' },
  read: { token: 'playOnly', code: 'INSUFFICIENT_SCOPE' },
  admin: { token: 'session', code: 'ADMIN_REQUIRED' },
  mod: { token: 'admin', code: 'MOD_REQUIRED' },
  session: { token: 'guest', code: 'SESSION_REQUIRED' },
  guest: { token: 'session', code: 'GUEST_TOKEN_REQUIRED' },
  'bot:play': { token: 'boardPlay', code: 'INSUFFICIENT_SCOPE' },
  'board:play': { token: 'botPlay', code: 'INSUFFICIENT_SCOPE' },
  'challenge:read': { token: 'playOnly', code: 'INSUFFICIENT_SCOPE' },
  'challenge:write': { token: 'playOnly', code: 'INSUFFICIENT_SCOPE' },
  'tournament:write': { token: 'readOnly', code: 'INSUFFICIENT_SCOPE' },
};
const fitting: Record<Exclude<Access, 'public'>, keyof typeof tokens> = {
  token: 'readOnly',
  play: 'playOnly',
  read: 'readOnly',
  admin: 'admin',
  mod: 'mod',
  session: 'session',
  guest: 'guest',
  'bot:play': 'botPlay',
  'board:play': 'boardPlay',
  // lishogi's challenge routes also take the scope a bot plays with
  'challenge:read': 'botPlay',
  'challenge:write': 'botPlay',
  // lichess's tournament scope, or this server's play scope
  'tournament:write': 'playOnly',
};
/** Streams that stay open once past the door: their own tests read them (lishogi-events.test.ts). */
const OPEN_STREAMS = ['GET /api/stream/event'];
const REFUSALS = ['UNAUTHORIZED', 'INSUFFICIENT_SCOPE', 'ADMIN_REQUIRED', 'SESSION_REQUIRED', 'GUEST_TOKEN_REQUIRED'];

describe('the access table', () => {
  test('covers the document both ways, and the document states each access', () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const op of operations) expect(op.documented, `${op.method} ${op.route}`).toBe(op.access);
    const documented = new Set(operations.map((op) => `${op.method} ${op.route}`));
    const hidden = ['GET /', 'GET /*'];
    const missing = Object.keys(ROUTE_ACCESS).filter((key) => !documented.has(key) && !hidden.includes(key));
    expect(missing, 'table entries without a route in the document').toEqual([]);
  });

  test('creating games is for admins; players start them by consent', () => {
    expect(ROUTE_ACCESS['POST /api/games']).toBe('admin');
  });
});

describe('every route', () => {
  test('without a token: 401 unless public', async () => {
    for (const op of operations) {
      const { status, code } = await inject(op.method, op.url);
      if (op.access === 'public') expect(status, `${op.method} ${op.url}`).not.toBe(401);
      else
        expect({ route: `${op.method} ${op.url}`, status, code }).toEqual({
          route: `${op.method} ${op.url}`,
          status: 401,
          code: 'UNAUTHORIZED',
        });
    }
  });

  test('with a token lacking its scope or kind: 403, whatever the body', async () => {
    for (const op of operations) {
      if (op.access === 'public' || op.access === 'token') continue;
      const { token, code: expected } = lacking[op.access];
      // a body that no schema accepts: the scope is checked before it is read
      const { status, code } = await inject(op.method, op.url, tokens[token], { nonsense: true });
      expect({ route: `${op.method} ${op.url}`, status, code }).toEqual({
        route: `${op.method} ${op.url}`,
        status: 403,
        code: expected,
      });
    }
  });

  test('with the fitting token: past the door (any other answer is the route’s own)', async () => {
    for (const op of operations) {
      if (op.access === 'public') continue;
      // these end what they are given: the session and the guest token the other checks need
      if (['DELETE /api/session', 'POST /api/me/token', 'POST /api/me/password'].includes(`${op.method} ${op.route}`))
        continue;
      if (OPEN_STREAMS.includes(`${op.method} ${op.route}`)) continue;
      const { code } = await inject(op.method, op.url, tokens[fitting[op.access]]);
      expect(REFUSALS, `${op.method} ${op.url} answered ${code}`).not.toContain(code);
    }
  });
});

describe('tokens in URLs', () => {
  test.each([
    ['GET', '/api/me'],
    ['POST', '/api/tokens'],
    ['GET', '/api/games/x1'],
    ['GET', '/api/lobby/ws'],
    ['GET', '/api/games/x1/ws'],
  ] as const)('%s %s?token= is refused with TOKEN_IN_URL', async (method, url) => {
    const { status, code } = await inject(method, `${url}?token=${tokens.session}`);
    expect({ status, code }).toEqual({ status: 400, code: 'TOKEN_IN_URL' });
  });

  test('a socket ticket opens one socket once; a ticket means nothing on an HTTP route', async () => {
    const { status, body } = await call(stack.app, 'POST', '/api/socket-ticket', {}, bearer(tokens.guest));
    expect(status).toBe(201);
    expect(body.ticket).toMatch(/^[A-Za-z0-9_-]{20,64}$/);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    // an HTTP route never reads a ticket
    expect((await inject('GET', `/api/me?ticket=${body.ticket}`)).status).toBe(401);
    const url = `${(await stack.app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws')}/api/lobby/ws`;
    const { default: WebSocket } = await import('ws');
    const open = (ticket: string) =>
      new Promise<number | 'open'>((resolve) => {
        const ws = new WebSocket(`${url}?ticket=${ticket}`);
        ws.once('open', () => {
          ws.close();
          resolve('open');
        });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve(0));
      });
    expect(await open(body.ticket)).toBe('open');
    expect(await open(body.ticket)).toBe(401);
    expect(await open('made-up-ticket')).toBe(401);
  });

  test('tickets are limited per account like lobby writes (429 with Retry-After)', async () => {
    const { max } = stack.config.rateLimits.lobby;
    // an account of its own: the lobby limit counts every token of an account together
    await call(stack.app, 'POST', '/api/accounts', { username: 'ticketer', password: 'correct horse' });
    const session = (await call(stack.app, 'POST', '/api/session', { username: 'ticketer', password: 'correct horse' }))
      .body.token as string;
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++)
      statuses.push((await call(stack.app, 'POST', '/api/socket-ticket', {}, bearer(session))).status);
    expect(statuses.slice(0, max).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
