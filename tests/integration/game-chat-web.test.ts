/**
 * The web client's chat path on a real gateway, worker, PostgreSQL and Redis:
 * `POST /api/games/:id/chat` (who writes in which room, the text rule, the rate limit) and the
 * watch socket's `chatHistory` and `chat` frames (a player's socket the players' room, any other
 * the spectators'; a player's socket opens the spectators' room when the game ends).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { bearer, call, newGame, type Stack, startStack, waitForEvent } from './harness.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ listen: true });
});

afterAll(async () => {
  await stack?.close();
});

type Frame = { type: string; [k: string]: unknown };

/** A watch socket that keeps every frame; `ticket` of a player makes it that player's. */
async function watch(gameId: string, token?: string) {
  const query =
    token === undefined
      ? ''
      : `?ticket=${(await call(stack.app, 'POST', '/api/socket-ticket', {}, bearer(token))).body.ticket}`;
  const ws = new WebSocket(`${stack.baseUrl.replace('http', 'ws')}/api/games/${gameId}/watch${query}`);
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const chat = () => frames.filter((f) => f.type === 'chat' || f.type === 'chatHistory');
  return { ws, frames, chat };
}

const write = (gameId: string, token: string, room: string, text: string) =>
  call(stack.app, 'POST', `/api/games/${gameId}/chat`, { room, text }, bearer(token));

describe('the web chat route and the watch socket', () => {
  test('who writes where, and what each socket reads', async () => {
    const { game, players } = await newGame(stack.app);
    const { sente, gote } = players;
    const carol = (await call(stack.app, 'POST', '/api/players', { name: 'carol' })).body;
    await write(game.id, sente.token, 'player', 'kept before anyone watched');

    const senteSocket = await watch(game.id, sente.token);
    const spectator = await watch(game.id);
    // 1. each socket gets the history of the rooms it may read, and only those
    await expect
      .poll(() => senteSocket.chat())
      .toEqual([
        {
          type: 'chatHistory',
          room: 'player',
          lines: [
            expect.objectContaining({ username: 'alice', playerId: sente.id, text: 'kept before anyone watched' }),
          ],
        },
      ]);
    await expect.poll(() => spectator.chat()).toEqual([{ type: 'chatHistory', room: 'spectator', lines: [] }]);

    // 2. the rooms: a spectator may not write in the players' room, a player not in the
    //    spectators' room while the game goes on; anyone with a player writes there
    expect((await write(game.id, carol.token, 'player', 'hi')).body.code).toBe('NOT_A_PLAYER');
    const early = await write(game.id, gote.token, 'spectator', 'psst');
    expect([early.status, early.body.code]).toEqual([403, 'SPECTATOR_ROOM_CLOSED']);
    const line = await write(game.id, gote.token, 'player', '  <b>hi</b>\n\u202etwo  ');
    expect(line.status).toBe(201);
    // the text rule of lishogi's routes: one line, spaces folded, bidi overrides removed; markup kept as typed
    expect(line.body).toMatchObject({ room: 'player', username: 'bob', playerId: gote.id, text: '<b>hi</b> two' });
    expect((await write(game.id, carol.token, 'spectator', 'go alice')).status).toBe(201);
    const tooLong = await write(game.id, carol.token, 'spectator', 'x'.repeat(141));
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 'BAD_REQUEST']);
    expect((await write(game.id, carol.token, 'spectator', '   ')).status).toBe(400);
    const anonymous = await call(stack.app, 'POST', `/api/games/${game.id}/chat`, { room: 'spectator', text: 'x' });
    expect(anonymous.status).toBe(401);
    expect((await write('no-such-game', carol.token, 'spectator', 'x')).status).toBe(404);

    // 3. live lines reach the sockets of their room only
    await expect
      .poll(() => senteSocket.chat().filter((f) => f.type === 'chat'))
      .toEqual([{ type: 'chat', line: line.body }]);
    await expect
      .poll(() => spectator.chat().filter((f) => f.type === 'chat'))
      .toEqual([{ type: 'chat', line: expect.objectContaining({ room: 'spectator', text: 'go alice' }) }]);

    // 4. at the end the players' sockets open the spectators' room, its history first
    await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, bearer(gote.token));
    await waitForEvent(stack.app, game.id, (e) => e.type === 'GameEnded');
    await expect
      .poll(() => senteSocket.chat().find((f) => f.type === 'chatHistory' && f.room === 'spectator'))
      .toEqual({
        type: 'chatHistory',
        room: 'spectator',
        lines: [expect.objectContaining({ username: 'carol', text: 'go alice' })],
      });
    expect((await write(game.id, gote.token, 'spectator', 'thanks for watching')).status).toBe(201);
    await expect
      .poll(() => senteSocket.chat().at(-1))
      .toEqual({ type: 'chat', line: expect.objectContaining({ room: 'spectator', text: 'thanks for watching' }) });
    // a spectator never reads the players' room, ended or not
    expect(spectator.chat().some((f) => JSON.stringify(f).includes('"room":"player"'))).toBe(false);
    senteSocket.ws.close();
    spectator.ws.close();
  });

  test("the chat's rate limit: RATE_LIMIT_CHAT_MAX lines per window per account, then 429", async () => {
    const { game, players } = await newGame(stack.app);
    const { max } = stack.config.rateLimits.chat;
    for (let i = 0; i < max; i++)
      expect((await write(game.id, players.sente.token, 'player', `line ${i}`)).status).toBe(201);
    const refused = await write(game.id, players.sente.token, 'player', 'one more');
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
    // the opponent has a limit of its own
    expect((await write(game.id, players.gote.token, 'player', 'mine')).status).toBe(201);
  });
});
