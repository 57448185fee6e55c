/**
 * Per-IP and per-token limits on what costs the server without a login: guest players per
 * client IP (an IPv6 client counted by its /64, which one host gets whole), and bot games per
 * token and per IP. Above a limit: 429 RATE_LIMITED with Retry-After. The launcher's own bots
 * are made in-process and count against no one's limit.
 */
import { BotRegistry, createLogger, type GatewayConfig, loadConfig, startGateway } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from '../../apps/server/src/client.js';
import { type Stack, startStack } from './harness.js';

let stack: Stack;
let app: FastifyInstance;
const joined: string[] = [];
let botId: string;

const rateLimits: GatewayConfig['rateLimits'] = {
  ...loadConfig({}).rateLimits,
  guests: { max: 3, windowMs: 60_000 },
  botGames: { max: 2, windowMs: 60_000 },
  botGamesPerIp: { max: 3, windowMs: 60_000 },
  analysis: { max: 2, windowMs: 60_000 },
};

beforeAll(async () => {
  const bots = new BotRegistry();
  stack = await startStack({ worker: false, extras: { bots }, config: { rateLimits } });
  app = stack.app;
  // a bot that only notes the games it is given: the limits are the gateway's
  const player = JSON.parse((await guest('192.0.2.200', 'quiet-bot')).body) as { id: string };
  bots.add({ id: player.id, name: 'quiet-bot', join: (game) => joined.push(game.id) });
  botId = player.id;
});
afterAll(async () => {
  await stack?.close();
});

const guest = (ip: string, name = 'limited') =>
  app.inject({
    method: 'POST',
    url: '/api/players',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ name }),
  });

const botGame = (ip: string, token: string) =>
  app.inject({
    method: 'POST',
    url: `/api/bots/${botId}/games`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: '{}',
  });

describe('guest players per client IP', () => {
  test('a fourth guest from one address in the window is 429 with Retry-After; another address is not held back', async () => {
    for (let i = 0; i < 3; i++) expect((await guest('203.0.113.1')).statusCode).toBe(201);
    const refused = await guest('203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body).code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await guest('203.0.113.2')).statusCode).toBe(201);
  });

  test('an IPv6 client counts by its /64: another address of the same network shares the count', async () => {
    for (const host of ['1', '2', 'abcd:1']) expect((await guest(`2001:db8:1:2::${host}`)).statusCode).toBe(201);
    expect((await guest('2001:db8:1:2:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await guest('2001:db8:1:3::1')).statusCode).toBe(201);
  });
});

describe('bot games per token and per IP', () => {
  test('a third game for one token is 429; other tokens of that address until the address has had its share', async () => {
    const players = [];
    for (const ip of ['198.51.100.1', '198.51.100.2']) players.push(JSON.parse((await guest(ip, 'bot fan')).body));
    const [a, b] = players as { token: string }[];
    expect((await botGame('192.0.2.7', a!.token)).statusCode).toBe(201);
    expect((await botGame('192.0.2.7', a!.token)).statusCode).toBe(201);
    const perToken = await botGame('192.0.2.8', a!.token);
    expect(perToken.statusCode).toBe(429);
    expect(JSON.parse(perToken.body).code).toBe('RATE_LIMITED');
    expect(Number(perToken.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // 192.0.2.7 has started two games: one more for any token from there
    expect((await botGame('192.0.2.7', b!.token)).statusCode).toBe(201);
    const perIp = await botGame('192.0.2.7', b!.token);
    expect(perIp.statusCode).toBe(429);
    expect(Number(perIp.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(joined).toHaveLength(3);
  });

  test('a request with a forged token is refused before it counts against the token limit', async () => {
    expect((await botGame('192.0.2.9', 'forged-token')).statusCode).toBe(401);
  });
});

describe('analysis requests per token', () => {
  test('a third request in the window is 429, whatever the game; another token is not held back', async () => {
    const ask = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/api/games/no-such-game/analysis',
        headers: { authorization: `Bearer ${token}` },
      });
    const [a, b] = [
      JSON.parse((await guest('198.51.100.3', 'curious')).body),
      JSON.parse((await guest('198.51.100.4', 'curious')).body),
    ];
    for (let i = 0; i < 2; i++) expect((await ask(a.token)).statusCode).toBe(404);
    const refused = await ask(a.token);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await ask(b.token)).statusCode).toBe(404);
  });
});

describe("the launcher's own players", () => {
  test('are made in-process: not counted against the address the launcher shares with its visitors', async () => {
    const gateway = await startGateway(
      {
        ...stack.config,
        host: '127.0.0.1',
        port: 0,
        rateLimits: { ...stack.config.rateLimits, guests: { max: 1, windowMs: 60_000 } },
      },
      createLogger({ level: 'silent' }),
    );
    try {
      for (const name of ['bot-a', 'bot-b', 'bot-lobby']) expect((await gateway.createPlayer(name)).name).toBe(name);
      const api = new ApiClient(gateway.url);
      expect((await api.request('POST', '/api/players', { name: 'visitor' })).status).toBe(201);
      expect((await api.request('POST', '/api/players', { name: 'visitor' })).status).toBe(429);
    } finally {
      await gateway.close();
    }
  });
});
