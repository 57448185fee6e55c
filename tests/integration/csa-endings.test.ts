/**
 * Every ending of a CSA game as the protocol writes it (CSA server protocol 1.2.1; the lines as
 * shogi-server sends them): the special move when there is one, the reason, then each
 * player's result. Long games are replayed from shogi-server's own test records
 * (../shared/fixtures/games/shogi-server), move by move over the protocol.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CsaClient, pairedGame, play } from './csa-client.js';
import { type CsaStack, call, type Stack, startCsaStack } from './harness.js';

let stack: CsaStack;
let short: CsaStack;

beforeAll(async () => {
  // the move limit is past the longest record replayed here (315 moves)
  stack = await startCsaStack({ csaMaxMoves: 400 });
  short = await startCsaStack({ csaMaxMoves: 4 });
});

afterAll(async () => {
  await stack?.close();
  await short?.close();
});

const fixture = (name: string): string[] =>
  readFileSync(`${process.env.SHOGI_FIXTURES}/games/shogi-server/${name}`, 'latin1')
    .split('\n')
    .filter((line) => /^[+-]\d{4}[A-Z]{2}/.test(line))
    .map((line) => line.slice(0, 7));

/** Plays `moves` in turn, sente first; both players see every echo. */
async function playAll(sente: CsaClient, gote: CsaClient, moves: readonly string[]): Promise<void> {
  for (const [i, move] of moves.entries()) {
    const [mover, other] = i % 2 === 0 ? [sente, gote] : [gote, sente];
    await play(mover, other, move);
  }
}

/** The last lines each player gets, up to its result line. */
async function endings(sente: CsaClient, gote: CsaClient, last: string): Promise<[string[], string[]]> {
  const isLast = (line: string) => line === last || /^#(WIN|LOSE|DRAW|CENSORED|CHUDAN)$/.test(line);
  return Promise.all([sente.readUntil(isLast, 15_000), gote.readUntil(isLast, 15_000)]);
}

const result = async (gameId: string, on: Stack = stack) =>
  (await call(on.app, 'GET', `/api/games/${gameId}`)).body.result;

