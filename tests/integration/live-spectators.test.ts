/**
 * What the lobby's live list and a game's spectator count say: a game's own players,
 * watching it with a socket ticket, are not counted among its spectators (an anonymous
 * watcher is; a bad ticket is refused), and an ongoing game nobody moves in leaves the live
 * list after LIVE_FRESH_SECONDS, as lishogi's TV keeps only games with a recent move.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { bearer, call, newGame, playMove, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ listen: true, config: { liveFreshSeconds: 2 } });
});
afterAll(async () => {
  await stack?.close();
});

const ticketOf = async (token: string) =>
  (await call(stack.app, 'POST', '/api/socket-ticket', {}, bearer(token))).body.ticket as string;

/** Opens a watch socket; resolves with the spectator counts it is told, as they come. */
function watch(gameId: string, ticket?: string): Promise<{ counts: number[]; ws: WebSocket }> {
  const query = ticket === undefined ? '' : `?ticket=${ticket}`;
  const ws = new WebSocket(`${stack.baseUrl.replace(/^http/, 'ws')}/api/games/${gameId}/watch${query}`);
  const counts: number[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'snapshot') counts.push(m.game.spectators);
    if (m.type === 'spectators') counts.push(m.count);
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ counts, ws }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const until = async (check: () => boolean | Promise<boolean>, ms = 8_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

test("a game's players are not its spectators; anyone else is", async () => {
  const { game, players } = await newGame(stack.app);
  const sente = await watch(game.id, await ticketOf(players.sente.token));
  await until(() => sente.counts.length > 0);
  expect(sente.counts[0]).toBe(0);
  const gote = await watch(game.id, await ticketOf(players.gote.token));
  await until(() => gote.counts.length > 0);
  expect(gote.counts[0]).toBe(0);
  // a third player with a ticket of their own is a spectator, and so is an anonymous socket
  const carol = (await call(stack.app, 'POST', '/api/players', { name: 'carol' })).body;
  const other = await watch(game.id, await ticketOf(carol.token));
  await until(() => other.counts.length > 0);
  expect(other.counts[0]).toBe(1);
  const anonymous = await watch(game.id);
  await until(() => sente.counts.at(-1) === 2);
  anonymous.ws.close();
  other.ws.close();
  await until(() => sente.counts.at(-1) === 0);
  // a ticket that is not one is refused before the upgrade
  await expect(watch(game.id, 'not-a-ticket')).rejects.toThrow(/401/);
  // a used ticket too: each opens one socket
  const once = await ticketOf(players.sente.token);
  (await watch(game.id, once)).ws.close();
  await expect(watch(game.id, once)).rejects.toThrow(/401/);
  sente.ws.close();
  gote.ws.close();
});

test('an ongoing game nobody moves in leaves the live list; a move brings it back', async () => {
  const { game, players } = await newGame(stack.app);
  const listed = async () =>
    ((await call(stack.app, 'GET', '/api/live')).body.games as { id: string }[]).some((g) => g.id === game.id);
  expect(await listed()).toBe(true);
  await until(async () => !(await listed()));
  await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
  await until(listed);
  const shown = ((await call(stack.app, 'GET', '/api/live')).body.games as { id: string; ratings?: unknown }[]).find(
    (g) => g.id === game.id,
  );
  // guests without rated games: no rating to show yet
  expect(shown?.ratings).toEqual({ sente: null, gote: null });
});
