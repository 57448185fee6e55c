import type { GameSnapshot, WireEvent } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { LIVE } from '../src/shogi/cursor.js';
import { boardOfSfen } from '../src/shogi/model.js';
import {
  isTarget,
  pickFromHand,
  selectedDropType,
  selectedSquare,
  selectionFrom,
} from '../src/views/game/selection.js';
import {
  canMove,
  controlsShown,
  type GamePageState,
  mySide,
  myTurn,
  newGamePageState,
} from '../src/views/game/state.js';
import {
  applyEvents,
  resetFrom,
  settleSubmission,
  showPosition,
  startSubmission,
} from '../src/views/game/transitions.js';
import { readTypedMove } from '../src/views/game/typed-move.js';
import { banner, clockLabel, pastNoteText, placeText, refusal } from '../src/views/game/wording.js';

const SENTE = { id: 'p-sente', token: 't-sente' };
const GOTE = { id: 'p-gote', token: 't-gote' };
const BOT = 'p-bot';
const square = (usi: string) => '987654321'.indexOf(usi[0] ?? '') + 'abcdefghi'.indexOf(usi[1] ?? '') * 9;

function snapshot(over: Partial<GameSnapshot> = {}): GameSnapshot {
  return {
    id: 'g1',
    ruleset: 'default',
    initialSfen: START_SFEN,
    sfen: START_SFEN,
    moves: [],
    ply: 0,
    sideToMove: 'sente',
    status: 'ongoing',
    result: null,
    players: { sente: { id: SENTE.id, name: 'Ann' }, gote: { id: GOTE.id, name: 'Bob' } },
    timeControl: { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 },
    rated: false,
    clock: null,
    seq: 0,
    takeback: null,
    spectators: 0,
    ...over,
  };
}

/** A page's state after the watch socket's snapshot. */
function following(me: typeof SENTE | null, over: Partial<GameSnapshot> = {}): GamePageState {
  const state = newGamePageState(me);
  resetFrom(state, snapshot({ ...over, ply: over.moves?.length ?? 0 }), 1_000);
  return state;
}

let seq = 0;
const event = (type: string, payload: Record<string, unknown>): WireEvent => ({
  seq: ++seq,
  type,
  payload,
  recordedAt: '2026-01-01T00:00:00.000Z',
});
const side = { mainMs: 600_000, periodsLeft: 1, periodMs: 30_000 };
const accepted = (usi: string, ply: number, submittedSeq = 100 + ply) =>
  event('MoveAccepted', {
    usi,
    ply,
    submittedSeq,
    clock: { sente: side, gote: side, movedAt: '2026-01-01T00:00:10.000Z' },
  });

describe('game page state: what goes when the game moves on', () => {
  test('a note about the position before goes when a move arrives, and when the game ends', () => {
    const state = following(SENTE);
    state.message = 'You cannot play 7g7e: that piece cannot move there.';
    applyEvents(state, [accepted('7g7f', 1)]);
    expect(state.message).toBe('');
    state.message = 'You cannot play 5i5g: you cannot take your own piece.';
    applyEvents(state, [
      event('GameEnded', { winner: 'sente', reason: 'resignation', at: '2026-01-01T00:00:20.000Z' }),
    ]);
    expect(state.message).toBe('');
  });

  test("a loss on time stops the clocks with the loser's at nothing", () => {
    const state = following(SENTE);
    applyEvents(state, [accepted('7g7f', 1), accepted('3c3d', 2)]);
    expect(state.clock?.running).toBe('sente');
    applyEvents(state, [event('GameEnded', { winner: 'gote', reason: 'timeout', at: '2026-01-01T00:11:00.000Z' })]);
    expect(state.clock).toMatchObject({ running: null, sente: { mainMs: 0, periodsLeft: 0, periodMs: 0 }, gote: side });
  });
});

