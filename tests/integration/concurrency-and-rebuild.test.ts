/**
 * Races and projections: two gateways on one database take simultaneous submissions for
 * the same ply and exactly one is recorded and accepted; afterwards the `games` table
 * rebuilt from the log equals the live one.
 */
import { buildApp } from '@shogi/gateway';
import { compareGamesWithLog, rebuildGamesTable } from '@shogi/store';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MATE_GAME, SENNICHITE } from './fixtures.js';
import { bearer, call, newGame, playMove, type Stack, silentLogger, startStack, waitForEvent } from './harness.js';

let stack: Stack;
let second: FastifyInstance;
beforeAll(async () => {
  stack = await startStack();
  // a second gateway process in all but name: its own pools, caches and hub
  second = await buildApp(stack.config, silentLogger());
});
afterAll(async () => {
  await second?.close();
  await stack?.close();
});

describe('simultaneous submissions', () => {
  test('for the same ply, on two gateways: exactly one is recorded and gets a verdict', async () => {
    for (let round = 0; round < 8; round++) {
      const { game, players } = await newGame(stack.app);
      const token = bearer(players.sente.token);
      // 1. both gateways know the game (warm caches make the race tighter)
      await call(second, 'GET', `/api/games/${game.id}`);
      // 2. two different moves for ply 0 at once
      const [a, b] = await Promise.all([
        call(stack.app, 'POST', `/api/games/${game.id}/moves`, { usi: '7g7f', ply: 0 }, token),
        call(second, 'POST', `/api/games/${game.id}/moves`, { usi: '2g2f', ply: 0 }, token),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([202, 409]);
      const refused = a.status === 409 ? a : b;
      expect(['MOVE_PENDING', 'NOT_YOUR_TURN', 'STALE_PLY']).toContain(refused.body.code);
      // 3. the log has one submission and, once the worker ran, one verdict
      const winner = a.status === 202 ? a : b;
      await waitForEvent(
        stack.app,
        game.id,
        (e) => e.type === 'MoveAccepted' && e.payload.submittedSeq === winner.body.seq,
      );
      const { events } = (await call(stack.app, 'GET', `/api/games/${game.id}/events`)).body;
      expect(events.map((e: { type: string }) => e.type)).toEqual(['GameCreated', 'MoveSubmitted', 'MoveAccepted']);
    }
  });

  test('the same move sent twice at once with one idempotency key is recorded once', async () => {
    const { game, players } = await newGame(stack.app);
    const headers = { ...bearer(players.sente.token), 'idempotency-key': 'once' };
    const answers = await Promise.all([
      call(stack.app, 'POST', `/api/games/${game.id}/moves`, { usi: '7g7f', ply: 0 }, headers),
      call(second, 'POST', `/api/games/${game.id}/moves`, { usi: '7g7f', ply: 0 }, headers),
    ]);
    expect(answers.map((x) => x.status)).toEqual([202, 202]);
    expect(answers[0]?.body).toEqual(answers[1]?.body);
    const { events } = (await call(stack.app, 'GET', `/api/games/${game.id}/events`)).body;
    expect(events.filter((e: { type: string }) => e.type === 'MoveSubmitted')).toHaveLength(1);
  });
});

describe('the games projection', () => {
  test('rebuilt from the log, it equals the live table', async () => {
    // games in every state: mated, drawn, resigned, in progress, fresh
    const mated = await newGame(stack.app);
    for (const [ply, usi] of MATE_GAME.entries()) {
      const p = ply % 2 === 0 ? mated.players.sente : mated.players.gote;
      await playMove(stack.app, mated.game.id, p.token, usi, ply);
    }
    const drawn = await newGame(stack.app);
    for (const [ply, usi] of SENNICHITE.entries()) {
      const p = ply % 2 === 0 ? drawn.players.sente : drawn.players.gote;
      await playMove(stack.app, drawn.game.id, p.token, usi, ply);
    }
    const resigned = await newGame(stack.app, { handicap: 'bishop' });
    await call(stack.app, 'POST', `/api/games/${resigned.game.id}/resign`, {}, bearer(resigned.players.sente.token));
    const ongoing = await newGame(stack.app, { ruleset: 'jsa' });
    await playMove(stack.app, ongoing.game.id, ongoing.players.sente.token, '7g7f', 0);
    await newGame(stack.app);

    const before = await stack.db.selectFrom('games').selectAll().orderBy('id').execute();
    const compared = await compareGamesWithLog(stack.db);
    expect(compared.differences).toEqual([]);
    expect(compared.rebuilt).toBe(before.length);
    await rebuildGamesTable(stack.db);
    const after = await stack.db.selectFrom('games').selectAll().orderBy('id').execute();
    expect(after).toEqual(before);
    // and the projection agrees with the API's view of each game
    for (const { game } of [mated, drawn, resigned, ongoing]) {
      const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
      const row = after.find((r) => r.id === game.id);
      expect(row).toMatchObject({
        status: view.status,
        ply: view.ply,
        last_seq: view.lastSeq,
        sfen: view.sfen,
        side_to_move: view.sideToMove,
      });
    }
  });
});
