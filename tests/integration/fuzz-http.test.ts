/**
 * Property-based fuzzing of every route (issue 8): generated HTTP requests through
 * app.inject() and WebSocket frames on a real port, seeded so a failure replays. Whatever
 * comes in — malformed JSON, wrong types, huge bodies and frames, invalid USI and SFEN,
 * moves in another player's game, spectator sockets sending moves, forged tokens, replayed
 * idempotency keys, SQL metacharacters, unicode, path traversal — the gateway answers with
 * a status below 500 and, for errors, a catalog body `{code, message}` whose status matches
 * the catalog; WebSocket errors are catalog error frames and sockets close only with the
 * documented codes. Afterwards every state change is one a 2xx answered for, and the
 * audit holds.
 */
import { ERROR_CODES, ERRORS, type ErrorCode } from '@shogi/protocol';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { type Acknowledged, auditWhenSettled } from './audit.js';
import { MATE_GAME } from './fixtures.js';
import { bearer, call, newGame, type Players, type Stack, startStack } from './harness.js';

const HTTP_RUNS = 7_600;
/** requests in flight at once (a property run sends a batch): the gateway serves clients concurrently */
const HTTP_BATCH = 4;
const WS_RUNS = 650; // about 4 frames each (a socket stops at a huge frame), plus upgrade attempts
const SEED = 20261130;

let stack: Stack;
let main: { id: string; players: Players };
let other: { id: string; players: Players };
let ended: { id: string; players: Players };
const acknowledged: Acknowledged[] = [];
const created = { players: 0, games: 0, resigned: new Set<string>(), imported: new Set<string>() };
const counted = { http: 0, frames: 0, upgrades: 0, importsRead: 0 };
/** A game played to checkmate between the fuzzed requests (then another), with idempotency keys. */
let fixture: { id: string; players: Players; round: number };
/** the first 202 for each idempotency key of the fixture games */
const keySeqs = new Map<string, { seq: number; usi: string }>();
let nextFixture: Promise<void> | null = null;
/** an account's session and personal (read-only) tokens, for the account routes */
let account: { id: string; username: string; session: string; reader: string; readerId: string };

beforeAll(async () => {
  // forged tokens are most of the fuzz: the per-IP brake on unknown tokens (socket-auth.test.ts)
  // would answer nearly everything with 429 and hide the routes behind it
  stack = await startStack({ listen: true, config: { authFailures: { max: 0, windowMs: 60_000 } } });
  const a = await newGame(stack.app);
  const b = await newGame(stack.app);
  const c = await newGame(stack.app);
  main = { id: a.game.id, players: a.players };
  other = { id: b.game.id, players: b.players };
  ended = { id: c.game.id, players: c.players };
  await call(stack.app, 'POST', `/api/games/${ended.id}/resign`, {}, bearer(ended.players.gote.token));
  fixture = { ...(await newFixture()), round: 0 };
  const username = 'fuzz_account';
  const registered = await call(stack.app, 'POST', '/api/accounts', { username, password: 'fuzz-password' });
  const session = await call(stack.app, 'POST', '/api/session', { username, password: 'fuzz-password' });
  const reader = await call(
    stack.app,
    'POST',
    '/api/tokens',
    { name: 'r', scopes: ['read'] },
    bearer(session.body.token),
  );
  account = {
    id: registered.body.id,
    username,
    session: session.body.token,
    reader: reader.body.token,
    readerId: reader.body.id,
  };
});

async function newFixture() {
  const { game, players } = await newGame(stack.app);
  return { id: game.id as string, players };
}
afterAll(async () => stack?.close());

// --- generators ------------------------------------------------------------------------

const HOSTILE_TEXT = [
  "'; drop table game_events; --",
  "1' or '1'='1",
  '" or ""="',
  '\\',
  '%',
  '_',
  '$1',
  '\u0000',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fpackage.json',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '😀🀄︎将棋',
  '\ud800',
  'x'.repeat(5_000),
];
const hostileText = fc.constantFrom(...HOSTILE_TEXT);
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 50 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 3, arbitrary: hostileText },
);
const ascii = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

