/**
 * Handicap games over CSA, by shogi-server's game-name prefixes (`hclance_`, `hcbishop_`,
 * `hc2p_`...): the game is this server's handicap game, whose giver is gote and moves first,
 * so the Game_Summary shows the handicap position with `To_Move:-`. Two players are paired
 * only when one of them asked a side; a prefix that names no handicap is LOGIN:incorrect.
 */
import { loadConfig } from '@shogi/gateway';
import { HANDICAP_SFENS } from '@shogi/rules';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient, pairedGame, play } from './csa-client.js';
import { bearer, type CsaStack, call, NO_LIMIT, startCsaStack } from './harness.js';

let stack: CsaStack;
let port: number;

beforeAll(async () => {
  stack = await startCsaStack({
    rateLimits: { ...loadConfig({}).rateLimits, auth: NO_LIMIT, guests: NO_LIMIT },
  });
  port = stack.csaPort;
});

afterAll(async () => {
  await stack?.close();
});

/** The Position block's lines of a summary. */
const positionOf = (lines: readonly string[]) =>
  lines.slice(lines.indexOf('BEGIN Position') + 1, lines.indexOf('END Position'));

describe('handicap game names', () => {
  test('hclance_: the giver (gote, -W) moves first from the lance handicap; played to a resignation', async () => {
    const name = 'hclance_hc-300-10';
    const { sente, gote, gameId, summaries } = await pairedGame(port, ['giver', 'receiver'], name, [`${name}-W`, name]);
    const [receiverSummary, giverSummary] = summaries;
    expect(giverSummary.field('Name-')).toBe('giver');
    expect(giverSummary.field('Name+')).toBe('receiver');
    expect(giverSummary.yourTurn).toBe('-');
    for (const summary of summaries) {
      expect(summary.field('To_Move')).toBe('-');
      const position = positionOf(summary.lines);
      // the giver's 1a lance is off the board; the receiver has every piece
      expect(position[0]).toBe('P1-KY-KE-GI-KI-OU-KI-GI-KE * ');
      expect(position[8]).toBe('P9+KY+KE+GI+KI+OU+KI+GI+KE+KY');
      expect(position[position.length - 1]).toBe('-');
    }
    expect(receiverSummary.yourTurn).toBe('+');

    // the giver moves first; a move sent out of turn by the receiver would wait for its turn
    expect(await play(gote, sente, '-3334FU')).toMatch(/^-3334FU,T\d+$/);
    expect(await play(sente, gote, '+7776FU')).toMatch(/^\+7776FU,T\d+$/);
    expect(await play(gote, sente, '-2288UM')).toMatch(/^-2288UM,T\d+$/);
    sente.send('%TORYO');
    expect(await sente.readUntil('#LOSE')).toEqual(['%TORYO', '#RESIGN', '#LOSE']);
    expect(await gote.readUntil('#WIN')).toEqual(['%TORYO', '#RESIGN', '#WIN']);

    const view = await call(stack.app, 'GET', `/api/games/${gameId}`);
    expect(view.body).toMatchObject({
      status: 'ended',
      initialSfen: HANDICAP_SFENS.lance,
      moves: ['3c3d', '7g7f', '2b8h+'],
      result: { winner: 'gote', reason: 'resignation' },
      rated: false,
    });
    const events = await call(stack.app, 'GET', `/api/games/${gameId}/events?after=0`);
    expect(events.body.events[0].payload).toMatchObject({ handicap: 'lance', clockRules: 'csa', rated: false });
  });

  test('two accounts with trips play a rated handicap game (a named handicap may be rated, as in the lobby)', async () => {
    const trips: string[] = [];
    for (const username of ['hc_rated_a', 'hc_rated_b']) {
      const password = `pw-${username}-long-enough`;
      expect((await call(stack.app, 'POST', '/api/accounts', { username, password })).status).toBe(201);
      const session = (await call(stack.app, 'POST', '/api/session', { username, password })).body.token;
      const made = await call(
        stack.app,
        'POST',
        '/api/tokens',
        { name: 'engine', scopes: ['csa:play'] },
        bearer(session),
      );
      trips.push(made.body.token);
    }
    const name = 'hc2p_rated-300-10';
    const { sente, gote, gameId } = await pairedGame(port, ['hc_rated_a', 'hc_rated_b'], name, [
      `${name}-B,${trips[0]}`,
      `${name},${trips[1]}`,
    ]);
    const view = await call(stack.app, 'GET', `/api/games/${gameId}`);
    expect(view.body).toMatchObject({ rated: true, initialSfen: HANDICAP_SFENS.two_piece, status: 'ongoing' });
    expect(view.body.players.sente.name).toBe('hc_rated_a');
    // the giver (gote) has not moved: its resignation aborts the game, unrated (the ply rule)
    gote.send('%TORYO');
    await Promise.all([gote.readUntil('#CHUDAN'), sente.readUntil('#CHUDAN')]);
  });

  test('two players who asked no side wait; one who asks a side is paired with the first of them', async () => {
    const name = 'hcbishop_sides-300-10';
    const a = await CsaClient.open(port);
    const b = await CsaClient.open(port);
    expect(await a.login('nosidea', name)).toBe('LOGIN:nosidea OK');
    expect(await b.login('nosideb', name)).toBe('LOGIN:nosideb OK');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([...a.drain(), ...b.drain()]).toEqual([]);
    const c = await CsaClient.open(port);
    expect(await c.login('sidec', `${name}-B`)).toBe('LOGIN:sidec OK');
    const [sa, sc] = await Promise.all([a.summary(), c.summary()]);
    expect(sa.gameId).toBe(sc.gameId);
    expect([sa.yourTurn, sc.yourTurn]).toEqual(['-', '+']);
    expect(sc.field('To_Move')).toBe('-');
    expect(b.drain()).toEqual([]);
    for (const client of [a, b, c]) client.close();
  });

  test('a handicap prefix that names no handicap is LOGIN:incorrect', async () => {
    const client = await CsaClient.open(port);
    expect(await client.login('unknownhc', 'hcqueen_test-300-10')).toBe('LOGIN:incorrect');
    await client.closed;
  });
});
