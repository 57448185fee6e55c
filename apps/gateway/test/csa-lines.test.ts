/**
 * The CSA protocol's lines (CSA server protocol 1.2.1; shogi-server's x1 extension for the
 * %% commands), the login password's game names (Floodgate's: `floodgate-300-10F`), and the
 * Game_Summary, as pure values.
 */
import { byoyomi, fischer } from '@shogi/game';
import { HANDICAP_SFENS, isHandicap, START_SFEN } from '@shogi/rules';
import { describe, expect, it } from 'vitest';
import { HANDICAP_PREFIXES, parseGameName, parsePassword } from '../src/csa/game-name.js';
import { MAX_LINE_BYTES, moveEcho, parseClientLine } from '../src/csa/lines.js';
import { MAX_MOVES, summaryLines } from '../src/csa/summary.js';

describe('client lines', () => {
  it.each([
    ['', { kind: 'keepalive' }],
    ['LOGIN engine1 floodgate-300-10F', { kind: 'login', name: 'engine1', password: 'floodgate-300-10F', x1: false }],
    ['LOGIN engine1 test-60-0,tok x1', { kind: 'login', name: 'engine1', password: 'test-60-0,tok', x1: true }],
    ['LOGIN engine1 game-60-0\r', { kind: 'login', name: 'engine1', password: 'game-60-0', x1: false }],
    ['LOGOUT', { kind: 'logout' }],
    ['AGREE', { kind: 'agree', gameId: null }],
    ['AGREE abc123', { kind: 'agree', gameId: 'abc123' }],
    ['REJECT abc123', { kind: 'reject', gameId: 'abc123' }],
    ['+7776FU', { kind: 'move', move: '+7776FU', comment: null }],
    ["-3334FU,'* 30 +2726FU -8384FU", { kind: 'move', move: '-3334FU', comment: '* 30 +2726FU -8384FU' }],
    // read against the position later: a malformed move is the mover's illegal move
    ['+77FU', { kind: 'move', move: '+77FU', comment: null }],
    ['%TORYO', { kind: 'special', move: '%TORYO', comment: null }],
    ["%KACHI,'declared", { kind: 'special', move: '%KACHI', comment: 'declared' }],
    ['%%WHO', { kind: 'x1', command: '%%WHO', word: '%%WHO', args: [], text: '' }],
    [
      '%%GAME floodgate-300-10F +',
      { kind: 'x1', command: '%%GAME', word: '%%GAME', args: ['floodgate-300-10F', '+'], text: '' },
    ],
    ['%%CHAT こんにちは', { kind: 'x1', command: '%%CHAT', word: '%%CHAT', args: [], text: 'こんにちは' }],
    ['%%FOO bar', { kind: 'x1', command: null, word: '%%FOO', args: ['bar'], text: '' }],
  ])('%j', (line, parsed) => {
    expect(parseClientLine(line)).toEqual(parsed);
  });

  it.each([
    ['HELLO'],
    ['LOGIN onlyname'],
    ['LOGIN a b c d'],
    ['+7776FU,T3'],
    ['%RESIGN'],
    ['LOGIN \u00e9 x-1-1'],
    ['+7776FU\u0000'],
    ["+7776FU,'tab\there"],
    ['x'.repeat(MAX_LINE_BYTES + 1)],
  ])('garbage: %j', (line) => {
    expect(parseClientLine(line).kind).toBe('garbage');
  });

  it('echoes a move with its whole seconds', () => {
    expect(moveEcho('+7776FU', 3)).toBe('+7776FU,T3');
  });
});

