/**
 * The CSA front end end to end, with a client written from the CSA server protocol document
 * (csa-client.ts): two engines log in with one game name, get their Game_Summary, agree,
 * play and one resigns; the game is an ordinary game of the HTTP API.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient, pairedGame, play } from './csa-client.js';
import { type CsaStack, call, startCsaStack } from './harness.js';

let stack: CsaStack;
let port: number;

beforeAll(async () => {
  stack = await startCsaStack();
  port = stack.csaPort;
});

afterAll(async () => {
  await stack?.close();
});

describe('a game to resignation', () => {
  test('login, summary, agree, moves echoed with their times, %TORYO; then the game in the HTTP API', async () => {
    // 1. both log in with one game name, and are paired at once
    const { sente, gote, gameId, summaries } = await pairedGame(port, ['alpha', 'beta'], 'resign-300-10');
    expect([summaries[0].field('Name+'), summaries[0].field('Name-')].sort()).toEqual(['alpha', 'beta']);
    expect(summaries[0].yourTurn).toBe('+');
    expect(summaries[1].yourTurn).toBe('-');
    expect(summaries[0].field('Total_Time')).toBe('300');
    expect(summaries[0].field('Byoyomi')).toBe('10');
    expect(summaries[0].field('Protocol_Mode')).toBe('Server');

    // 2. Game_ID is the game's id in the HTTP API
    const view = await call(stack.app, 'GET', `/api/games/${gameId}`);
    expect(view.status).toBe(200);
    expect(view.body.status).toBe('ongoing');

    // 3. moves reach both players with their time in whole seconds
    expect(await play(sente, gote, '+7776FU')).toMatch(/^\+7776FU,T\d+$/);
    expect(await play(gote, sente, '-3334FU')).toMatch(/^-3334FU,T\d+$/);
    expect(await play(sente, gote, '+8822UM')).toMatch(/^\+8822UM,T\d+$/);

    // 4. gote resigns: the special move, the reason, the result to each
    gote.send('%TORYO');
    expect(await gote.readUntil('#LOSE')).toEqual(['%TORYO', '#RESIGN', '#LOSE']);
    expect(await sente.readUntil('#WIN')).toEqual(['%TORYO', '#RESIGN', '#WIN']);

    // 5. a plain-mode connection is closed after its game
    await Promise.all([sente.closed, gote.closed]);

    const ended = await call(stack.app, 'GET', `/api/games/${gameId}`);
    expect(ended.body).toMatchObject({
      status: 'ended',
      result: { winner: 'sente', reason: 'resignation' },
      moves: ['7g7f', '3c3d', '8h2b+'],
    });
    const events = await call(stack.app, 'GET', `/api/games/${gameId}/events?after=0`);
    expect(events.body.events[0].payload).toMatchObject({ clockRules: 'csa', ruleset: 'jsa', rated: false });
  });

  test('an empty line is answered with an empty line, before login and in a game', async () => {
    const client = await CsaClient.open(port);
    client.send('');
    expect(await client.next()).toBe('');
    client.close();
  });

  test('a wrong password (no game name) is LOGIN:incorrect, and the connection is closed', async () => {
    const client = await CsaClient.open(port);
    expect(await client.login('gamma', 'nogame')).toBe('LOGIN:incorrect');
    await client.closed;
  });

  test('REJECT: both players get REJECT:<id> by <name>', async () => {
    const a = await CsaClient.open(port);
    const b = await CsaClient.open(port);
    await a.login('delta', 'reject-60-0');
    await b.login('epsilon', 'reject-60-0');
    const [sa] = await Promise.all([a.summary(), b.summary()]);
    a.send('AGREE');
    b.send('REJECT');
    expect(await a.next()).toBe(`REJECT:${sa.gameId} by epsilon`);
    expect(await b.next()).toBe(`REJECT:${sa.gameId} by epsilon`);
    await Promise.all([a.closed, b.closed]);
    expect((await call(stack.app, 'GET', `/api/games/${sa.gameId}`)).status).toBe(404);
  });
});

describe('several connections', () => {
  test('two games at once on one port: each player hears its own game only', async () => {
    const one = await pairedGame(port, ['one_a', 'one_b'], 'two-300-10');
    const two = await pairedGame(port, ['two_a', 'two_b'], 'three-300-10');
    expect(one.gameId).not.toBe(two.gameId);
    // interleaved: a move in one game, then in the other
    expect(await play(one.sente, one.gote, '+7776FU')).toMatch(/^\+7776FU,T/);
    expect(await play(two.sente, two.gote, '+2726FU')).toMatch(/^\+2726FU,T/);
    expect(await play(one.gote, one.sente, '-3334FU')).toMatch(/^-3334FU,T/);
    expect(await play(two.gote, two.sente, '-8384FU')).toMatch(/^-8384FU,T/);
    one.sente.send('%TORYO');
    expect(await one.gote.readUntil('#WIN')).toEqual(['%TORYO', '#RESIGN', '#WIN']);
    // the other game goes on, and nothing of the first reached its players
    expect(await play(two.sente, two.gote, '+2625FU')).toMatch(/^\+2625FU,T/);
    expect([...two.sente.received, ...two.gote.received].some((l) => l.includes('7776') || l === '#WIN')).toBe(false);
    for (const c of [one.sente, two.sente, two.gote]) c.close();
  });

  test('garbage, a line too long, bytes that are not UTF-8: that connection is closed, a game beside it goes on', async () => {
    const game = await pairedGame(port, ['calm_a', 'calm_b'], 'calm-300-10');
    const bad = await Promise.all([
      CsaClient.open(port),
      CsaClient.open(port),
      CsaClient.open(port),
      CsaClient.open(port),
    ]);
    bad[0]?.send('HELLO SERVER');
    bad[1]?.sendRaw('x'.repeat(10_000));
    bad[2]?.sendRaw(Buffer.from([0x4c, 0x4f, 0xff, 0xfe, 0x0a]));
    expect(await bad[3]?.login('logged_in', 'garbage-300-10')).toBe('LOGIN:logged_in OK');
    bad[3]?.send('%%WHAT');
    await Promise.all(bad.map((c) => c.closed));
    // refused without a word
    expect(bad.slice(0, 3).flatMap((c) => c.received)).toEqual([]);
    expect(await play(game.sente, game.gote, '+7776FU')).toMatch(/^\+7776FU,T/);
    // a player's own garbage mid-game closes its connection only; the game goes on for the other
    game.gote.send('WHAT NOW');
    await game.gote.closed;
    expect(game.sente.isClosed).toBe(false);
    expect((await call(stack.app, 'GET', `/api/games/${game.gameId}`)).body.status).toBe('ongoing');
    game.sente.close();
  });
});