describe('endings', () => {
  test('an illegal move: #ILLEGAL_MOVE, and its mover loses at once', async () => {
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['ill1', 'ill2'], 'illegal-300-10');
    // after both first moves: before them an ending is an abort (the ply rule, below)
    await playAll(sente, gote, ['+7776FU', '-3334FU']);
    sente.send('+7774FU');
    expect(await endings(sente, gote, '')).toEqual([
      ['#ILLEGAL_MOVE', '#LOSE'],
      ['#ILLEGAL_MOVE', '#WIN'],
    ]);
    expect(await result(gameId)).toEqual({ winner: 'gote', reason: 'illegal_move' });
    const events = (await call(stack.app, 'GET', `/api/games/${gameId}/events?after=0`)).body.events;
    expect(events.map((e: { type: string }) => e.type).slice(-3)).toEqual([
      'MoveSubmitted',
      'MoveRejected',
      'GameEnded',
    ]);
  });

  test('a move that names the wrong piece is an illegal move too', async () => {
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['ill3', 'ill4'], 'illegal-300-10');
    await playAll(sente, gote, ['+7776FU', '-3334FU', '+2726FU']);
    gote.send('-8384KA');
    expect(await endings(sente, gote, '')).toEqual([
      ['#ILLEGAL_MOVE', '#WIN'],
      ['#ILLEGAL_MOVE', '#LOSE'],
    ]);
    expect(await result(gameId)).toEqual({ winner: 'sente', reason: 'illegal_move' });
  });

  test('uchifuzume (shogi-server test_csa_uchifuzume): #ILLEGAL_MOVE', async () => {
    const moves = fixture('test_csa_uchifuzume.csa');
    const { sente, gote } = await pairedGame(stack.csaPort, ['uchi1', 'uchi2'], 'uchi-900-0');
    await playAll(sente, gote, moves);
    // gote's engine commented `-5766NG +7766KI -0064FU`: the drop on 64 mates with a pawn
    gote.send('-0064FU');
    expect((await endings(sente, gote, ''))[1]).toEqual(['#ILLEGAL_MOVE', '#LOSE']);
  });

  test('repetition: #SENNICHITE, #DRAW', async () => {
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['rep1', 'rep2'], 'rep-300-10');
    const dance = ['+2838HI', '-8272HI', '+3828HI', '-7282HI'];
    await playAll(sente, gote, [...dance, ...dance, ...dance.slice(0, 3)]);
    gote.send('-7282HI');
    // a move's seconds are whole seconds used: may be more than 0 on a loaded machine
    expect(await endings(sente, gote, '#DRAW')).toEqual([
      [expect.stringMatching(/^-7282HI,T\d+$/), '#SENNICHITE', '#DRAW'],
      [expect.stringMatching(/^-7282HI,T\d+$/), '#SENNICHITE', '#DRAW'],
    ]);
    expect(await result(gameId)).toEqual({ winner: null, reason: 'sennichite' });
  });

  test('perpetual check (shogi-server test_csa_oute_sennichite): #OUTE_SENNICHITE, the checker loses', async () => {
    const moves = fixture('test_csa_oute_sennichite.csa');
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['oute1', 'oute2'], 'oute-900-0');
    await playAll(sente, gote, moves.slice(0, -1));
    const last = moves.at(-1) as string;
    (moves.length % 2 === 1 ? sente : gote).send(last);
    const [s, g] = await endings(sente, gote, '');
    expect(s.slice(1)).toEqual(['#OUTE_SENNICHITE', '#LOSE']);
    expect(g.slice(1)).toEqual(['#OUTE_SENNICHITE', '#WIN']);
    expect(await result(gameId)).toEqual({ winner: 'gote', reason: 'perpetual_check' });
  });

  test('a valid declaration (shogi-server test_csa_jishogi_kachi, by the 27-point rule): %KACHI, #JISHOGI', async () => {
    const moves = fixture('test_csa_jishogi_kachi.csa');
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['kachi1', 'kachi2'], 'kachi-900-0');
    await playAll(sente, gote, moves);
    gote.send('%KACHI');
    expect(await endings(sente, gote, '')).toEqual([
      ['%KACHI', '#JISHOGI', '#LOSE'],
      ['%KACHI', '#JISHOGI', '#WIN'],
    ]);
    expect(await result(gameId)).toEqual({ winner: 'gote', reason: 'impasse' });
  });

  test('a wrong declaration: %KACHI, #ILLEGAL_MOVE, and the declarer loses', async () => {
    const { sente, gote } = await pairedGame(stack.csaPort, ['kachi3', 'kachi4'], 'kachi-300-10');
    await playAll(sente, gote, ['+7776FU', '-3334FU']);
    sente.send('%KACHI');
    expect(await endings(sente, gote, '')).toEqual([
      ['%KACHI', '#ILLEGAL_MOVE', '#LOSE'],
      ['%KACHI', '#ILLEGAL_MOVE', '#WIN'],
    ]);
  });

  test('time up: #TIME_UP, from the clock running since the start', async () => {
    const { sente, gote, gameId, summaries } = await pairedGame(stack.csaPort, ['tu1', 'tu2'], 'tu-3-0');
    expect(summaries[0].field('Total_Time')).toBe('3');
    // both first moves at once; then sente thinks past its 3 s (from the start, less what it used)
    await playAll(sente, gote, ['+7776FU', '-3334FU']);
    expect(await endings(sente, gote, '')).toEqual([
      ['#TIME_UP', '#LOSE'],
      ['#TIME_UP', '#WIN'],
    ]);
    expect(await result(gameId)).toEqual({ winner: 'gote', reason: 'timeout' });
  });

  test('a client that drops mid-game loses on time', async () => {
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['drop1', 'drop2'], 'drop-2-0');
    await playAll(sente, gote, ['+7776FU', '-3334FU', '+2726FU']);
    gote.close();
    expect(await sente.readUntil('#WIN', 15_000)).toEqual(['#TIME_UP', '#WIN']);
    expect(await result(gameId)).toEqual({ winner: 'sente', reason: 'timeout' });
  });

  test.each([
    ['an illegal move', 'ply0a', async (s: CsaClient) => s.send('+7775FU')],
    ['a wrong declaration', 'ply0b', async (s: CsaClient) => s.send('%KACHI')],
    // the first mover's time runs out before the second mover moved
    ['time up', 'ply0c', async () => undefined],
  ])('%s before both sides moved aborts the game: #CHUDAN to both, no winner (the ply rule)', async (_, name, act) => {
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, [`${name}s`, `${name}g`], `${name}-1-0`);
    await act(sente);
    expect(await endings(sente, gote, '')).toEqual([['#CHUDAN'], ['#CHUDAN']]);
    expect(await result(gameId)).toEqual({ winner: null, reason: 'abort' });
  });

  test('%CHUDAN before the first move: #CHUDAN to both, and the game is aborted', async () => {
    const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['ch1', 'ch2'], 'chudan-300-10');
    sente.send('%CHUDAN');
    expect(await endings(sente, gote, '')).toEqual([['#CHUDAN'], ['#CHUDAN']]);
    expect(await result(gameId)).toEqual({ winner: null, reason: 'abort' });
  });

  test('the move limit: #MAX_MOVES, #CENSORED once Max_Moves moves are played', async () => {
    const { sente, gote, gameId, summaries } = await pairedGame(short.csaPort, ['mm1', 'mm2'], 'mm-300-10');
    expect(summaries[0].field('Max_Moves')).toBe('4');
    await playAll(sente, gote, ['+7776FU', '-3334FU', '+2726FU']);
    gote.send('-8384FU');
    const [s, g] = await endings(sente, gote, '#CENSORED');
    expect(s).toEqual([expect.stringMatching(/^-8384FU,T\d+$/), '#MAX_MOVES', '#CENSORED']);
    expect(g).toEqual(s);
    expect(await result(gameId, short)).toEqual({ winner: null, reason: 'max_moves' });
  });
});