describe('game page state: the watch socket', () => {
  test('a snapshot replays the moves, reads the clocks, and drops a half-made move', () => {
    const state = newGamePageState(SENTE);
    state.selection = { source: { square: 0 }, targets: { byTarget: new Map() } };
    const at = '2026-01-01T00:00:05.000Z';
    const clock = { sente: side, gote: side, running: 'sente' as const, started: true, deadlineAt: null, at };
    resetFrom(state, snapshot({ moves: ['7g7f', '3c3d'], ply: 2, clock }), 0);
    expect(state.history?.length).toBe(2);
    expect(state.history?.game.ply).toBe(2);
    expect(state.clock).toEqual({
      sente: side,
      gote: side,
      running: 'sente',
      since: Date.parse(at),
      periodLength: 30_000,
    });
    expect(state.selection).toBeNull();
  });

  test('without clocks in the snapshot, both sides have their full time and none runs', () => {
    const state = following(SENTE);
    expect(state.clock).toMatchObject({ running: null, since: 1_000, sente: { mainMs: 600_000 } });
    expect(following(SENTE, { timeControl: { kind: 'unlimited' } }).clock).toBeNull();
  });

  test('a snapshot after a reconnect keeps the position the user stepped back to', () => {
    const state = following(SENTE, { moves: ['7g7f', '3c3d', '2g2f'] });
    showPosition(state, 1);
    resetFrom(state, snapshot({ moves: ['7g7f', '3c3d', '2g2f', '8c8d'], ply: 4 }), 0);
    expect(state.cursor.ply).toBe(1);
  });

  test('an accepted move is played, announced, and ends the wait for its verdict', () => {
    const state = following(SENTE);
    state.pendingSeq = 101;
    const said = applyEvents(state, [accepted('7g7f', 1)]);
    expect(said).toEqual(['1. ▲７六歩 (7g7f)']);
    expect(state.history?.moves).toEqual(['7g7f']);
    expect(state.snap).toMatchObject({ moves: ['7g7f'], ply: 1, sideToMove: 'gote' });
    expect(state.pendingSeq).toBeNull();
    expect(state.verdicts.get(101)).toBeNull();
    // the clocks wait for both first moves
    expect(state.clock?.running).toBeNull();
    applyEvents(state, [accepted('3c3d', 2)]);
    expect(state.clock).toMatchObject({ running: 'sente', since: Date.parse('2026-01-01T00:00:10.000Z') });
  });

  test('an accepted move out of step with the history is not replayed', () => {
    const state = following(SENTE, { moves: ['7g7f'] });
    expect(applyEvents(state, [accepted('7g7f', 1)])).toEqual([]);
    expect(state.history?.length).toBe(1);
  });

  test('a rejection is told only for the move this page is waiting on', () => {
    const state = following(SENTE);
    state.pendingSeq = 7;
    applyEvents(state, [event('MoveRejected', { usi: '7g7e', submittedSeq: 6, reason: 'illegal_move' })]);
    expect([state.pendingSeq, state.message]).toEqual([7, '']);
    applyEvents(state, [event('MoveRejected', { usi: '7g7f', submittedSeq: 7, reason: 'not_your_turn' })]);
    expect([state.pendingSeq, state.message]).toEqual([null, 'Your move 7g7f was not played: it was not your turn.']);
    expect(state.verdicts.get(6)).toBe('illegal_move');
  });

  test('the end of the game stops the clocks and is announced', () => {
    const state = following(SENTE, { moves: ['7g7f', '3c3d'] });
    state.clock = { sente: side, gote: side, running: 'sente', since: 0, periodLength: 30_000 };
    const said = applyEvents(state, [event('GameEnded', { winner: 'gote', reason: 'resignation' })]);
    expect(said).toEqual(['☖ Gote (Bob) wins by resignation']);
    expect(state.snap).toMatchObject({ status: 'ended', result: { winner: 'gote', reason: 'resignation' } });
    expect(state.clock?.running).toBeNull();
  });
});

describe('game page state: a submitted move', () => {
  test('its 202 waits for the verdict, or finds it already in', () => {
    const state = following(SENTE);
    startSubmission(state);
    expect([state.sending, state.message, state.selection]).toEqual([true, '', null]);
    settleSubmission(state, 5, '7g7f');
    expect(state.pendingSeq).toBe(5);

    const early = following(SENTE);
    applyEvents(early, [event('MoveRejected', { usi: '7g7f', submittedSeq: 9, reason: 'stale_ply' })]);
    settleSubmission(early, 9, '7g7f');
    expect([early.pendingSeq, early.message]).toEqual([
      null,
      'Your move 7g7f was not played: the game had moved on before it arrived.',
    ]);
  });
});

