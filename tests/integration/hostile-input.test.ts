/**
 * Bad input never reaches the log: every case is a 4xx with a catalog code, and the
 * game's stream is unchanged afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, newGame, type Players, type Stack, startStack } from './harness.js';

let stack: Stack;
let gameId: string;
let players: Players;
let outsider: { id: string; token: string };

beforeAll(async () => {
  stack = await startStack({ worker: false });
  ({
    game: { id: gameId },
    players,
  } = await newGame(stack.app));
  outsider = (await call(stack.app, 'POST', '/api/players', { name: 'eve' })).body;
});
afterAll(async () => stack?.close());

const lastSeq = async (id: string) => (await call(stack.app, 'GET', `/api/games/${id}`)).body.lastSeq as number;

interface Case {
  name: string;
  method?: 'GET' | 'POST';
  url?: (id: string) => string;
  body: unknown;
  headers?: (p: Players) => Record<string, string>;
  status: number;
  code: string;
  /** What the answer's detail says: the mistake, in words the client can act on. */
  detail?: string;
}

const moves = (id: string) => `/api/games/${id}/moves`;
const sente = (p: Players) => bearer(p.sente.token);

const cases: Case[] = [
  { name: 'malformed JSON', body: '{"usi": "7g7f", "ply": ', headers: sente, status: 400, code: 'MALFORMED_JSON' },
  { name: 'empty JSON body', body: '', headers: sente, status: 400, code: 'MALFORMED_JSON' },
  { name: 'ply as a string', body: { usi: '7g7f', ply: '0' }, headers: sente, status: 400, code: 'BAD_REQUEST' },
  { name: 'usi as a number', body: { usi: 76, ply: 0 }, headers: sente, status: 400, code: 'BAD_REQUEST' },
  { name: 'negative ply', body: { usi: '7g7f', ply: -1 }, headers: sente, status: 400, code: 'BAD_REQUEST' },
  { name: 'fractional ply', body: { usi: '7g7f', ply: 0.5 }, headers: sente, status: 400, code: 'BAD_REQUEST' },
  {
    name: 'missing ply',
    body: { usi: '7g7f' },
    headers: sente,
    status: 400,
    code: 'BAD_REQUEST',
    detail: 'body is missing the field "ply"',
  },
  {
    name: 'unknown field',
    body: { usi: '7g7f', ply: 0, promote: true },
    headers: sente,
    status: 400,
    code: 'BAD_REQUEST',
    detail: 'body has an unknown field "promote"',
  },
  {
    name: '__proto__ key',
    body: '{"usi": "7g7f", "ply": 0, "__proto__": {"admin": true}}',
    headers: sente,
    status: 400,
    code: 'BAD_REQUEST',
    detail: 'the body has a "__proto__" or "constructor.prototype" key, which no route accepts',
  },
  {
    name: 'constructor.prototype key',
    body: '{"usi": "7g7f", "ply": 0, "constructor": {"prototype": {"admin": true}}}',
    headers: sente,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'body not UTF-8',
    body: Buffer.from([0x7b, 0x22, 0x75, 0x73, 0x69, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    headers: sente,
    status: 400,
    code: 'MALFORMED_JSON',
    detail: 'the body is not UTF-8 text',
  },
  { name: 'array body', body: [{ usi: '7g7f', ply: 0 }], headers: sente, status: 400, code: 'BAD_REQUEST' },
  {
    name: 'huge body',
    body: { usi: 'x'.repeat(100_000), ply: 0 },
    headers: sente,
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  { name: 'bad USI', body: { usi: '7g7z', ply: 0 }, headers: sente, status: 400, code: 'MALFORMED_USI' },
  { name: 'USI too long', body: { usi: '7g7f++', ply: 0 }, headers: sente, status: 400, code: 'MALFORMED_USI' },
  { name: 'illegal move', body: { usi: '7g7e', ply: 0 }, headers: sente, status: 422, code: 'ILLEGAL_MOVE' },
  { name: 'no token', body: { usi: '7g7f', ply: 0 }, status: 401, code: 'UNAUTHORIZED' },
  {
    name: 'wrong token',
    body: { usi: '7g7f', ply: 0 },
    headers: () => bearer('nope'),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'malformed Authorization',
    body: { usi: '7g7f', ply: 0 },
    headers: (p) => ({ authorization: p.sente.token }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'not your turn',
    body: { usi: '3c3d', ply: 0 },
    headers: (p) => bearer(p.gote.token),
    status: 409,
    code: 'NOT_YOUR_TURN',
  },
  { name: 'future ply', body: { usi: '7g7f', ply: 5 }, headers: sente, status: 409, code: 'FUTURE_PLY' },
  {
    name: 'unknown game',
    url: () => moves('00000000-0000-0000-0000-000000000000'),
    body: { usi: '7g7f', ply: 0 },
    headers: sente,
    status: 404,
    code: 'GAME_NOT_FOUND',
  },
  {
    name: 'bad game id',
    url: () => moves('not a valid id!'),
    body: { usi: '7g7f', ply: 0 },
    headers: sente,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'GET unknown game',
    method: 'GET',
    url: () => '/api/games/nope',
    body: undefined,
    status: 404,
    code: 'GAME_NOT_FOUND',
  },
  {
    name: 'events after=abc',
    method: 'GET',
    url: (id) => `/api/games/${id}/events?after=abc`,
    body: undefined,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'events after=1.5',
    method: 'GET',
    url: (id) => `/api/games/${id}/events?after=1.5`,
    body: undefined,
    status: 400,
    code: 'BAD_REQUEST',
    detail: 'querystring/after must be a whole number of at most 9 digits',
  },
  {
    name: 'events with an unknown parameter',
    method: 'GET',
    url: (id) => `/api/games/${id}/events?since=1`,
    body: undefined,
    status: 400,
    code: 'BAD_REQUEST',
    detail: 'querystring has an unknown parameter "since"',
  },
  {
    name: 'text/plain body',
    body: '7g7f',
    headers: (p) => ({ ...sente(p), 'content-type': 'text/plain' }),
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  { name: 'unknown route', method: 'GET', url: () => '/api/nothing', body: undefined, status: 404, code: 'NOT_FOUND' },
  {
    name: 'player name too long',
    url: () => '/api/players',
    body: { name: 'x'.repeat(41) },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'player name with a lone surrogate',
    url: () => '/api/players',
    body: '{"name": "ab\\ud800c"}',
    status: 400,
    code: 'BAD_REQUEST',
    detail:
      'body/name holds a lone UTF-16 surrogate (an escape like \\ud800 without its pair): send well-formed Unicode text',
  },
  {
    name: 'player name with a right-to-left override',
    url: () => '/api/players',
    body: { name: 'eve\u202egnp.exe' },
    status: 400,
    code: 'INVALID_NAME',
    detail: 'the name holds U+202E, an invisible, format or control character',
  },
  {
    name: 'player name of spaces only',
    url: () => '/api/players',
    body: { name: ' \u3000 ' },
    status: 400,
    code: 'INVALID_NAME',
  },
  {
    name: 'player unknown field',
    url: () => '/api/players',
    body: { name: 'x', admin: true },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a body on a route that takes none',
    url: () => '/api/me/token',
    body: { token: 'mine' },
    headers: sente,
    status: 400,
    code: 'BAD_REQUEST',
    detail: 'POST /api/me/token takes no body: send none, or {}',
  },
  {
    name: 'an array body on a route that takes none',
    url: () => '/api/challenges/00000000-0000-0000-0000-000000000000/accept',
    body: [],
    headers: sente,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'game with unknown players',
    url: () => '/api/games',
    body: { sente: 'a', gote: 'b' },
    headers: () => bearer(stack.adminToken),
    status: 422,
    code: 'UNKNOWN_PLAYER',
  },
  {
    name: 'game with bad handicap',
    url: () => '/api/games',
    body: { sente: 'a', gote: 'b', handicap: 'queen' },
    headers: () => bearer(stack.adminToken),
    status: 400,
    code: 'BAD_REQUEST',
  },
];

describe('hostile input on POST /api/games/:id/moves and friends', () => {
  test.each(cases)('$name → $status $code', async (c) => {
    const before = await lastSeq(gameId);
    const res = await call(stack.app, c.method ?? 'POST', (c.url ?? moves)(gameId), c.body, c.headers?.(players) ?? {});
    expect(res.status).toBe(c.status);
    expect(res.body.code).toBe(c.code);
    expect(typeof res.body.message).toBe('string');
    if (c.detail !== undefined) expect(res.body.detail).toBe(c.detail);
    expect(await lastSeq(gameId)).toBe(before);
  });

  test('a player of another game gets 403 NOT_A_PLAYER', async () => {
    const res = await call(stack.app, 'POST', moves(gameId), { usi: '7g7f', ply: 0 }, bearer(outsider.token));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('NOT_A_PLAYER');
  });

  test('an idempotency key replayed returns the original answer and records nothing new', async () => {
    const { game, players: p } = await newGame(stack.app);
    const headers = { ...bearer(p.sente.token), 'idempotency-key': 'move-1' };
    const first = await call(stack.app, 'POST', moves(game.id), { usi: '7g7f', ply: 0 }, headers);
    expect(first.status).toBe(202);
    const seq = await lastSeq(game.id);
    const again = await call(stack.app, 'POST', moves(game.id), { usi: '7g7f', ply: 0 }, headers);
    expect(again).toEqual(first);
    // the same key for another move is refused
    const other = await call(stack.app, 'POST', moves(game.id), { usi: '2g2f', ply: 0 }, headers);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // the key may also come in the body
    const inBody = await call(
      stack.app,
      'POST',
      moves(game.id),
      { usi: '7g7f', ply: 0, idempotencyKey: 'move-1' },
      bearer(p.sente.token),
    );
    expect(inBody).toEqual(first);
    expect(await lastSeq(game.id)).toBe(seq);
  });

  test('a move while the previous one awaits its verdict is 409 MOVE_PENDING (no worker runs here)', async () => {
    const { game, players: p } = await newGame(stack.app);
    expect((await call(stack.app, 'POST', moves(game.id), { usi: '7g7f', ply: 0 }, sente(p))).status).toBe(202);
    const res = await call(stack.app, 'POST', moves(game.id), { usi: '2g2f', ply: 0 }, sente(p));
    expect(res.status).toBe(409);
    expect(['MOVE_PENDING', 'NOT_YOUR_TURN']).toContain(res.body.code);
  });

  test('moves after the end are 409 GAME_OVER; resigning twice too', async () => {
    const { game, players: p } = await newGame(stack.app);
    // a bodiless POST resigns too
    const resigned = await call(stack.app, 'POST', `/api/games/${game.id}/resign`, undefined, bearer(p.gote.token));
    expect(resigned.status).toBe(202);
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view.status).toBe('ended');
    // nobody had moved: the resignation aborts the game (the ply rule)
    expect(view.result).toEqual({ winner: null, reason: 'abort' });
    const seq = view.lastSeq;
    const move = await call(stack.app, 'POST', moves(game.id), { usi: '7g7f', ply: 0 }, sente(p));
    expect(move.status).toBe(409);
    expect(move.body.code).toBe('GAME_OVER');
    const again = await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, sente(p));
    expect(again.body.code).toBe('GAME_OVER');
    expect(await lastSeq(game.id)).toBe(seq);
  });

  test('the OpenAPI document lists every route', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(JSON.parse(res.body).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/players',
        '/api/games',
        '/api/games/{id}',
        '/api/games/{id}/events',
        '/api/games/{id}/moves',
        '/api/games/{id}/resign',
        // the WebSocket routes too, which @fastify/websocket hides by default
        '/api/games/{id}/ws',
        '/api/games/{id}/watch',
        '/api/lobby/ws',
        '/api/live',
      ]),
    );
    const socket = JSON.parse(res.body).paths['/api/games/{id}/ws'].get;
    expect(socket.responses['101']).toMatchObject({ description: expect.stringMatching(/Switching Protocols/) });
  });
});
