/**
 * The scripted player (the demo games, the lobby's answerer, the house bots) against the
 * move limit: a move refused with 429 brings no message to wake the bot, so it tries again
 * after a pause instead of waiting for ever while its clock runs.
 */
import { loadConfig } from '@shogi/gateway';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type BotPlayer, playAsBot } from '../../apps/server/src/demo/bot.js';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { NO_LIMIT, type Stack, startStack } from './harness.js';

let stack: Stack;

beforeAll(async () => {
  // two moves a second per player: two bots that answer at once run into it every turn or two
  const moves = { max: 2, windowMs: 1_000 };
  const rateLimits = { ...loadConfig({}).rateLimits, guests: NO_LIMIT, moves };
  stack = await startStack({ listen: true, config: { rateLimits } });
});

afterAll(async () => {
  await stack?.close();
});

test('two bots that move at once, over HTTP and over the socket, play through the move limit to the end', async () => {
  const player = async (name: string): Promise<BotPlayer> => ({ ...(await stack.api.createPlayer(name)), name });
  const sente = await player('fast-sente');
  const gote = await player('fast-gote');
  const view = await stack.api.startGame(sente, gote);
  const refusals: string[] = [];
  const common = { api: stack.api, moveDelayMs: 0, maxMoves: 16, onError: (m: string) => refusals.push(m) };
  const [senteEnd, goteEnd] = await Promise.all([
    playAsBot(view, { ...common, player: sente, via: 'http', random: seeded(11) }),
    playAsBot(view, { ...common, player: gote, via: 'ws', random: seeded(12) }),
  ]);
  expect(senteEnd).toEqual(goteEnd);
  expect(senteEnd.moves).toBeGreaterThanOrEqual(2);
  // the limit was met (over HTTP a 429's code, over the socket an error frame's)
  expect(refusals.some((r) => r.includes('RATE_LIMITED'))).toBe(true);
  const { events } = await stack.api.events(view.id);
  expect(events.filter((e) => e.type === 'MoveRejected')).toEqual([]);
  expect(events.at(-1)?.type).toBe('GameEnded');
}, 30_000);

test('refusals by the move limit do not make a bot resign, however many', async () => {
  const player = async (name: string): Promise<BotPlayer> => ({ ...(await stack.api.createPlayer(name)), name });
  const sente = await player('eager-sente');
  const gote = await player('eager-gote');
  const view = await stack.api.startGame(sente, gote);
  const refusals: string[] = [];
  // retried every 20 ms under two moves a second: dozens of 429s and error frames a game
  const common = { api: stack.api, moveDelayMs: 0, maxMoves: 8, retryMs: 20, onError: (m: string) => refusals.push(m) };
  const [senteEnd] = await Promise.all([
    playAsBot(view, { ...common, player: sente, via: 'http', random: seeded(21) }),
    playAsBot(view, { ...common, player: gote, via: 'ws', random: seeded(22) }),
  ]);
  expect(refusals.filter((r) => r.includes('RATE_LIMITED')).length).toBeGreaterThan(20);
  // played on to the move cap (where the bot resigns by design), not given up early
  expect(senteEnd.moves).toBeGreaterThanOrEqual(8);
}, 30_000);
