/**
 * Takebacks on the real services: over HTTP, the player socket and lishogi's Board API, the
 * players' preferences, the refusals, and the log: a replay gives the live game and clocks,
 * and the worker judges the moves played after a takeback.
 */
import { fold, type GameEvent, initialState, movesOf, turnDeadline, upcastEventData } from '@shogi/game';
import { catchUp } from '@shogi/store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditWhenSettled } from './audit.js';
import { bearer, call, newGame, playMove, type Stack, startStack, waitForEvent } from './harness.js';
import { gameBetween, openStream, person, post } from './lishogi-client.js';
import type { NdjsonLine, NdjsonReader } from './ndjson-client.js';

/** The first gameState line that matches, passing over the others. */
async function stateWhere(stream: NdjsonReader, match: (line: NdjsonLine & Record<string, unknown>) => boolean) {
  for (;;) {
    const line = await stream.nextOf('gameState');
    if (line === null) throw new Error('the stream ended');
    if (match(line as NdjsonLine & Record<string, unknown>)) return line;
  }
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ listen: true });
});
afterAll(async () => {
  await stack?.close();
});

const takeback = (gameId: string, token: string, action: '' | '/accept' | '/decline' = '') =>
  call(stack.app, 'POST', `/api/games/${gameId}/takeback${action}`, undefined, bearer(token));
const view = async (gameId: string) => (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
const setPreference = async (token: string, takeback: string) => {
  return call(stack.app, 'POST', '/api/me/preferences', { takeback }, bearer(token));
};

/** A game after sente 7g7f, gote 3c3d, sente 2g2f: gote is on move. */
async function threeMoves(extra: Record<string, unknown> = {}) {
  const { game, players } = await newGame(stack.app, extra);
  await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
  await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
  await playMove(stack.app, game.id, players.sente.token, '2g2f', 2);
  return { gameId: game.id as string, players };
}

/** The game folded from its log, as a worker or a gateway would fold it after a restart. */
async function replayed(gameId: string) {
  const { body } = await call(stack.app, 'GET', `/api/games/${gameId}/events?after=0`);
  const events = (body.events as { type: GameEvent['type']; payload: unknown }[]).map(
    (e) => ({ type: e.type, data: upcastEventData(e.type, e.payload) }) as GameEvent,
  );
  return fold(events, initialState());
}

describe('over HTTP', () => {
  test('a proposal shows in the view; accepted, it undoes the proposer’s move and the game goes on', async () => {
    const { gameId, players } = await threeMoves();
    const proposed = await takeback(gameId, players.sente.token);
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(202);
    expect((await view(gameId)).takeback).toBe('sente');
    const accepted = await takeback(gameId, players.gote.token, '/accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const after = await view(gameId);
    expect(after).toMatchObject({ moves: ['7g7f', '3c3d'], ply: 2, sideToMove: 'sente', takeback: null });
    // the worker judges the next move on the position taken back to
    const { verdict } = await playMove(stack.app, gameId, players.sente.token, '6g6f', 2);
    expect(verdict.type).toBe('MoveAccepted');
    expect((await view(gameId)).moves).toEqual(['7g7f', '3c3d', '6g6f']);
    const report = await auditWhenSettled(stack.db);
    expect(report.problems).toEqual([]);
  });

  test('on the proposer’s own turn the reply is undone too; a decline and a withdrawal leave the moves', async () => {
    const { gameId, players } = await threeMoves();
    expect((await takeback(gameId, players.gote.token)).status).toBe(202);
    expect((await takeback(gameId, players.sente.token, '/decline')).status).toBe(202);
    expect(await view(gameId)).toMatchObject({ ply: 3, takeback: null });
    expect((await takeback(gameId, players.gote.token)).status).toBe(202);
    expect((await takeback(gameId, players.gote.token, '/decline')).status).toBe(202);
    expect(await view(gameId)).toMatchObject({ ply: 3, takeback: null });
    expect((await takeback(gameId, players.gote.token)).status).toBe(202);
    expect((await takeback(gameId, players.sente.token, '/accept')).status).toBe(202);
    expect(await view(gameId)).toMatchObject({ moves: ['7g7f'], ply: 1, sideToMove: 'gote' });
  });

  test('a replay of the log gives the live game and clocks', async () => {
    const timeControl = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 };
    const { gameId, players } = await threeMoves({ timeControl });
    await takeback(gameId, players.sente.token);
    await new Promise((r) => setTimeout(r, 300));
    const accepted = await takeback(gameId, players.gote.token, '/accept');
    expect(accepted.status).toBe(202);
    const live = await view(gameId);
    const state = await replayed(gameId);
    expect(movesOf(state)).toEqual(live.moves);
    expect(state.sfen).toBe(live.sfen);
    expect(state.clock?.toMove).toBe('sente');
    // gote's thinking time up to the acceptance is charged, and the view's clocks are the log's
    expect(state.clock?.gote.mainMs).toBeLessThan(300_000);
    expect(live.clock.gote.mainMs).toBe(state.clock?.gote.mainMs);
    const clock = state.clock;
    if (clock === null) throw new Error('no clock');
    expect(live.clock.deadlineAt).toBe(new Date(turnDeadline(clock, state.ply) ?? 0).toISOString());
    // sente's turn starts afresh at the acceptance: its full byoyomi is ahead of the main time left
    expect(turnDeadline(clock, state.ply)).toBe(clock.turnStartedAt + clock.sente.mainMs + 10_000);
    const report = await auditWhenSettled(stack.db);
    expect(report.problems).toEqual([]);
  });
});

describe('statistics', () => {
  test('moves taken back are no part of the game’s opening, nor of its length', async () => {
    const { gameId, players } = await threeMoves();
    await takeback(gameId, players.sente.token);
    await takeback(gameId, players.gote.token, '/accept');
    await playMove(stack.app, gameId, players.sente.token, '6g6f', 2);
    await takeback(gameId, players.sente.token);
    await takeback(gameId, players.gote.token, '/accept');
    // the game ends two moves in, after a takeback with no move since
    await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(players.gote.token));
    await catchUp(stack.db);
    // the explorer counts each move played out of a position: 2g2f and 6g6f were taken back
    const first = await call(stack.app, 'GET', '/api/stats/openings?moves=7g7f');
    expect(first.body.next.map((n: { usi: string; games: number }) => [n.usi, n.games])).toEqual([['3c3d', 1]]);
    const second = await call(stack.app, 'GET', '/api/stats/openings?moves=7g7f,3c3d');
    expect(second.body.next).toEqual([]);
    const { rows } = await sql<{ plies: number }>`select plies from finished_games where game_id = ${gameId}`.execute(
      stack.db,
    );
    expect(rows).toEqual([{ plies: 2 }]);
  });
});