describe('game names', () => {
  it.each([
    [
      'floodgate-300-10F',
      { name: 'floodgate-300-10F', timeControl: fischer(300, 10), side: null, floodgate: true, handicap: null },
    ],
    [
      'floodgate-600-10',
      { name: 'floodgate-600-10', timeControl: byoyomi(600, 10), side: null, floodgate: true, handicap: null },
    ],
    // sudden death: Byoyomi 0 and no increment
    ['test-900-0', { name: 'test-900-0', timeControl: fischer(900, 0), side: null, floodgate: false, handicap: null }],
    [
      'my-game-60-5-B',
      { name: 'my-game-60-5', timeControl: byoyomi(60, 5), side: 'sente', floodgate: false, handicap: null },
    ],
    ['x-0-10F-w', { name: 'x-0-10F', timeControl: fischer(0, 10), side: 'gote', floodgate: false, handicap: null }],
    // shogi-server's handicap prefixes: the name keeps its prefix (players pair within one handicap)
    [
      'hclance_test-300-10-W',
      { name: 'hclance_test-300-10', timeControl: byoyomi(300, 10), side: 'gote', floodgate: false, handicap: 'lance' },
    ],
    [
      'hcrooklance_x-60-0',
      { name: 'hcrooklance_x-60-0', timeControl: fischer(60, 0), side: null, floodgate: false, handicap: 'rook_lance' },
    ],
    // an upper-case HC is no prefix of shogi-server's: an even game
    [
      'HCfoo_x-60-5',
      { name: 'HCfoo_x-60-5', timeControl: byoyomi(60, 5), side: null, floodgate: false, handicap: null },
    ],
  ])('%s', (text, expected) => {
    expect(parseGameName(text)).toEqual(expected);
  });

  it.each([
    ['nogame'],
    ['x-300'],
    ['x-0-0'],
    // longer than the longest clock this server runs (three hours)
    ['x-99999-10'],
    ['x-300-10-C'],
    ['bad name-300-10'],
    // a handicap prefix that names none
    ['hcfoo_test-300-10'],
    ['hc_test-300-10'],
    ['hcrightlance_test-300-10'],
  ])('refuses %s', (text) => {
    expect(parseGameName(text)).toBeNull();
  });

  it('maps every shogi-server handicap prefix onto a handicap of this server', () => {
    expect(Object.entries(HANDICAP_PREFIXES).map(([prefix]) => parseGameName(`${prefix}_g-300-10`)?.handicap)).toEqual([
      'lance',
      'bishop',
      'rook',
      'rook_lance',
      'two_piece',
      'four_piece',
      'six_piece',
      'eight_piece',
      'ten_piece',
    ]);
    expect(Object.values(HANDICAP_PREFIXES).every((h) => isHandicap(h))).toBe(true);
  });

  it('reads a trip after the game name, and in the x1 mode the trip alone', () => {
    expect(parsePassword('floodgate-300-10F,s3cr3t', false)).toMatchObject({
      game: { name: 'floodgate-300-10F' },
      trip: 's3cr3t',
    });
    expect(parsePassword('test-60-0', false)).toMatchObject({ trip: null });
    expect(parsePassword('anything,s3cr3t', true)).toEqual({ game: null, trip: 's3cr3t' });
    expect(parsePassword('anything', true)).toEqual({ game: null, trip: null });
    expect(parsePassword('nogame,s3cr3t', false)).toBeNull();
  });
});

describe('Game_Summary', () => {
  const game = {
    gameId: 'game-1',
    senteName: 'alpha',
    goteName: 'beta',
    timeControl: fischer(300, 10),
    initialSfen: START_SFEN,
    maxMoves: MAX_MOVES,
  };

  it('is Floodgate-shaped, Your_Turn per player', () => {
    expect(summaryLines(game, 'gote').join('\n')).toBe(`BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:game-1
Name+:alpha
Name-:beta
Your_Turn:-
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:10
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary`);
  });

  it('shows a handicap game from its position: the giver is gote, and moves first', () => {
    const lines = summaryLines({ ...game, initialSfen: HANDICAP_SFENS.lance }, 'sente');
    const position = lines.slice(lines.indexOf('BEGIN Position') + 1, lines.indexOf('END Position'));
    expect(position[0]).toBe('P1-KY-KE-GI-KI-OU-KI-GI-KE * ');
    expect(position[8]).toBe('P9+KY+KE+GI+KI+OU+KI+GI+KE+KY');
    expect(position[position.length - 1]).toBe('-');
    expect(lines).toContain('To_Move:-');
    expect(lines).toContain('Your_Turn:+');
  });

  it('writes byoyomi as Byoyomi, with no Increment line', () => {
    const lines = summaryLines({ ...game, timeControl: byoyomi(600, 10) }, 'sente');
    expect(lines).toContain('Byoyomi:10');
    expect(lines).toContain('Your_Turn:+');
    expect(lines.some((l) => l.startsWith('Increment'))).toBe(false);
  });
});