describe('game page state: seats, turns and stepping back', () => {
  test('the seat and the turn follow the identity and the position', () => {
    const sente = following(SENTE);
    expect([mySide(sente), myTurn(sente), canMove(sente)]).toEqual(['sente', true, true]);
    const gote = following(GOTE);
    expect([mySide(gote), myTurn(gote)]).toEqual(['gote', false]);
    const visitor = following(null);
    expect([mySide(visitor), myTurn(visitor)]).toEqual([null, false]);
  });

  test('a past position is for looking at: no moves, and a half-made move is dropped', () => {
    const state = following(SENTE, { moves: ['7g7f', '3c3d'] });
    state.selection = selectionFrom(state.history!.game, { square: square('2g') });
    expect(showPosition(state, 'back')).toBe(true);
    expect([state.cursor.ply, state.selection, canMove(state)]).toEqual([1, null, false]);
    showPosition(state, 'last');
    expect(state.cursor).toBe(LIVE);
    expect(showPosition(newGamePageState(SENTE), 'first')).toBe(false);
  });

  test('the controls shown follow the seat, the ply and how the game ended', () => {
    const shown = (s: GamePageState) =>
      Object.entries(controlsShown(s))
        .filter(([, on]) => on)
        .map(([name]) => name);
    expect(shown(following(SENTE))).toEqual(['resign', 'abort', 'usiForm', 'usiEnabled']);
    expect(shown(following(SENTE, { moves: ['7g7f', '3c3d'] }))).toEqual([
      'resign',
      'impasse',
      'usiForm',
      'usiEnabled',
      'takeback',
    ]);
    expect(shown(following(GOTE, { moves: ['7g7f', '3c3d'] }))).toEqual(['resign', 'usiForm', 'takeback']);
    // gote has no move of its own to take back yet
    expect(shown(following(GOTE, { moves: ['7g7f'] }))).toEqual(['resign', 'abort', 'usiForm', 'usiEnabled']);
    // a pending proposal: the opponent answers it, the proposer may withdraw it
    expect(controlsShown(following(GOTE, { moves: ['7g7f', '3c3d'], takeback: 'sente' })).takebackPending).toBe(
      'theirs',
    );
    expect(controlsShown(following(SENTE, { moves: ['7g7f', '3c3d'], takeback: 'sente' }))).toMatchObject({
      takeback: false,
      takebackPending: 'mine',
    });
    const ended = { status: 'ended' as const, result: { winner: 'sente' as const, reason: 'checkmate' } };
    expect(shown(following(SENTE, ended))).toEqual(['rematch']);
    const againstBot = following(SENTE, {
      ...ended,
      players: { sente: { id: SENTE.id, name: 'Ann' }, gote: { id: BOT, name: 'bot' } },
    });
    againstBot.botIds = new Set([BOT]);
    expect(shown(againstBot)).toEqual(['playAgain']);
    expect(shown(following(null))).toEqual([]);
  });
});

describe('game page state: takebacks', () => {
  test('a proposal shows, and an accepted takeback leaves the moves, the position and the clocks of the event', () => {
    const state = following(GOTE, { moves: ['7g7f', '3c3d', '2g2f'] });
    const said = applyEvents(state, [event('TakebackProposed', { color: 'sente', at: '2026-01-01T00:00:00Z' })]);
    expect(said).toEqual(['Ann proposes a takeback.']);
    expect(state.snap?.takeback).toBe('sente');
    const sfen = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3';
    applyEvents(state, [event('TakebackAccepted', { color: 'gote', plies: 1, ply: 2, sfen, check: false, at: 'x' })]);
    expect(state.snap).toMatchObject({ moves: ['7g7f', '3c3d'], ply: 2, takeback: null, sideToMove: 'sente' });
    expect(state.history?.length).toBe(2);
    expect(controlsShown(state).takebackPending).toBeNull();
  });
});