describe('refusals', () => {
  test('not one’s game, no move to take back, a second proposal, one’s own proposal, a finished game', async () => {
    const { game, players } = await newGame(stack.app);
    const stranger = (await call(stack.app, 'POST', '/api/players', { name: 'carol' })).body;
    expect((await takeback(game.id, players.sente.token)).body.code).toBe('NO_MOVE_TO_TAKE_BACK');
    await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
    // gote has no move yet
    expect((await takeback(game.id, players.gote.token)).body.code).toBe('NO_MOVE_TO_TAKE_BACK');
    const notMine = await takeback(game.id, stranger.token);
    expect([notMine.status, notMine.body.code]).toEqual([403, 'NOT_A_PLAYER']);
    expect((await takeback(game.id, players.sente.token)).status).toBe(202);
    const second = await takeback(game.id, players.sente.token);
    expect([second.status, second.body.code]).toEqual([409, 'TAKEBACK_PENDING']);
    expect((await takeback(game.id, players.sente.token, '/accept')).body.code).toBe('NO_TAKEBACK_PROPOSAL');
    expect((await takeback(game.id, stranger.token, '/accept')).body.code).toBe('NOT_A_PLAYER');
    expect((await call(stack.app, 'POST', `/api/games/${game.id}/takeback`)).status).toBe(401);
    await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, bearer(players.gote.token));
    expect((await takeback(game.id, players.gote.token, '/accept')).body.code).toBe('GAME_OVER');
    expect(await view(game.id)).toMatchObject({ moves: ['7g7f'], takeback: null });
  });

  test('a move voids the proposal', async () => {
    const { gameId, players } = await threeMoves();
    await takeback(gameId, players.sente.token);
    await playMove(stack.app, gameId, players.gote.token, '8c8d', 3);
    expect((await view(gameId)).takeback).toBe(null);
    expect((await takeback(gameId, players.gote.token, '/accept')).body.code).toBe('NO_TAKEBACK_PROPOSAL');
  });

  test('preferences: never refuses, casual refuses in rated games only; a guest has none to set', async () => {
    const a = await person(stack, 'tbA', ['play', 'board:play']);
    const b = await person(stack, 'tbB', ['play', 'board:play']);
    expect(await call(stack.app, 'GET', '/api/me/preferences', undefined, bearer(a.token))).toMatchObject({
      status: 200,
      body: { takeback: 'always' },
    });
    expect(await setPreference(b.token, 'never')).toEqual({ status: 200, body: { takeback: 'never' } });
    expect((await call(stack.app, 'GET', '/api/me/preferences', undefined, bearer(b.token))).body).toEqual({
      takeback: 'never',
    });
    const casualGame = await gameBetween(stack, a, b);
    await post(stack, `/api/board/game/${casualGame}/move/7g7f`, a.token);
    await waitForEvent(stack.app, casualGame, (e) => e.type === 'MoveAccepted');
    const refused = await takeback(casualGame, a.token);
    expect([refused.status, refused.body.code]).toEqual([409, 'TAKEBACK_NOT_ALLOWED']);

    await setPreference(b.token, 'casual');
    expect((await takeback(casualGame, a.token)).status).toBe(202);
    const timeControl = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 };
    const ratedGame = await gameBetween(stack, a, b, { rated: true, timeControl });
    await post(stack, `/api/board/game/${ratedGame}/move/7g7f`, a.token);
    await waitForEvent(stack.app, ratedGame, (e) => e.type === 'MoveAccepted');
    expect((await takeback(ratedGame, a.token)).body.code).toBe('TAKEBACK_NOT_ALLOWED');

    const bad = await setPreference(a.token, 'sometimes');
    expect(bad.status).toBe(400);
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'dave' })).body;
    const guestSet = await setPreference(guest.token, 'never');
    expect([guestSet.status, guestSet.body.code]).toEqual([403, 'ACCOUNT_REQUIRED']);
  });
});

