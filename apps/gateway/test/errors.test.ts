import { REJECTION_CODES } from '@shogi/game';
import { ERRORS, REJECTION_ERRORS, statusOf } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { requestTimeouts } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ApiError, toErrorBody } from '../src/domain/api-error.js';
import { stripToken } from '../src/logger.js';

describe('the error catalog', () => {
  test('every rejection code of the game maps to a wire code', () => {
    for (const code of REJECTION_CODES) expect(ERRORS[REJECTION_ERRORS[code]]).toBeDefined();
  });

  test("client errors are 4xx; only the server's own failures and missing parts are 5xx", () => {
    const servers = ['INTERNAL', 'UNAVAILABLE', 'ENGINE_UNAVAILABLE'];
    for (const [code, { status }] of Object.entries(ERRORS)) {
      if (servers.includes(code)) expect(status).toBeGreaterThanOrEqual(500);
      else expect(status).toBeLessThan(500);
    }
  });

  test.each([
    [new ApiError('NOT_YOUR_TURN', 'gote is to move'), 409, 'NOT_YOUR_TURN'],
    [
      Object.assign(new Error('too big'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      Object.assign(new Error('bad json'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }),
      400,
      'MALFORMED_JSON',
    ],
    [Object.assign(new Error('body/ply must be integer'), { validation: [], statusCode: 400 }), 400, 'BAD_REQUEST'],
    [new Error('connection refused'), 500, 'INTERNAL'],
  ])('%s → %i %s', (error, status, code) => {
    const mapped = toErrorBody(error);
    expect(mapped.status).toBe(status);
    expect(mapped.body.code).toBe(code);
    expect(statusOf(mapped.body.code)).toBe(status);
  });

  test('an internal error says nothing of its cause', () => {
    expect(toErrorBody(new Error('password=hunter2')).body).toEqual({ code: 'INTERNAL', message: 'Internal error' });
  });
});

describe('config and logging', () => {
  test('defaults, and environment overrides', () => {
    expect(loadConfig({})).toMatchObject({ port: 3000, redisUrl: 'redis://127.0.0.1:6379', bodyLimit: 4096 });
    expect(loadConfig({ PORT: '8080', WS_MAX_PAYLOAD: '512' })).toMatchObject({ port: 8080, wsMaxPayload: 512 });
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(loadConfig({}).lobbyMaxOpenSeeksPerIp).toBe(20);
    // one validate queue on one Redis, three on a cluster unless VALIDATE_QUEUES says
    expect(loadConfig({})).toMatchObject({ redisClusterNodes: [], validateQueues: 1 });
    const cluster = loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001' });
    expect(cluster).toMatchObject({ redisClusterNodes: [{ host: '127.0.0.1', port: 7000 }, { port: 7001 }] });
    expect(cluster.validateQueues).toBe(3);
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'n:7000', VALIDATE_QUEUES: '6' }).validateQueues).toBe(6);
    expect(() => loadConfig({ VALIDATE_QUEUES: '0' })).toThrow(/VALIDATE_QUEUES/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'n' })).toThrow(/REDIS_CLUSTER_NODES/);
    expect(loadConfig({ LOBBY_MAX_OPEN_SEEKS_PER_IP: '0' }).lobbyMaxOpenSeeksPerIp).toBe(0);
  });

  test('a request is cut REQUEST_TIMEOUT_MS after it began, checked four times per timeout; 0 turns it off', () => {
    expect(loadConfig({}).requestTimeoutMs).toBe(15_000);
    expect(requestTimeouts(15_000)).toEqual({
      requestTimeout: 15_000,
      http: { requestTimeout: 15_000, headersTimeout: 15_000, connectionsCheckingInterval: 3_750 },
    });
    // Node refuses headersTimeout > requestTimeout, and checks at most every 30 s by default
    expect(requestTimeouts(300_000).http).toEqual({
      requestTimeout: 300_000,
      headersTimeout: 60_000,
      connectionsCheckingInterval: 30_000,
    });
    expect(requestTimeouts(0)).toEqual({ requestTimeout: 0 });
  });

  test('tokens in URLs are redacted', () => {
    expect(stripToken('/api/games/g1/ws?token=secret&after=3')).toBe('/api/games/g1/ws?token=[Redacted]&after=3');
    expect(stripToken('/api/games/g1/ws?after=3&token=secret')).toBe('/api/games/g1/ws?after=3&token=[Redacted]');
  });
});