const usi = fc.oneof(
  fc.constantFrom('7g7f', '2g2f', '3c3d', '8c8d', '7g7e', 'P*5e', '8h2b+', '5i5h', '7g7f+', '0a0a', 'K*5e', '7g7z'),
  fc
    .tuple(
      fc.integer({ min: 0, max: 10 }),
      fc.constantFrom('a', 'e', 'g', 'i', 'j', '*'),
      fc.integer({ min: 0, max: 10 }),
    )
    .map(([f, r, t]) => `${f}${r}${t}${r}`),
  text,
);
const ply = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom(-1, 0.5, 1e9, Number.MAX_SAFE_INTEGER, '0', null, true, [], {}),
);
const SFENS = [
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  '8k/9/8R/9/9/9/9/9/4K4 w - 1',
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0',
  'k8/9/9/9/9/9/9/9/9 b - 1',
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1',
  '9/9/9/9/9/9/9/9/9 b 99P 1',
  'K8/9/9/9/9/9/9/9/8k b P 1',
];
const sfen = fc.oneof(fc.constantFrom(...SFENS), text);
/** encodeURIComponent throws on lone surrogates: those go as U+FFFD */
const enc = (s: string) => encodeURIComponent(s.toWellFormed());
const dec = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** An id in a path: real games, unknown ones, traversal, SQL and unicode (percent-encoded or raw). */
const pathId = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(main.id, other.id, ended.id) },
    { weight: 1, arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', 'a'.repeat(65), '-', '_') },
    { weight: 2, arbitrary: hostileText.map(enc) },
    { weight: 1, arbitrary: fc.constantFrom('..', '../..', '..%2f..%2fpackage.json', '%2e%2e', '.%00.', '%ff%fe') },
    { weight: 2, arbitrary: text.map(enc) },
  );

const queryValue = fc.oneof(
  fc.constantFrom('0', '1', '3', '999999999', '-1', '1e3', '', '0x10', 'true', 'sente', 'kif', 'csa', 'sfen', 'jsa'),
  fc.constantFrom('2026-11-30', '2026-11-30T00:00:00Z', '9999-99-99', '7g7f,3c3d', '7g7f,,', 'bishop', 'none', 'blitz'),
  fc.constantFrom('played', 'imported', 'all'),
  text,
);
const query = (names: string[]) =>
  fc
    .array(fc.tuple(fc.constantFrom(...names, 'token', 'x'), queryValue), { maxLength: 3 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${enc(v)}`).join('&')}`));

const authorization = () =>
  fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      `Bearer ${main.players.sente.token}`,
      `Bearer ${main.players.gote.token}`,
      `Bearer ${other.players.sente.token}`,
      `Bearer ${ended.players.sente.token}`,
      `Bearer ${account.session}`,
      `Bearer ${account.reader}`,
      `Bearer ${stack.adminToken}`,
      // forged: a real token with one character changed, a token's hash, another scheme
      `Bearer ${tampered(main.players.sente.token)}`,
      `Basic ${Buffer.from('alice:secret').toString('base64')}`,
      'Bearer ',
      `Bearer ${'A'.repeat(201)}`,
    ),
    ascii.map((s) => `Bearer ${s}`),
    ascii,
  );

interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** which route the generator aimed at, for the bookkeeping of 2xx answers */
  route: string;
  /** the route's own Content-Type (a multipart body's boundary), over the generated one */
  contentType?: string;
  id?: string;
  usi?: string;
}