describe('over the player socket', () => {
  test('takeback frames propose and accept; both players see the events', async () => {
    const { gameId, players } = await threeMoves();
    const sente = await stack.api.playerSocket(gameId, players.sente.token);
    const gote = await stack.api.playerSocket(gameId, players.gote.token);
    try {
      await sente.waitFor((m) => m.type === 'hello');
      await gote.waitFor((m) => m.type === 'hello');
      sente.send({ type: 'takeback', action: 'propose' });
      const ack = await sente.waitFor((m) => m.type === 'ack');
      const seen = (type: string) => (m: { type: string; events?: { type: string }[] }) =>
        m.type === 'events' && (m.events ?? []).some((e) => e.type === type);
      await gote.waitFor(seen('TakebackProposed'));
      gote.send({ type: 'takeback', action: 'accept' });
      await gote.waitFor((m) => m.type === 'ack' && m.seq > (ack as { seq: number }).seq);
      await sente.waitFor(seen('TakebackAccepted'));
      expect(await view(gameId)).toMatchObject({ ply: 2, takeback: null });
      gote.send({ type: 'takeback', action: 'decline' });
      const error = await gote.waitFor((m) => m.type === 'error');
      expect((error as { error: { code: string } }).error.code).toBe('NO_TAKEBACK_PROPOSAL');
      gote.send({ type: 'takeback', action: 'maybe' } as never);
      const malformed = await gote.waitFor((m) => m.type === 'error' && m !== error);
      expect((malformed as { error: { code: string } }).error.code).toBe('BAD_REQUEST');
    } finally {
      await sente.close();
      await gote.close();
    }
  });
});

describe('over lishogi’s Board API', () => {
  test('takeback/yes proposes and accepts, takeback/no declines; the stream shows stakeback/gtakeback', async () => {
    const a = await person(stack, 'boardA');
    const b = await person(stack, 'boardB');
    const gameId = await gameBetween(stack, a, b);
    for (const [usi, token] of [
      ['7g7f', a.token],
      ['3c3d', b.token],
    ] as const) {
      const r = await post(stack, `/api/board/game/${gameId}/move/${usi}`, token);
      expect(r.body).toEqual({ ok: true });
    }
    const stream = await openStream(stack, gameId, a.token);
    try {
      expect(await post(stack, `/api/board/game/${gameId}/takeback/yes`, b.token)).toEqual({
        status: 200,
        body: { ok: true },
      });
      const offered = await stateWhere(stream, (l) => l.gtakeback === true);
      expect(offered).toMatchObject({ type: 'gameState', stakeback: false, moves: '7g7f 3c3d' });
      expect((await post(stack, `/api/board/game/${gameId}/takeback/no`, a.token)).body).toEqual({ ok: true });
      await stateWhere(stream, (l) => l.gtakeback === false);
      await post(stack, `/api/board/game/${gameId}/takeback/yes`, b.token);
      expect(await post(stack, `/api/board/game/${gameId}/takeback/yes`, a.token)).toEqual({
        status: 200,
        body: { ok: true },
      });
      const taken = await stateWhere(stream, (l) => l.moves === '7g7f');
      expect(taken).toMatchObject({ stakeback: false, gtakeback: false });
      const wrong = await post(stack, `/api/board/game/${gameId}/takeback/maybe`, a.token);
      expect(wrong.status).toBe(400);
      const bot = await post(stack, `/api/bot/game/${gameId}/takeback/yes`, a.token);
      expect(bot.status).toBe(404);
    } finally {
      stream.close();
    }
  });
});
