/**
 * The bots the server runs play many games at once on one token, from the server's own
 * address: the per-player and per-address socket caps and the per-token move limit, meant
 * for clients, must not throttle them, while they still hold every person.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { BotRegistry, loadConfig } from '@shogi/gateway';
import type { GameView } from '@shogi/protocol';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { EngineClient } from '../../apps/server/src/house/engine-client.js';
import { startHouseBots } from '../../apps/server/src/house/house-bots.js';
import { bearer, call, REDIS, type Stack, silentLogger, startStack, startStackEngines } from './harness.js';

let stack: Stack;
let engines: RunningEngineWorker | null = null;
let client: EngineClient;

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH))
    throw new Error(`${DEFAULT_ENGINE_PATH} is missing: apt-get install fairy-stockfish`);
  const bots = new BotRegistry();
  const defaults = loadConfig({});
  stack = await startStack({
    listen: true,
    extras: { bots },
    config: {
      socketMaxPerPlayer: 1,
      socketMaxPerIp: 2,
      rateLimits: { ...defaults.rateLimits, moves: { max: 2, windowMs: 60_000 }, guests: { max: 0, windowMs: 60_000 } },
    },
  });
  const prefix = stack.config.queuePrefix;
  const settings = { path: DEFAULT_ENGINE_PATH, workers: 1, hashMb: 16, analysisDepth: 6 };
  engines = await startStackEngines(stack, settings);
  client = await EngineClient.start({ ...REDIS, prefix, logger: silentLogger() });
  await startHouseBots({
    baseUrl: stack.baseUrl,
    housePlayer: stack.housePlayer,
    registry: bots,
    logger: silentLogger(),
    engine: client,
    levels: [1],
    moveDelayMs: 0,
  });
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  await engines?.close();
});

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('one house bot answers three games at once, past the socket caps and the move limit', async () => {
  const games: { view: GameView; token: string }[] = [];
  for (const name of ['limit-a', 'limit-b', 'limit-c']) {
    const person = (await call(stack.app, 'POST', '/api/players', { name })).body;
    const created = await call(stack.app, 'POST', '/api/bots/engine-1/games', { side: 'sente' }, bearer(person.token));
    expect(created.status).toBe(201);
    games.push({ view: created.body as GameView, token: person.token });
  }
  // each person moves twice (their own limit), the bot answers six times on its one token
  for (const ply of [0, 2]) {
    for (const { view, token } of games) {
      const current = await stack.api.game(view.id);
      const usi = ply === 0 ? '7g7f' : current.moves[1] === '7c7d' ? '2g2f' : '6g6f';
      expect((await stack.api.submitMove(view.id, token, { usi, ply })).ok).toBe(true);
    }
    for (const { view } of games)
      await until(async () => (await stack.api.game(view.id)).moves.length >= ply + 2, 20_000);
  }
  // the person is still held to the move limit
  const { view, token } = games[0] as { view: GameView; token: string };
  const third = await stack.api.submitMove(view.id, token, { usi: '1g1f', ply: 4 });
  expect(third.ok ? 202 : third.status).toBe(429);
  for (const game of games) await call(stack.app, 'POST', `/api/games/${game.view.id}/resign`, {}, bearer(game.token));
});
