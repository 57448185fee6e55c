/**
 * The x1 mode (shogi-server's extended mode, `LOGIN <name> <password> x1`): %%GAME and
 * %%CHALLENGE to find a game, %%WHO, %%LIST, %%SHOW, %%MONITOR2ON, %%CHAT, and a connection
 * that stays after its game.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient, play } from './csa-client.js';
import { type CsaStack, startCsaStack } from './harness.js';

let stack: CsaStack;
let port: number;

beforeAll(async () => {
  stack = await startCsaStack();
  port = stack.csaPort;
});

afterAll(async () => {
  await stack?.close();
});

async function x1(name: string): Promise<CsaClient> {
  const client = await CsaClient.open(port);
  expect(await client.login(name, 'anything', true)).toBe(`LOGIN:${name} OK`);
  expect(await client.next()).toBe('##[LOGIN] +OK x1');
  return client;
}

describe('the x1 mode', () => {
  test('%%GAME and %%CHALLENGE pair two players; a third lists, shows and monitors the game; chat after it', async () => {
    const a = await x1('x1a');
    const b = await x1('x1b');
    const m = await x1('x1mon');

    // 1. a waits with a side; b challenges it
    a.send('%%GAME x1game-300-10 +');
    m.send('%%WHO');
    expect(await m.readUntil('##[WHO] +OK')).toEqual([
      '##[WHO] x1a x1 game_waiting',
      '##[WHO] x1b x1 connected',
      '##[WHO] x1mon x1 connected',
      '##[WHO] +OK',
    ]);
    b.send('%%CHALLENGE x1game-300-10 *');
    const [sa, sb] = await Promise.all([a.summary(), b.summary()]);
    expect([sa.yourTurn, sb.yourTurn]).toEqual(['+', '-']);
    await Promise.all([a.agree(sa.gameId), b.agree(sb.gameId)]);
    await play(a, b, '+7776FU');

    // 2. the third one sees the game in the list, its state, and follows it
    m.send('%%LIST');
    expect(await m.readUntil('##[LIST] +OK')).toContain(`##[LIST] ${sa.gameId}`);
    m.send(`%%SHOW ${sa.gameId}`);
    const show = await m.readUntil('##[SHOW] +OK');
    expect(show).toContain('##[SHOW] Current_Turn:1');
    expect(show).toContain('##[SHOW] To_Move:-');
    expect(show).toContain('##[SHOW] P7+FU+FU * +FU+FU+FU+FU+FU+FU');
    m.send(`%%MONITOR2ON ${sa.gameId}`);
    const tag = `##[MONITOR2][${sa.gameId}]`;
    const record = await m.readUntil(`${tag} +OK`);
    expect(record).toContain(`${tag} +7776FU`);
    await play(b, a, '-3334FU');
    const seconds = expect.stringMatching(/ T\d+$/); // whole seconds used: may be more than 0 on a loaded machine
    expect(await m.readUntil(`${tag} +OK`)).toEqual([`${tag} -3334FU`, seconds, `${tag} +OK`]);
    a.send('%TORYO');
    expect(await a.readUntil('#LOSE')).toEqual(['%TORYO', '#RESIGN', '#LOSE']);
    expect(await b.readUntil('#WIN')).toEqual(['%TORYO', '#RESIGN', '#WIN']);
    expect(await m.readUntil(`${tag} +OK`)).toEqual([`${tag} %TORYO`, `${tag} +OK`]);

    // 3. x1 connections stay after their game, and hear the chat
    m.send('%%CHAT good game');
    expect(await a.next()).toBe('##[CHAT][x1mon] good game');
    expect(await b.next()).toBe('##[CHAT][x1mon] good game');
    expect(a.isClosed || b.isClosed).toBe(false);
    for (const c of [a, b, m]) c.close();
  });

  test('a challenge with nobody waiting, an unknown command, VERSION and HELP', async () => {
    const c = await x1('x1c');
    c.send('%%CHALLENGE lonely-300-10 *');
    expect(await c.next()).toBe("##[ERROR] can't find rival for lonely-300-10");
    c.send('%%FOO');
    expect(await c.next()).toBe('##[ERROR] unknown command %%FOO');
    c.send('%%VERSION');
    expect((await c.readUntil('##[VERSION] +OK')).length).toBe(2);
    c.send('%%HELP');
    expect(await c.next()).toMatch(/^##\[HELP\] available commands/);
    c.send('%%GAME floodgate-300-10F +');
    expect(await c.next()).toMatch(/^##\[ERROR\] You are not allowed to specify TEBAN/);
    c.send('LOGOUT');
    expect(await c.next()).toBe('LOGOUT:completed');
    await c.closed;
  });
});
