/**
 * A lishogi bot in an arena, as a bot client written for lishogi plays it: it joins with its
 * bot token where bots are allowed (and is refused where not), each of its arena games reaches
 * it as a `gameStart` on `GET /api/stream/event`, it plays them over the Bot API, and the
 * standings label it BOT.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';
import { accountWithToken, LineLog, type TestAccount } from './lishogi-event-stream.js';

let stack: Stack;
let robo: TestAccount;
let events: LineLog | null = null;
beforeAll(async () => {
  stack = await startStack({ listen: true, config: { tournamentTickMs: 100 } });
  robo = await accountWithToken(stack.app, 'ArenaBot', ['bot:play']);
  expect((await call(stack.app, 'POST', '/api/bot/account/upgrade', undefined, bearer(robo.token))).status).toBe(200);
});
afterAll(async () => {
  events?.close();
  await stack?.close();
});

async function lishogiPost(path: string, token: string) {
  const res = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers: bearer(token) });
  return { status: res.status, body: await res.json() };
}

describe('a lishogi bot in an arena', () => {
  test('joins where bots are allowed, gets gameStart, plays over the Bot API, is labelled BOT', async () => {
    const person = (await call(stack.app, 'POST', '/api/players', { name: 'kana' })).body;
    const create = (botsAllowed: boolean) =>
      call(
        stack.app,
        'POST',
        '/api/tournament',
        { clockTime: 0.5, clockIncrement: 0, minutes: 5, startDate: Date.now() + 1000, rated: false, botsAllowed },
        bearer(person.token),
      );
    // 1. a bot is refused where bots are not allowed
    const closed = (await create(false)).body;
    const refused = await lishogiPost(`/api/tournament/${closed.id}/join`, robo.token);
    expect(refused.status).toBe(403);
    // 2. where they are, it joins with its bot token, and so does a person
    const t = (await create(true)).body;
    expect((await lishogiPost(`/api/tournament/${t.id}/join`, robo.token)).status).toBe(200);
    expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(person.token))).status).toBe(200);
    // 3. the pairing reaches the bot as lishogi's gameStart
    const opened = await LineLog.open(`${stack.baseUrl}/api/stream/event`, robo.token);
    expect(opened.status).toBe(200);
    events = opened.reader;
    const start = await events.waitFor((l) => l.type === 'gameStart', 15_000);
    const gameId = start.game.gameId as string;
    const pairing = (await call(stack.app, 'GET', `/api/tournament/${t.id}/games`)).body;
    expect(pairing).toMatchObject({ id: gameId, tournamentId: t.id });
    // 4. the bot plays over the Bot API; the person resigns after both first moves
    const game = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
    const botIsSente = game.players.sente.id === robo.id;
    const botSide = botIsSente ? 'sente' : 'gote';
    // 4a. the bot berserks before its first move: its main time halved (30 s to 15 s), once
    expect(await lishogiPost(`/api/bot/game/${gameId}/berserk`, robo.token)).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await lishogiPost(`/api/bot/game/${gameId}/berserk`, robo.token)).toEqual({
      status: 200,
      body: { ok: true },
    });
    const halved = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body.clock;
    expect(halved[botSide].mainMs).toBe(15_000);
    expect(halved[botIsSente ? 'gote' : 'sente'].mainMs).toBe(30_000);
    const submit = async (usi: string, botMoves: boolean) => {
      if (botMoves) expect((await lishogiPost(`/api/bot/game/${gameId}/move/${usi}`, robo.token)).status).toBe(200);
      else
        expect(
          (
            await call(
              stack.app,
              'POST',
              `/api/games/${gameId}/moves`,
              { usi, ply: usi === '7g7f' ? 0 : 1 },
              bearer(person.token),
            )
          ).status,
        ).toBe(202);
    };
    await submit('7g7f', botIsSente);
    await until(async () => (await call(stack.app, 'GET', `/api/games/${gameId}`)).body.ply === 1);
    await submit('3c3d', !botIsSente);
    await until(async () => (await call(stack.app, 'GET', `/api/games/${gameId}`)).body.ply === 2);
    // 4b. after its first move, berserk is refused (400 on lishogi's routes, as its game refusals)
    const late = await lishogiPost(`/api/bot/game/${gameId}/berserk`, robo.token);
    expect(late).toMatchObject({ status: 400, body: { code: 'NOT_BERSERKABLE' } });
    expect((await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(person.token))).status).toBe(202);
    // 5. scored: the bot leads, labelled BOT; its berserk win of 2 plies earns no bonus (under 14)
    await until(async () => {
      const body = (await call(stack.app, 'GET', `/api/tournament/${t.id}`)).body;
      return body.standing.players[0]?.score === 2;
    });
    const leader = (await call(stack.app, 'GET', `/api/tournament/${t.id}`)).body.standing.players[0];
    expect(leader).toMatchObject({ id: robo.id, title: 'BOT', score: 2, sheet: { scores: '2' } });
    const [first] = (await stack.app.inject({ method: 'GET', url: `/api/tournament/${t.id}/games` })).body.split('\n');
    const line = JSON.parse(first as string);
    expect(line.players[botSide].berserk).toBe(true);
  }, 60_000);
});

async function until(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