describe('game page state: the half-made move', () => {
  test('a piece with moves is picked with its targets; one without is not', () => {
    const game = following(SENTE).history!.game;
    const pawn = selectionFrom(game, { square: square('7g') });
    expect(selectedSquare(pawn)).toBe(square('7g'));
    expect(isTarget(pawn, square('7f'))).toBe(true);
    expect(isTarget(pawn, square('7e'))).toBe(false);
    expect(selectionFrom(game, { square: square('5e') })).toBeNull();
    expect(isTarget(null, square('7f'))).toBe(false);
  });

  test('a hand piece is picked, and unpicked by a second click', () => {
    const state = following(SENTE, { initialSfen: '4k4/9/9/9/9/9/9/9/4K4 b P 1', sfen: '4k4/9/9/9/9/9/9/9/4K4 b P 1' });
    const game = state.history!.game;
    const picked = pickFromHand(game, null, 1);
    expect(selectedDropType(picked)).toBe(1);
    expect(pickFromHand(game, picked, 1)).toBeNull();
    // a type not in hand has nowhere to go
    expect(pickFromHand(game, null, 2)).toBeNull();
  });
});

describe('game page state: a move typed in USI', () => {
  test.each([
    ['a spectator', null, [], '7g7f', 'You are watching this game.'],
    ['out of turn', GOTE, [], '3c3d', 'Wait for your turn.'],
    ['not USI', SENTE, [], 'seven-g', '"seven-g" is not a move: write it as 7g7f, P*5e or 8h2b+.'],
  ] as const)('%s is told why not', (_name, me, moves, text, problem) => {
    expect(readTypedMove(following(me, { moves: [...moves] }), text)).toEqual({ problem });
  });

  test('an illegal move is named; a past position is not moved from; a legal move is read', () => {
    const state = following(SENTE, { moves: ['7g7f', '3c3d'] });
    expect(readTypedMove(state, '7f7d')).toMatchObject({
      problem: 'You cannot play 7f7d: that piece cannot move there.',
    });
    expect(readTypedMove(state, '2g2f')).toHaveProperty('move');
    showPosition(state, 'first');
    expect(readTypedMove(state, '2g2f')).toEqual({
      problem: 'You are looking at an earlier position: End returns to the game.',
    });
    expect(readTypedMove(newGamePageState(SENTE), '7g7f')).toBeNull();
  });
});

describe('game page wording', () => {
  test('the place in the moves and the note over a past position', () => {
    expect([placeText(0, 12), placeText(7, 12)]).toEqual(['Start / 12', 'Move 7 / 12']);
    expect(pastNoteText(0)).toBe('An earlier position: the board is read-only. ');
    expect(pastNoteText(1)).toBe('The game has moved on: 1 new move. ');
    expect(pastNoteText(3)).toBe('The game has moved on: 3 new moves. ');
  });

  test('the banner: the result first, else check on the board shown', () => {
    const names = { sente: 'Ann', gote: 'Bob' };
    const start = boardOfSfen(START_SFEN)!;
    const checked = boardOfSfen('4k4/9/9/9/9/9/9/4R4/4K4 w - 1')!;
    expect(banner(null, names, start)).toEqual({ text: '', className: 'banner' });
    expect(banner(null, names, checked)).toEqual({ text: 'Check! Gote to move', className: 'banner check' });
    expect(banner({ winner: null, reason: 'sennichite' }, names, checked)).toEqual({
      text: 'Draw by repetition (sennichite)',
      className: 'banner result',
    });
  });

  test('a clock reads its periods out only when it has some; refusals lose their underscores', () => {
    expect(clockLabel('gote', { text: '0:25', periods: 2, byoyomi: true, low: true, ms: 25_000 })).toBe(
      'gote clock 0:25, 2 byoyomi periods',
    );
    expect(clockLabel('sente', { text: '9:59', periods: 0, byoyomi: false, low: false, ms: 599_000 })).toBe(
      'sente clock 9:59',
    );
    expect(refusal('8h2b', 'leaves_king_in_check')).toBe('Your move 8h2b was not played: your king would be in check.');
    // a reason this client does not know yet still loses its underscores
    expect(refusal('8h2b', 'some_new_reason')).toBe('Your move 8h2b was not played: some new reason.');
  });
});
