/**
 * The NDJSON stream (with and without a delay of N moves) and the live games list and feed.
 */
import { CLOSE_CODES, type LiveFeedMessage } from '@shogi/protocol';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { MATE_GAME } from './fixtures.js';
import { call, newGame, playMove, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ listen: true });
});
afterAll(async () => {
  await stack?.close();
});

/** Reads NDJSON lines as they come. */
async function openStream(path: string) {
  const res = await fetch(`${stack.baseUrl}${path}`);
  const lines: any[] = [];
  let ended = false;
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    let rest = '';
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      rest += decoder.decode(chunk.value, { stream: true });
      const parts = rest.split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p !== '') lines.push(JSON.parse(p));
    }
    ended = true;
  })();
  const waitFor = async (test: () => boolean) => {
    const deadline = Date.now() + 15_000;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`stream timed out: ${JSON.stringify(lines.slice(-2))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { res, lines, pump, waitFor, isEnded: () => ended, cancel: () => reader?.cancel() };
}

const movesOf = (lines: any[]) => lines.filter((l) => l.type === 'MoveAccepted').map((l) => l.payload.usi);

test('NDJSON: a snapshot line, every event after it, the end; with delay=2 the last two moves wait', async () => {
  const { game, players } = await newGame(stack.app);
  const live = await openStream(`/api/games/${game.id}/stream`);
  const delayed = await openStream(`/api/games/${game.id}/stream?delay=2`);
  expect(live.res.headers.get('content-type')).toContain('application/x-ndjson');
  const play = async (ply: number) =>
    playMove(stack.app, game.id, ply % 2 ? players.gote.token : players.sente.token, MATE_GAME[ply] as string, ply);
  for (let ply = 0; ply < 6; ply++) await play(ply);
  await live.waitFor(() => movesOf(live.lines).length === 6);
  // the delayed stream shows 4 of the 6 moves (the snapshot may already hold some)
  await delayed.waitFor(() => delayed.lines[0]?.type === 'snapshot');
  const shown = () => [...(delayed.lines[0]?.game.moves ?? []), ...movesOf(delayed.lines.slice(1))];
  await delayed.waitFor(() => shown().length === 4);
  await new Promise((r) => setTimeout(r, 200));
  expect(shown()).toEqual(MATE_GAME.slice(0, 4));
  for (let ply = 6; ply < MATE_GAME.length; ply++) await play(ply);
  await Promise.all([live.pump, delayed.pump]);
  expect(live.lines[0]).toMatchObject({ type: 'snapshot', game: { id: game.id, seq: 1 } });
  const seqs = live.lines.slice(1).map((l) => l.seq);
  expect(seqs).toEqual(seqs.map((_, i) => i + 2));
  expect(movesOf(live.lines)).toEqual([...MATE_GAME]);
  // the end releases everything held back
  expect(shown()).toEqual([...MATE_GAME]);
  expect(delayed.lines.at(-1).type).toBe('GameEnded');
});

test('HEAD of an ongoing game’s stream answers its headers at once', async () => {
  const { game } = await newGame(stack.app);
  const res = await fetch(`${stack.baseUrl}/api/games/${game.id}/stream`, {
    method: 'HEAD',
    signal: AbortSignal.timeout(3_000),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/x-ndjson');
});

test('NDJSON of an unknown game is a 404', async () => {
  const res = await fetch(`${stack.baseUrl}/api/games/nope/stream`);
  expect(res.status).toBe(404);
  expect(((await res.json()) as { code: string }).code).toBe('GAME_NOT_FOUND');
});

test('/api/live lists ongoing games with positions; the live feed pushes their moves, takebacks and spectators', async () => {
  const { game, players } = await newGame(stack.app);
  await playMove(stack.app, game.id, players.sente.token, MATE_GAME[0] as string, 0);
  const list = await call(stack.app, 'GET', '/api/live');
  expect(list.status).toBe(200);
  const entry = list.body.games.find((g: { id: string }) => g.id === game.id);
  expect(entry).toMatchObject({ id: game.id, ply: 1, status: 'ongoing', sideToMove: 'gote' });

  const ws = new WebSocket(`${stack.baseUrl.replace(/^http/, 'ws')}/api/live/ws`);
  const frames: LiveFeedMessage[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(String(d))));
  const until = async (test: () => boolean) => {
    const deadline = Date.now() + 15_000;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`live feed timed out: ${JSON.stringify(frames.slice(-2))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await until(() => frames.some((f) => f.type === 'live' && f.games.some((g) => g.id === game.id)));
  await playMove(stack.app, game.id, players.gote.token, MATE_GAME[1] as string, 1);
  await until(() =>
    frames.some((f) => f.type === 'updates' && f.updates.some((u) => u.id === game.id && u.lastMove === MATE_GAME[1])),
  );
  // a takeback puts the earlier position on the mini board, with no last move marked
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  expect(
    (await call(stack.app, 'POST', `/api/games/${game.id}/takeback`, undefined, auth(players.gote.token))).status,
  ).toBe(202);
  expect(
    (await call(stack.app, 'POST', `/api/games/${game.id}/takeback/accept`, undefined, auth(players.sente.token)))
      .status,
  ).toBe(202);
  await until(() =>
    frames.some(
      (f) => f.type === 'updates' && f.updates.some((u) => u.id === game.id && u.ply === 1 && u.lastMove === null),
    ),
  );
  // a spectator on this gateway shows in the count
  const watcher = new WebSocket(`${stack.baseUrl.replace(/^http/, 'ws')}/api/games/${game.id}/watch`);
  await until(() =>
    frames.some((f) => f.type === 'updates' && f.updates.some((u) => u.id === game.id && u.spectators === 1)),
  );
  watcher.close();
  ws.close();
});

test('the live feed is read-only: each frame gets an error frame, twenty close it with 4008', async () => {
  const ws = new WebSocket(`${stack.baseUrl.replace(/^http/, 'ws')}/api/live/ws`);
  const errors: unknown[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (m.type === 'error') errors.push(m);
  });
  await new Promise((resolve) => ws.once('open', resolve));
  const closed = new Promise<number>((resolve) => ws.once('close', (c) => resolve(c)));
  for (let i = 0; i < 25; i++) ws.send('{"type":"move"}');
  expect(await closed).toBe(CLOSE_CODES.TOO_MANY_ERRORS);
  expect(errors.length).toBeGreaterThanOrEqual(1);
  expect(errors[0]).toMatchObject({ error: { code: 'SPECTATOR_READ_ONLY' } });
});
