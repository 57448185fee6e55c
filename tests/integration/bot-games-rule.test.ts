/**
 * The one-real-time-game rule for bot games (POST /api/bots/:id/games): the lobby's check,
 * under the person's lock, so a person plays one byoyomi or Fischer game at a time however
 * it was started; unlimited and correspondence bot games are not limited, and the bot (which
 * plays many games at once) is exempt. The bot here is a registered player that never moves.
 */
import { BotRegistry } from '@shogi/gateway';
import type { GameView } from '@shogi/protocol';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';

interface TestPlayer {
  readonly id: string;
  readonly token: string;
}

const byoyomi = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 };
const fischer = { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 };

let stack: Stack;
let bot: TestPlayer;

beforeAll(async () => {
  const bots = new BotRegistry();
  stack = await startStack({ extras: { bots } });
  bot = (await call(stack.app, 'POST', '/api/players', { name: 'still-bot' })).body;
  bots.add({ id: 'still-bot', playerId: bot.id, name: 'still-bot', join: () => undefined });
});

afterAll(async () => {
  await stack?.close();
});

const newPlayer = async (name: string): Promise<TestPlayer> =>
  (await call(stack.app, 'POST', '/api/players', { name })).body;

const botGame = (person: TestPlayer, body: Record<string, unknown> = {}) =>
  call(stack.app, 'POST', '/api/bots/still-bot/games', body, bearer(person.token));

const resign = async (gameId: string, person: TestPlayer) =>
  (await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(person.token))).status;

test('a person in a real-time bot game is refused a second (409 ALREADY_PLAYING); unlimited and correspondence ones are not limited; the bot is exempt', async () => {
  const person = await newPlayer('busy-person');
  const first = await botGame(person, { timeControl: byoyomi });
  expect(first.status).toBe(201);
  const gameId = (first.body as GameView).id;

  const second = await botGame(person, { timeControl: fischer, side: 'gote' });
  expect([second.status, second.body.code]).toEqual([409, 'ALREADY_PLAYING']);
  expect(second.body.detail).toContain(gameId);

  const unlimited = await botGame(person);
  expect(unlimited.status).toBe(201);
  expect(unlimited.body.id).not.toBe(gameId);
  const correspondence = await botGame(person, { timeControl: { kind: 'correspondence', daysPerMove: 3 } });
  expect(correspondence.status).toBe(201);

  // the same rule as the lobby's: her real-time seek is refused too
  const seek = await call(
    stack.app,
    'POST',
    '/api/seeks',
    { timeControl: fischer, rated: false },
    bearer(person.token),
  );
  expect([seek.status, seek.body.code]).toEqual([409, 'ALREADY_PLAYING']);

  // the bot, in her real-time game, starts another with someone else
  const other = await botGame(await newPlayer('other-person'), { timeControl: fischer });
  expect(other.status).toBe(201);

  // once her game has ended she may start another
  expect(await resign(gameId, person)).toBe(202);
  const again = await botGame(person, { timeControl: fischer });
  expect(again.status).toBe(201);
});

test('a person in a real-time lobby game is refused a real-time bot game', async () => {
  const [a, b] = await Promise.all([newPlayer('lobby-a'), newPlayer('lobby-b')]);
  const offer = await call(
    stack.app,
    'POST',
    '/api/challenges',
    { opponent: b.id, timeControl: fischer, rated: false },
    bearer(a.token),
  );
  expect(offer.status).toBe(201);
  const accepted = await call(stack.app, 'POST', `/api/challenges/${offer.body.id}/accept`, {}, bearer(b.token));
  expect(accepted.status).toBe(200);
  for (const person of [a, b]) {
    const refused = await botGame(person, { timeControl: byoyomi });
    expect([refused.status, refused.body.code]).toEqual([409, 'ALREADY_PLAYING']);
    expect(refused.body.detail).toContain(accepted.body.gameId);
  }
});

test('two real-time bot games asked for at once: exactly one starts', async () => {
  for (let trial = 0; trial < 5; trial++) {
    const person = await newPlayer(`racer-${trial}`);
    const answers = await Promise.all([
      botGame(person, { timeControl: fischer }),
      botGame(person, { timeControl: byoyomi, side: 'gote' }),
    ]);
    expect(answers.map((a) => a.status).sort(), `trial ${trial}`).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409);
    const started = answers.find((a) => a.status === 201);
    expect(refused?.body.code).toBe('ALREADY_PLAYING');
    expect(refused?.body.detail).toContain(started?.body.id);
  }
});
