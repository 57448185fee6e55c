/**
 * What the lishogi game tests share: accounts with a personal token of lishogi's scopes (as a
 * person makes one: register, log in, POST /api/tokens), games between them, and calls over
 * real HTTP, as a lishogi client makes them (the USI in the path as it is).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { bearer, call, type Stack } from './harness.js';
import { NdjsonReader } from './ndjson-client.js';

export interface Person {
  readonly id: string;
  readonly username: string;
  /** a personal token with the scopes asked for */
  readonly token: string;
}

let counter = 0;

export async function person(stack: Stack, name: string, scopes: string[] = ['board:play']): Promise<Person> {
  const username = `${name}_${++counter}${randomBytes(2).toString('hex')}`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const account = await call(stack.app, 'POST', '/api/accounts', { username, password });
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  const session = await call(stack.app, 'POST', '/api/session', { username, password });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  const token = await call(stack.app, 'POST', '/api/tokens', { name: 'lishogi', scopes }, bearer(session.body.token));
  expect(token.status, JSON.stringify(token.body)).toBe(201);
  return { id: account.body.id, username, token: token.body.token };
}

/** A game between two players, created as an operator creates one. */
export async function gameBetween(
  stack: Stack,
  sente: { id: string },
  gote: { id: string },
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await call(
    stack.app,
    'POST',
    '/api/games',
    { sente: sente.id, gote: gote.id, ...extra },
    bearer(stack.adminToken),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
type Json = any;

/** A POST over HTTP; `body` a string is sent form-encoded, an object as JSON. */
export async function post(
  stack: Stack,
  path: string,
  token: string,
  body?: string | Record<string, unknown>,
): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let payload: string | undefined;
  if (typeof body === 'string') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = body;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers, body: payload ?? null });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

export async function get(stack: Stack, path: string, token: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

/** Opens a player's game stream, which must be granted. */
export async function openStream(stack: Stack, gameId: string, token: string, api = 'board'): Promise<NdjsonReader> {
  const opened = await NdjsonReader.open(`${stack.baseUrl}/api/${api}/game/stream/${gameId}`, token);
  if (!('reader' in opened)) throw new Error(`stream refused: ${opened.status} ${JSON.stringify(opened.body)}`);
  return opened.reader;
}

/** A move through the Board API, which must be played. */
export async function move(stack: Stack, gameId: string, token: string, usi: string): Promise<void> {
  const res = await post(stack, `/api/board/game/${gameId}/move/${usi}`, token);
  expect({ usi, ...res }).toEqual({ usi, status: 200, body: { ok: true } });
}

/** A side's time as lishogi shows it, from the game view's clock. */
export const shownMs = (side: { mainMs: number; periodMs: number }): number =>
  side.mainMs > 0 ? side.mainMs : side.periodMs;
