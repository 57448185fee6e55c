/**
 * The blur flag (issue 47): a move's `blur` from the HTTP move route, the player socket's move
 * frame and the Board API's `?blur=true` is recorded in its MoveSubmitted (absent means false)
 * and kept out of every public feed.
 */
import { readStream } from '@shogi/store';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { bearer, call, type Stack, startStack, waitForEvent } from './harness.js';
import { gameBetween, move, person } from './lishogi-client.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ listen: true });
});
afterAll(async () => {
  await stack?.close();
});

const blurs = async (gameId: string) =>
  (await readStream(stack.db, gameId)).flatMap((e) => (e.type === 'MoveSubmitted' ? [e.data.blur ?? false] : []));

describe('blur with each move', () => {
  test('from the Board API, the HTTP route and the player socket, recorded and not published', async () => {
    // 1. two Board API players and their game
    const alice = await person(stack, 'Alice', ['board:play', 'play']);
    const bob = await person(stack, 'Bob', ['board:play', 'play']);
    const gameId = await gameBetween(stack, alice, bob);
    // 2. the Board API: blur=true, then none
    const blurred = await call(
      stack.app,
      'POST',
      `/api/board/game/${gameId}/move/7g7f?blur=true`,
      undefined,
      bearer(alice.token),
    );
    expect(blurred.status).toBe(200);
    await move(stack, gameId, bob.token, '3c3d');
    // 3. the HTTP route: blur true, then false
    const http = await call(
      stack.app,
      'POST',
      `/api/games/${gameId}/moves`,
      { usi: '2g2f', ply: 2, blur: true },
      bearer(alice.token),
    );
    expect(http.status).toBe(202);
    await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 3);
    const plain = await call(
      stack.app,
      'POST',
      `/api/games/${gameId}/moves`,
      { usi: '8c8d', ply: 3, blur: false },
      bearer(bob.token),
    );
    expect(plain.status).toBe(202);
    await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 4);
    // 4. the player socket's move frame
    const ws = new WebSocket(`${stack.baseUrl.replace('http', 'ws')}/api/games/${gameId}/ws`, {
      headers: bearer(alice.token),
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const acked = new Promise((resolve) =>
      ws.on('message', (raw) => {
        if (JSON.parse(String(raw)).type === 'ack') resolve(null);
      }),
    );
    ws.send(JSON.stringify({ type: 'move', usi: '2f2e', ply: 4, blur: true }));
    await acked;
    ws.close();
    await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 5);
    // 5. the log has each move's flag; the public events have none
    expect(await blurs(gameId)).toEqual([true, false, true, false, true]);
    const { body } = await call(stack.app, 'GET', `/api/games/${gameId}/events?after=0`);
    const submitted = (body.events as { type: string; payload: Record<string, unknown> }[]).filter(
      (e) => e.type === 'MoveSubmitted',
    );
    expect(submitted).toHaveLength(5);
    for (const e of submitted) expect(e.payload).not.toHaveProperty('blur');
  });
  test('a blur that is no boolean is refused with a clear error', async () => {
    const alice = await person(stack, 'Carol', ['board:play', 'play']);
    const bob = await person(stack, 'Dave', ['board:play', 'play']);
    const gameId = await gameBetween(stack, alice, bob);
    const http = await call(
      stack.app,
      'POST',
      `/api/games/${gameId}/moves`,
      { usi: '7g7f', ply: 0, blur: 'yes' },
      bearer(alice.token),
    );
    expect(http.status).toBe(400);
    const board = await call(
      stack.app,
      'POST',
      `/api/board/game/${gameId}/move/7g7f?blur=1`,
      undefined,
      bearer(alice.token),
    );
    expect(board.status).toBe(400);
  });
});
