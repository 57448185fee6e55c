/**
 * Whole games over HTTP (app.inject) with a real worker: a checkmate, a sennichite, and
 * perpetual check under both rulesets. Each move is submitted by the player on move and
 * waited for until its verdict is in the log.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MATE_GAME, PERPETUAL_CYCLE, PERPETUAL_SFEN, SENNICHITE } from './fixtures.js';
import { bearer, call, newGame, type Players, playMove, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

/** Plays USI moves alternately from `first`; returns the verdict events. */
async function play(gameId: string, players: Players, moves: readonly string[], first: 'sente' | 'gote' = 'sente') {
  const verdicts = [];
  let ply = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body.ply as number;
  for (const [i, usi] of moves.entries()) {
    const side = i % 2 === 0 ? first : first === 'sente' ? 'gote' : 'sente';
    const { verdict } = await playMove(stack.app, gameId, players[side].token, usi, ply);
    verdicts.push(verdict);
    if (verdict.type === 'MoveAccepted') ply++;
  }
  return verdicts;
}

describe('a whole game over HTTP', () => {
  test('ends by checkmate, and the state says so', async () => {
    // 1. two players and a game
    const { game, players } = await newGame(stack.app);
    expect(game).toMatchObject({ ply: 0, sideToMove: 'sente', status: 'ongoing', result: null, moves: [] });
    // 2. every move accepted
    const verdicts = await play(game.id, players, MATE_GAME);
    expect(verdicts.map((v) => v.type)).toEqual(MATE_GAME.map(() => 'MoveAccepted'));
    // 3. the game ended by checkmate, sente won
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view).toMatchObject({
      status: 'ended',
      result: { winner: 'sente', reason: 'checkmate' },
      ply: MATE_GAME.length,
    });
    expect(view.moves).toEqual([...MATE_GAME]);
    // 4. the log holds one verdict per submission, and the end
    const { events } = (await call(stack.app, 'GET', `/api/games/${game.id}/events?after=0`)).body;
    const types = events.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === 'MoveSubmitted')).toHaveLength(MATE_GAME.length);
    expect(types.filter((t: string) => t === 'MoveAccepted')).toHaveLength(MATE_GAME.length);
    expect(types.at(-1)).toBe('GameEnded');
    expect(view.lastSeq).toBe(events.length);
    // 5. after the end, moves are refused
    const late = await call(
      stack.app,
      'POST',
      `/api/games/${game.id}/moves`,
      { usi: '5a4b', ply: MATE_GAME.length },
      bearer(players.gote.token),
    );
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('GAME_OVER');
  });

  test('sennichite: the fourth repetition ends the game in a draw', async () => {
    // sente's rook shuffle repeats the start position; only the history knows that it is
    // sennichite, so every move here is accepted and the game ends in a draw
    const { game, players } = await newGame(stack.app);
    const verdicts = await play(game.id, players, SENNICHITE);
    expect(verdicts.every((v) => v.type === 'MoveAccepted')).toBe(true);
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view).toMatchObject({ status: 'ended', result: { winner: null, reason: 'sennichite' }, ply: 12 });
  });

  test('perpetual check under jsa: the checker loses', async () => {
    const { game, players } = await newGame(stack.app, { sfen: PERPETUAL_SFEN, ruleset: 'jsa' });
    const moves = [...PERPETUAL_CYCLE, ...PERPETUAL_CYCLE, ...PERPETUAL_CYCLE];
    const verdicts = await play(game.id, players, moves, 'gote');
    expect(verdicts.every((v) => v.type === 'MoveAccepted')).toBe(true);
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view).toMatchObject({ status: 'ended', result: { winner: 'gote', reason: 'perpetual_check' }, ply: 12 });
  });

  test('perpetual check under default: the completing check is rejected and the game goes on', async () => {
    const { game, players } = await newGame(stack.app, { sfen: PERPETUAL_SFEN, ruleset: 'default' });
    const moves = [...PERPETUAL_CYCLE, ...PERPETUAL_CYCLE, ...PERPETUAL_CYCLE];
    const verdicts = await play(game.id, players, moves, 'gote');
    expect(verdicts.slice(0, 11).every((v) => v.type === 'MoveAccepted')).toBe(true);
    expect(verdicts[11]).toMatchObject({ type: 'MoveRejected', payload: { reason: 'perpetual_check', ply: 11 } });
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view).toMatchObject({ status: 'ongoing', ply: 11, sideToMove: 'sente' });
    // sente may still move otherwise
    const [other] = await play(game.id, players, ['2c3c']);
    expect(other?.type).toBe('MoveAccepted');
  });
});
