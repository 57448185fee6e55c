/**
 * The demo's lobby bot: a person's casual seek that nobody takes is answered by the bot,
 * which then plays the game through the public API (moves validated by a real worker).
 */
import type { SeekView } from '@shogi/protocol';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { answerSeeks } from '../../apps/server/src/demo/seek-answerer.js';
import { bearer, call, type Stack, startStack, waitForEvent } from './harness.js';

let stack: Stack;
const stop = new AbortController();
beforeAll(async () => {
  stack = await startStack({ listen: true });
});
afterAll(async () => {
  stop.abort();
  await stack?.close();
});

test('a casual seek nobody takes is answered by the bot, which plays the game', async () => {
  answerSeeks({
    api: stack.api,
    logger: pino({ level: 'silent' }),
    signal: stop.signal,
    random: seeded(7),
    publicUrl: stack.baseUrl,
    waitMs: 0,
    pollMs: 20,
    lookers: (except) => stack.lobbyLookers(except),
    moveDelayMs: 0,
  }).catch(() => undefined);
  const person = (await call(stack.app, 'POST', '/api/players', { name: 'newcomer' })).body;
  const tc = { kind: 'fischer', mainSeconds: 600, incrementSeconds: 5 };
  // a rated seek is left alone by the bot
  const rated = (await call(stack.app, 'POST', '/api/seeks', { timeControl: tc, rated: true }, bearer(person.token)))
    .body as SeekView;
  const seek = (
    await call(stack.app, 'POST', '/api/seeks', { timeControl: tc, rated: false, color: 'sente' }, bearer(person.token))
  ).body as SeekView;
  expect(seek.status).toBe('open');
  let paired: SeekView = seek;
  while (paired.status === 'open') {
    await new Promise((r) => setTimeout(r, 20));
    paired = (await call(stack.app, 'GET', `/api/seeks/${seek.id}`)).body;
  }
  expect(paired).toMatchObject({ status: 'paired', side: 'sente' });
  const gameId = paired.gameId as string;
  const game = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
  expect(game.players.gote.name).toBe('bot-lobby');
  expect(game.rated).toBe(false);
  // the person moves; the bot answers with a move of its own
  expect(
    (await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi: '7g7f', ply: 0 }, bearer(person.token))).status,
  ).toBe(202);
  const reply = await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 2);
  expect(reply.payload.usi).toMatch(/^[1-9][a-i][1-9][a-i]\+?$|^[PLNSGBR]\*/);
  // the bot saw the older rated seek first and left it: it was withdrawn by the pairing, never paired
  expect((await call(stack.app, 'GET', `/api/seeks/${rated.id}`)).body).toMatchObject({
    status: 'cancelled',
    gameId: null,
  });
});
