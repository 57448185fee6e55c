/**
 * lishogi's challenge routes through app.inject(): the parameters as its clients send them
 * (form-encoded or JSON), the scopes it takes, the lobby's checks behind them, and malformed
 * or hostile input answered in lishogi's error shape (`{error}` with a 4xx), never a 5xx.
 */
import { loadConfig } from '@shogi/gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, NO_LIMIT, type Stack, startStack } from './harness.js';
import { accountWithToken, type TestAccount } from './lishogi-event-stream.js';

let stack: Stack;
let bot: TestAccount;
let person: TestAccount;
let reader: TestAccount;

beforeAll(async () => {
  const defaults = loadConfig({});
  stack = await startStack({ worker: false, config: { rateLimits: { ...defaults.rateLimits, lobby: NO_LIMIT } } });
  bot = await accountWithToken(stack.app, 'RoboShogi', ['bot:play']);
  await call(stack.app, 'POST', '/api/bot/account/upgrade', undefined, bearer(bot.token));
  person = await accountWithToken(stack.app, 'Hanako', ['board:play']);
  reader = await accountWithToken(stack.app, 'Reader', ['challenge:read', 'read']);
});
afterAll(async () => {
  await stack?.close();
});

async function form(url: string, token: string, fields?: Record<string, string>) {
  const res = await stack.app.inject({
    method: 'POST',
    url,
    headers: {
      ...bearer(token),
      ...(fields === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(fields === undefined ? {} : { payload: new URLSearchParams(fields).toString() }),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe('creating', () => {
  test('form-encoded, as lishogi’s clients send it: 200 with the challenge', async () => {
    const res = await form('/api/challenge/hanako', bot.token, {
      rated: 'true',
      'clock.limit': '300',
      'clock.increment': '0',
      'clock.byoyomi': '10',
      'clock.periods': '1',
      color: 'random',
      variant: 'standard',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'created',
      rated: true,
      speed: 'blitz',
      direction: 'out',
      challenger: { id: 'roboshogi', title: 'BOT' },
      destUser: { id: 'hanako', name: 'Hanako', title: null },
    });
    // the same challenge in the lobby, as this server's own routes show it
    const mine = await call(stack.app, 'GET', `/api/challenges/${res.body.id}`, undefined, bearer(person.session));
    expect(mine.body).toMatchObject({
      status: 'pending',
      rated: true,
      timeControl: { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 },
    });
  });

  test('JSON with a nested clock, from a board:play token; a custom position, casual', async () => {
    const sfen = '4k4/9/9/9/9/9/9/9/4K4 b 2G 1';
    const res = await call(
      stack.app,
      'POST',
      '/api/challenge/RoboShogi',
      { clock: { limit: 60, increment: 1 }, sfen },
      bearer(person.token),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      timeControl: { type: 'clock', limit: 60, increment: 1, byoyomi: 0 },
      initialSfen: sfen,
      rated: false,
    });
  });

  test.each<[string, string, Record<string, string>, number, string]>([
    ['a clock out of range', 'hanako', { 'clock.limit': '99999' }, 422, 'INVALID_TIME_CONTROL'],
    ['a clock of nothing', 'hanako', { 'clock.limit': '0', 'clock.increment': '0' }, 422, 'INVALID_TIME_CONTROL'],
    ['a rated game without a clock', 'hanako', { rated: 'true' }, 422, 'INVALID_TIME_CONTROL'],
    ['a variant', 'hanako', { variant: 'chushogi' }, 400, 'UNSUPPORTED_VARIANT'],
    ['an unknown parameter', 'hanako', { level: '3' }, 400, 'BAD_REQUEST'],
    ['a malformed SFEN', 'hanako', { sfen: 'not a position' }, 400, 'INVALID_SFEN'],
    [
      'a rated custom position',
      'hanako',
      { sfen: '4k4/9/9/9/9/9/9/9/4K4 b 2G 1', rated: 'true', days: '2' },
      422,
      'RATED_NEEDS_STANDARD_START',
    ],
    ['an unknown user', 'nobody_here', {}, 422, 'UNKNOWN_PLAYER'],
    ['oneself', 'roboshogi', {}, 422, 'SAME_PLAYER'],
  ])('%s: %i %s, in lishogi’s shape', async (_name, target, fields, status, code) => {
    const res = await form(`/api/challenge/${target}`, bot.token, fields);
    expect(res).toEqual({ status, body: { error: expect.any(String), code } });
  });

  test('a username that is no name, and a body that is no JSON: 400', async () => {
    const path = await form('/api/challenge/%00bad', bot.token, {});
    expect(path.status).toBe(400);
    expect(path.body).toEqual({ error: expect.any(String), code: 'BAD_REQUEST' });
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/challenge/hanako',
      headers: { ...bearer(bot.token), 'content-type': 'application/json' },
      payload: '{"clock.limit":',
    });
    expect({ status: res.statusCode, body: JSON.parse(res.body) }).toEqual({
      status: 400,
      body: { error: expect.any(String), code: 'MALFORMED_JSON' },
    });
  });

  test('scopes as lishogi’s: challenge:write, bot:play or board:play; none of them is 403', async () => {
    const res = await form('/api/challenge/hanako', reader.token, {});
    expect(res).toEqual({
      status: 403,
      body: { error: expect.stringContaining('challenge:write'), code: 'INSUFFICIENT_SCOPE' },
    });
    const session = await form('/api/challenge/hanako', person.session, {});
    expect(session.status).toBe(403);
  });
});

describe('answering', () => {
  const challenge = async () => (await form('/api/challenge/hanako', bot.token, { days: '3' })).body.id as string;

  test('accept: ok, and the game exists; a replay answers ok again', async () => {
    const id = await challenge();
    expect(await form(`/api/challenge/${id}/accept`, person.token)).toEqual({ status: 200, body: { ok: true } });
    const seen = await call(stack.app, 'GET', `/api/challenges/${id}`, undefined, bearer(person.session));
    expect(seen.body).toMatchObject({ status: 'accepted', gameId: expect.any(String) });
    expect(await form(`/api/challenge/${id}/accept`, person.token)).toEqual({ status: 200, body: { ok: true } });
  });

  test('lishogi’s 404 for what cannot be answered so: unknown, not yours, answered already', async () => {
    const unknown = await form('/api/challenge/no-such-challenge/accept', person.token);
    expect(unknown).toEqual({ status: 404, body: { error: expect.any(String), code: 'CHALLENGE_NOT_FOUND' } });
    const id = await challenge();
    // the challenger cannot accept or decline its own; the challenged cannot cancel it
    expect((await form(`/api/challenge/${id}/accept`, bot.token)).status).toBe(404);
    expect((await form(`/api/challenge/${id}/decline`, bot.token)).status).toBe(404);
    expect((await form(`/api/challenge/${id}/cancel`, person.token)).status).toBe(404);
    expect(await form(`/api/challenge/${id}/decline`, person.token, { reason: 'tooSlow' })).toEqual({
      status: 200,
      body: { ok: true },
    });
    const late = await form(`/api/challenge/${id}/accept`, person.token);
    expect(late).toEqual({
      status: 404,
      body: { error: expect.stringContaining('CHALLENGE_CLOSED'), code: 'CHALLENGE_NOT_FOUND' },
    });
  });

  test('a reason that is no reason is refused; a token without a lishogi scope is 403', async () => {
    const id = await challenge();
    const long = await form(`/api/challenge/${id}/decline`, person.token, { reason: 'x'.repeat(51) });
    expect(long).toEqual({ status: 400, body: { error: expect.any(String), code: 'BAD_REQUEST' } });
    expect((await form(`/api/challenge/${id}/accept`, person.session)).status).toBe(403);
  });
});