/** A JSON body: the right shape with wrong or hostile values, any JSON value, or not JSON at all. */
const jsonBody = <T extends Record<string, unknown>>(shape: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 6, arbitrary: shape.map((b) => JSON.stringify(b)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '{',
        '{"usi": "7g7f", "ply": ',
        "{'usi': '7g7f'}",
        '',
        'null',
        '[]',
        '"7g7f"',
        '{"__proto__": {"admin": true}}',
        '{"constructor": {"prototype": {"x": 1}}}',
        '\u0000',
        `{"name": "${'x'.repeat(10_000)}"}`,
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  );

const moveShape = fc.record(
  { usi, ply, idempotencyKey: maybe(fc.oneof(fc.constantFrom('k1', 'k2', 'replayed'), ascii)), extra: text },
  { requiredKeys: ['usi', 'ply'] },
);

/** A small CSA record the rules accept: the one upload of the import fuzz that imports. */
const IMPORT_RECORD = 'V2.2\nN+fuzz-a\nN-fuzz-b\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n';

/**
 * multipart/form-data bodies for POST /api/import: parts (files, fields, parts without
 * headers or with headers that are none) around a small record, the closing boundary
 * there or not, the body cut anywhere, the boundary declared, missing, or another.
 */
function multipartImport() {
  const part = fc.oneof(
    fc
      .record({
        name: fc.oneof(fc.constantFrom('file', 'record', '__proto__'), text),
        filename: maybe(fc.oneof(fc.constantFrom('a.csa', 'a.kif', ''), text)),
        type: maybe(fc.constantFrom('text/plain', 'application/json', 'multipart/mixed; boundary=inner')),
        content: fc.oneof(fc.constant(IMPORT_RECORD), text),
      })
      .map(
        (p) =>
          `Content-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n` +
          `${p.type === undefined ? '' : `Content-Type: ${p.type}\r\n`}\r\n${p.content}`,
      ),
    fc.constantFrom('\r\n', 'no header here\r\n\r\nx', `Content-Disposition: attachment\r\n\r\n${IMPORT_RECORD}`),
    text,
  );
  return fc
    .record({
      boundary: fc.constantFrom('fz', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a b'),
      declared: fc.oneof(
        { weight: 6, arbitrary: fc.constant('same') },
        { weight: 1, arbitrary: fc.constantFrom('none', 'empty', 'other', 'quoted') },
      ),
      parts: fc.array(part, { minLength: 0, maxLength: 3 }),
      closed: fc.boolean(),
      cut: maybe(fc.nat({ max: 400 })),
    })
    .map((m) => {
      const whole =
        m.parts.map((p) => `--${m.boundary}\r\n${p}\r\n`).join('') + (m.closed ? `--${m.boundary}--\r\n` : '');
      const param = {
        same: `; boundary=${m.boundary}`,
        none: '',
        empty: '; boundary=',
        other: '; boundary=zz',
        quoted: `; boundary="${m.boundary}"`,
      }[m.declared];
      return {
        route: 'import',
        method: 'POST' as const,
        url: '/api/import',
        contentType: `multipart/form-data${param}`,
        body: m.cut === undefined ? whole : whole.slice(0, m.cut),
      };
    });
}

function requests(): fc.Arbitrary<Req> {
  const id = pathId();
  const headersArb = fc.record({
    authorization: authorization(),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'application/xml',
        ),
      },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    idempotencyKey: maybe(fc.oneof(fc.constantFrom('k1', 'replayed'), ascii)),
  });
  const route = fc.oneof(
    // the fixture game's next move, a replay of the previous one, or the wrong player's
    fc
      .constantFrom('next', 'next', 'replay', 'reuse', 'wrong-player', 'outsider')
      .map((kind) => ({ route: `legit-${kind}`, method: 'POST' as const, url: '' })),
    fc
      .record({ route: fc.constant('players'), body: jsonBody(fc.record({ name: text }, { requiredKeys: [] })) })
      .map((r) => ({ ...r, method: 'POST' as const, url: '/api/players' })),
    fc
      .record({
        route: fc.constant('games'),
        body: jsonBody(
          fc.record(
            {
              sente: fc.oneof(fc.constant(main.players.sente.id), fc.constant(other.players.gote.id), text),
              gote: fc.oneof(fc.constant(main.players.gote.id), fc.constant(main.players.sente.id), text),
              ruleset: fc.oneof(fc.constantFrom('default', 'jsa', 'chess'), text),
              handicap: fc.oneof(fc.constantFrom('bishop', 'rook', 'queen'), text),
              sfen,
            },
            { requiredKeys: [] },
          ),
        ),
      })
      .map((r) => ({ ...r, method: 'POST' as const, url: '/api/games' })),
    fc.tuple(id).map(([i]) => ({ route: 'view', method: 'GET' as const, url: `/api/games/${i}`, id: i })),
    // accounts, sessions and tokens (registration and login are rate-limited per IP: mostly 429s)
    fc
      .record({
        route: fc.constantFrom('accounts', 'session'),
        body: jsonBody(
          fc.record(
            {
              username: fc.oneof(fc.constantFrom(account.username, 'FUZZ_ACCOUNT', 'ab', 'a-b_c'), text),
              password: fc.oneof(fc.constantFrom('fuzz-password', 'short', 'x'.repeat(201)), text),
            },
            { requiredKeys: [] },
          ),
        ),
      })
      .map((r) => ({ ...r, method: 'POST' as const, url: r.route === 'accounts' ? '/api/accounts' : '/api/session' })),
    fc
      .record({
        route: fc.constant('tokens'),
        body: jsonBody(
          fc.record(
            {
              name: text,
              scopes: fc.oneof(fc.subarray(['play', 'read']), fc.array(text, { maxLength: 3 })),
              expiresInDays: fc.oneof(fc.integer({ min: -1, max: 400 }), fc.constantFrom('7', null, 1.5)),
            },
            { requiredKeys: [] },
          ),
        ),
      })
      .map((r) => ({ ...r, method: 'POST' as const, url: '/api/tokens' })),
    fc.constantFrom('/api/me', '/api/tokens').map((url) => ({ route: 'account-read', method: 'GET' as const, url })),
    fc
      .oneof(
        fc.constant('/api/session'),
        fc.oneof(fc.constant(account.readerId), id).map((i) => `/api/tokens/${i}`),
      )
      .map((url) => ({ route: 'revoke', method: 'DELETE' as const, url })),
    fc
      .tuple(id, query(['after', 'limit']))
      .map(([i, q]) => ({ route: 'events', method: 'GET' as const, url: `/api/games/${i}/events${q}`, id: i })),
    fc
      .tuple(
        id,
        jsonBody(moveShape).map((b) => b),
      )
      .map(([i, body]) => ({ route: 'moves', method: 'POST' as const, url: `/api/games/${i}/moves`, id: i, body })),
    fc
      .tuple(id, fc.option(jsonBody(fc.record({ idempotencyKey: ascii }, { requiredKeys: [] })), { nil: undefined }))
      .map(([i, body]) => ({ route: 'resign', method: 'POST' as const, url: `/api/games/${i}/resign`, id: i, body })),
    // WebSocket routes without an upgrade, and the NDJSON stream only where it ends at once
    fc
      .tuple(id, fc.constantFrom('ws', 'watch'), query(['after', 'since']))
      .map(([i, r, q]) => ({ route: r, method: 'GET' as const, url: `/api/games/${i}/${r}${q}`, id: i })),
    fc
      .tuple(fc.oneof(fc.constant(ended.id), hostileText.map(enc), fc.constant('nope')), query(['delay']))
      .map(([i, q]) => ({ route: 'stream', method: 'GET' as const, url: `/api/games/${i}/stream${q}`, id: i })),
    query(['limit']).map((q) => ({ route: 'live', method: 'GET' as const, url: `/api/live${q}` })),
    // record imports: multipart bodies whole and broken (more of them: a third of the
    // tokens reach the parser), and raw text
    { weight: 3, arbitrary: multipartImport() },
    fc.oneof(fc.constant(IMPORT_RECORD), text).map((body) => ({
      route: 'import',
      method: 'POST' as const,
      url: '/api/import',
      contentType: 'text/plain',
      body,
    })),
    // statistics and records
    fc
      .tuple(
        fc.constantFrom('results', 'endings', 'lengths'),
        query(['source', 'ruleset', 'handicap', 'rated', 'timeCategory', 'from', 'to']),
      )
      .map(([r, q]) => ({ route: 'stats', method: 'GET' as const, url: `/api/stats/${r}${q}` })),
    fc
      .tuple(fc.oneof(fc.constant(main.players.sente.id), id), query(['source', 'color', 'since', 'until']))
      .map(([i, q]) => ({ route: 'stats', method: 'GET' as const, url: `/api/stats/players/${i}` + q })),
    fc
      .tuple(
        fc.oneof(fc.constant(ended.players.sente.id), id),
        fc.constantFrom('ndjson', 'csa'),
        query(['color', 'since', 'until', 'result', 'timeCategory']),
      )
      .map(([i, r, q]) => ({ route: 'records', method: 'GET' as const, url: `/api/players/${i}/games.${r}${q}` })),
    query(['moves', 'handicap', 'source']).map((q) => ({
      route: 'stats',
      method: 'GET' as const,
      url: `/api/stats/openings${q}`,
    })),
    fc
      .tuple(id, fc.constantFrom('record', 'record.kif', 'record.csa', 'record.sfen', 'record.pgn'), query(['format']))
      .map(([i, r, q]) => ({ route: 'records', method: 'GET' as const, url: `/api/games/${i}/${r}${q}`, id: i })),
    fc
      .constantFrom('/health', '/docs/json', '/api/live/ws')
      .map((url) => ({ route: 'misc', method: 'GET' as const, url })),
    // path traversal against the documentation's static files and anywhere else
    fc
      .tuple(
        fc.constantFrom('/docs/static/', '/docs/', '/', '/api/', '/api/games/'),
        fc.oneof(
          fc.constantFrom(
            '../../../package.json',
            '..%2f..%2f..%2fpackage.json',
            '%2e%2e/%2e%2e/etc/passwd',
            '....//....//etc/passwd',
            'index.html%00.json',
            '..\\..\\package.json',
          ),
          text.map(enc),
        ),
      )
      .map(([prefix, rest]) => ({ route: 'traversal', method: 'GET' as const, url: prefix + rest })),
  );
  return fc
    .tuple(
      route,
      headersArb,
      fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'GET', 'POST') },
      ),
    )
    .map(([r, h, otherMethod]) => {
      const body = 'body' in r ? (r.body as string | undefined) : undefined;
      const headers: Record<string, string> = {};
      if (h.authorization !== undefined) headers.authorization = h.authorization;
      if (h.idempotencyKey !== undefined) headers['idempotency-key'] = h.idempotencyKey;
      const contentType = 'contentType' in r ? r.contentType : h.contentType;
      if (body !== undefined && contentType !== undefined) headers['content-type'] = contentType;
      let usiSent: string | undefined;
      try {
        const parsed = body === undefined ? undefined : JSON.parse(body);
        if (typeof parsed?.usi === 'string') usiSent = parsed.usi;
      } catch {}
      return {
        method: (otherMethod as Req['method'] | undefined) ?? r.method,
        url: r.url,
        headers,
        route: r.route,
        ...('id' in r && r.id !== undefined ? { id: dec(r.id) } : {}),
        ...(body === undefined ? {} : { payload: body }),
        ...(usiSent === undefined ? {} : { usi: usiSent }),
      } as Req;
    });
}

// --- checks ----------------------------------------------------------------------------

function checkErrorBody(status: number, raw: string, where: string): ErrorCode {
  let body: { code?: unknown; message?: unknown };
  try {
    body = JSON.parse(raw);
  } catch {
    throw new Error(`${where}: ${status} with a body that is not JSON: ${raw.slice(0, 200)}`);
  }
  if (typeof body.code !== 'string' || !ERROR_CODES.includes(body.code as ErrorCode))
    throw new Error(`${where}: ${status} with no catalog code: ${raw.slice(0, 200)}`);
  if (typeof body.message !== 'string') throw new Error(`${where}: error body without a message`);
  const code = body.code as ErrorCode;
  if (ERRORS[code].status !== status)
    throw new Error(`${where}: ${status} with code ${code} (catalog: ${ERRORS[code].status})`);
  return code;
}

/** Fills in a fixture move at send time, from the game's state then. */
async function resolveLegit(req: Req): Promise<string> {
  let view = (await call(stack.app, 'GET', `/api/games/${fixture.id}`)).body;
  if (view.status === 'ended') {
    // requests of one batch may all find the game over: one of them starts the next
    const ended = fixture;
    nextFixture ??= newFixture().then((f) => {
      fixture = { ...f, round: ended.round + 1 };
      nextFixture = null;
    });
    if (fixture === ended) await nextFixture;
    view = (await call(stack.app, 'GET', `/api/games/${fixture.id}`)).body;
  }
  const kind = req.route.slice('legit-'.length);
  const ply: number = kind === 'replay' || kind === 'reuse' ? Math.max(0, view.ply - 1) : view.ply;
  const mover = ply % 2 === 0 ? fixture.players.sente : fixture.players.gote;
  const waiting = ply % 2 === 0 ? fixture.players.gote : fixture.players.sente;
  const token = kind === 'wrong-player' ? waiting.token : kind === 'outsider' ? main.players.sente.token : mover.token;
  const key = `fx${fixture.round}-${ply}`;
  const usi = kind === 'reuse' ? ((MATE_GAME[ply] as string) === '7g7f' ? '2g2f' : '7g7f') : (MATE_GAME[ply] as string);
  req.url = `/api/games/${fixture.id}/moves`;
  req.headers = { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': key };
  req.payload = JSON.stringify({ usi, ply });
  req.id = fixture.id;
  req.usi = usi;
  req.route = 'moves';
  return key;
}

async function send(req: Req): Promise<void> {
  const legit = req.route.startsWith('legit-') ? await resolveLegit(req) : null;
  const res = await stack.app.inject({
    method: req.method,
    url: req.url,
    headers: req.headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  });
  counted.http++;
  const where = `${req.method} ${req.url.slice(0, 120)}`;
  if (res.statusCode >= 500) throw new Error(`${where}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (res.statusCode >= 400 && req.method !== 'HEAD') checkErrorBody(res.statusCode, res.body, where);
  // an import past the door (token, scope, rate limit): its body was read
  if (req.route === 'import' && req.method === 'POST' && ![401, 403, 404, 429].includes(res.statusCode))
    counted.importsRead++;
  if (res.statusCode < 300 && req.method === 'POST') {
    const body = JSON.parse(res.body);
    // an account is a player too
    if ((req.route === 'players' || req.route === 'accounts') && res.statusCode === 201) created.players++;
    if (req.route === 'games' && res.statusCode === 201) created.games++;
    if (req.route === 'import' && res.statusCode === 201)
      for (const g of body.games as { gameId: string; duplicate: boolean }[])
        if (!g.duplicate) created.imported.add(g.gameId);
    if (req.route === 'moves' && res.statusCode === 202 && req.id !== undefined && req.usi !== undefined)
      acknowledged.push({ gameId: req.id, seq: body.seq, usi: req.usi });
    // a replayed key answers its original seq; a key reused for another move is never a 202
    const original = legit === null ? undefined : keySeqs.get(legit);
    if (legit !== null && res.statusCode === 202 && original === undefined)
      keySeqs.set(legit, { seq: body.seq, usi: req.usi ?? '' });
    if (original !== undefined && res.statusCode === 202 && (original.usi !== req.usi || original.seq !== body.seq))
      throw new Error(
        `key ${legit}: ${req.usi} answered seq ${body.seq}; first ${original.usi} at seq ${original.seq}`,
      );
    if (req.route === 'resign' && res.statusCode === 202 && req.id !== undefined)
      created.resigned.add(`${req.id}:${body.seq}`);
  }
}

// --- WebSocket -------------------------------------------------------------------------

const ALLOWED_CLOSES = new Set([1000, 1001, 1003, 1009, 4008]);

type Frame = { kind: 'text'; data: string } | { kind: 'binary'; data: Buffer } | { kind: 'huge'; data: string };

const frame = (): fc.Arbitrary<Frame> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: moveShape
        .map((m) => ({ type: 'move', ...m }))
        .map((m) => ({ kind: 'text' as const, data: JSON.stringify(m) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record(
          { type: fc.constantFrom('resign', 'move', 'chat', 'subscribe', ''), idempotencyKey: ascii },
          { requiredKeys: ['type'] },
        )
        .map((m) => ({ kind: 'text' as const, data: JSON.stringify(m) })),
    },
    {
      weight: 2,
      arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ kind: 'text' as const, data: JSON.stringify(v) })),
    },
    { weight: 2, arbitrary: text.map((s) => ({ kind: 'text' as const, data: s.slice(0, 1000) })) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ kind: 'binary' as const, data: Buffer.from(b) })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1025, max: 70_000 }).map((n) => ({ kind: 'huge' as const, data: 'x'.repeat(n) })),
    },
  );

interface SocketRun {
  target: 'player' | 'second-game' | 'watch' | 'live';
  frames: Frame[];
}

const wsUrl = (path: string) => `${stack.baseUrl.replace(/^http/, 'ws')}${path}`;

/** Opens a socket, sends the frames, waits for one answer per frame (or the close), checks every frame received. */
async function runSocket(run: SocketRun): Promise<void> {
  const game = run.target === 'second-game' ? other : main;
  const token = game.players.sente.token;
  const path =
    run.target === 'watch'
      ? `/api/games/${game.id}/watch`
      : run.target === 'live'
        ? '/api/live/ws'
        : `/api/games/${game.id}/ws`;
  const ws = new WebSocket(wsUrl(path), { headers: bearer(token) });
  const received: Record<string, unknown>[] = [];
  let answers = 0;
  let wake = () => {};
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.on('message', (data, isBinary) => {
    if (isBinary) throw new Error('binary frame from the server');
    const m = JSON.parse(String(data)) as Record<string, unknown>;
    received.push(m);
    if (m.type === 'error' || m.type === 'ack') answers++;
    wake();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let expected = 0;
  let tooBig = false;
  for (const f of run.frames) {
    if (ws.readyState !== WebSocket.OPEN) break;
    ws.send(f.data, { binary: f.kind === 'binary' });
    counted.frames++;
    if (f.kind === 'huge') {
      tooBig = true;
      break;
    }
    expected++;
  }
  // every frame before a huge one is answered (error or ack) unless the socket closes
  const done = new Promise<void>((resolve) => {
    const check = () => {
      if (answers >= expected) resolve();
    };
    wake = check;
    check();
  });
  const code = await Promise.race([done.then(() => (tooBig ? closed : null)), closed]);
  if (code === null) ws.close(1000);
  const finalCode = code ?? (await closed);
  if (!ALLOWED_CLOSES.has(finalCode)) throw new Error(`${run.target}: closed with ${finalCode}`);
  if (tooBig && finalCode !== 1009) throw new Error(`${run.target}: a huge frame closed with ${finalCode}, not 1009`);
  for (const m of received) {
    if (m.type !== 'error') continue;
    const e = m.error as { code?: string; message?: unknown };
    if (!ERROR_CODES.includes(e.code as ErrorCode) || typeof e.message !== 'string')
      throw new Error(`${run.target}: error frame without a catalog code: ${JSON.stringify(m)}`);
    if (e.code === 'INTERNAL' || e.code === 'UNAVAILABLE') throw new Error(`${run.target}: ${JSON.stringify(m)}`);
    if (run.target === 'watch' || run.target === 'live') expect(e.code).toBe('SPECTATOR_READ_ONLY');
  }
  const spectating = run.target === 'watch' || run.target === 'live';
  if (spectating) expect(received.some((m) => m.type === 'ack')).toBe(false);
  for (const m of received) {
    if (m.type !== 'ack') continue;
    if (typeof m.usi === 'string') acknowledged.push({ gameId: game.id, seq: Number(m.seq), usi: m.usi });
    else created.resigned.add(`${game.id}:${Number(m.seq)}`);
  }
}

/** An upgrade the gateway must refuse with a 4xx catalog body before any socket exists. */
/** The token with its last character changed (to another one: a random token may end in any). */
const tampered = (token: string): string => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

async function refusedUpgrade({ path, auth }: { path: string; auth?: string }): Promise<void> {
  counted.upgrades++;
  const ws = new WebSocket(wsUrl(path), auth === undefined ? {} : { headers: { authorization: auth } });
  const outcome = await new Promise<{ status: number; body: string } | 'open'>((resolve, reject) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', (err) => reject(err));
  });
  if (outcome === 'open') {
    ws.close();
    throw new Error(`upgrade to ${path} was accepted`);
  }
  if (outcome.status < 400 || outcome.status >= 500) throw new Error(`upgrade to ${path}: ${outcome.status}`);
  checkErrorBody(outcome.status, outcome.body, `upgrade ${path}`);
}

// --- the tests -------------------------------------------------------------------------

describe('fuzzing every route', () => {
  test(`${HTTP_RUNS} generated HTTP requests: never a 5xx, always a catalog error body`, async () => {
    const batch = fc.array(requests(), { minLength: HTTP_BATCH, maxLength: HTTP_BATCH });
    await fc.assert(
      fc.asyncProperty(batch, async (reqs) => {
        await Promise.all(reqs.map(send));
      }),
      { seed: SEED, numRuns: HTTP_RUNS / HTTP_BATCH, endOnFailure: true },
    );
  }, 120_000);

  test('generated WebSocket frames on player and spectator sockets', async () => {
    const run = fc.record({
      target: fc.constantFrom('player', 'player', 'second-game', 'watch', 'live'),
      frames: fc.array(frame(), { minLength: 1, maxLength: 24 }),
    });
    // a player's token on another game is refused before the upgrade (next test)
    await fc.assert(
      fc.asyncProperty(run, (r) => runSocket(r as SocketRun)),
      {
        seed: SEED,
        numRuns: WS_RUNS,
        endOnFailure: true,
      },
    );
  }, 120_000);

  test('upgrades with forged tokens, another player, bad ids and bad seqs are refused with a 4xx', async () => {
    const mine = `Bearer ${main.players.sente.token}`;
    const forged = fc.oneof(
      fc.constantFrom(
        { auth: `Bearer ${tampered(main.players.sente.token)}`, query: '' },
        { auth: `Bearer ${other.players.sente.token}`, query: '' },
        { auth: 'Bearer ', query: '' },
        { auth: `Bearer ${'A'.repeat(300)}`, query: '' },
        { auth: "Bearer ' or 1=1 --", query: '' },
        { auth: mine, query: 'after=999999' },
        { auth: mine, query: 'after=-1' },
        { auth: mine, query: `after=${encodeURIComponent('1; select 1')}` },
        // a token in the URL is refused even beside a valid header
        { auth: mine, query: `token=${main.players.sente.token}` },
        { auth: undefined, query: `token=${main.players.sente.token}` },
        { auth: undefined, query: 'ticket=' },
        { auth: undefined, query: `ticket=${'A'.repeat(65)}` },
      ),
      ascii.map((s) => ({ auth: undefined, query: `ticket=${enc(s)}` })),
    );
    const upgrade = fc.oneof(
      forged.map(({ auth, query }) => ({
        path: `/api/games/${main.id}/ws${query === '' ? '' : `?${query}`}`,
        ...(auth === undefined ? {} : { auth }),
      })),
      fc
        .constantFrom(
          `/api/games/00000000-0000-0000-0000-000000000000/watch`,
          `/api/games/${main.id}/watch?since=999999`,
          `/api/games/${main.id}/watch?since=x`,
          `/api/games/${encodeURIComponent('../../etc')}/watch`,
          `/api/games/${main.id}/watch?since=1&evil=1`,
        )
        .map((path) => ({ path })),
    );
    await fc.assert(fc.asyncProperty(upgrade, refusedUpgrade), { seed: SEED, numRuns: 150, endOnFailure: true });
  }, 60_000);

  test('afterwards: state changed only where a 2xx said so, and the audit holds', async () => {
    const report = await auditWhenSettled(stack.db, { acknowledged });
    expect(report.problems).toEqual([]);
    // every submission in the log was acknowledged to someone, every resignation answered 202
    const submitted = await sql<{ game_id: string; seq: number; type: string }>`
      select game_id, seq, type from game_events where type in ('MoveSubmitted', 'Resigned')`.execute(stack.db);
    const acked = new Set(acknowledged.map((a) => `${a.gameId}:${a.seq}`));
    for (const r of submitted.rows) {
      const key = `${r.game_id}:${r.seq}`;
      // an imported record's moves and ending were answered by its import's 201
      if (created.imported.has(r.game_id)) continue;
      if (r.type === 'MoveSubmitted') expect(acked.has(key), `unacknowledged submission ${key}`).toBe(true);
      // the setup resigned one game
      else if (r.game_id !== ended.id) expect(created.resigned.has(key), `unanswered resignation ${key}`).toBe(true);
    }
    const players = await stack.db
      .selectFrom('players')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const fixtures = fixture.round + 1;
    // 7 of the setup's, the operator account that holds the admin token, two per fixture game
    expect(Number(players.n)).toBe(8 + 2 * fixtures + created.players);
    expect(report.games).toBe(3 + fixtures + created.games + created.imported.size);
    const total = counted.http + counted.frames + counted.upgrades;
    console.log(
      `fuzz: ${counted.http} HTTP requests, ${counted.frames} WebSocket frames, ${counted.upgrades} refused upgrades (${total} in all); ` +
        `${report.submissions} submissions, ${report.accepted} accepted, ${fixtures} fixture games, ${created.players} players and ${created.games} games created; ` +
        `${counted.importsRead} import bodies read, ${created.imported.size} records imported`,
    );
    expect(counted.importsRead).toBeGreaterThan(50);
    expect(total).toBeGreaterThanOrEqual(10_000);
  });
});
