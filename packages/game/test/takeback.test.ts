import { describe, expect, it } from 'vitest';
import {
  decide,
  fold,
  type GameEvent,
  initialState,
  movesOf,
  preferenceAllows,
  type RecordedEvent,
  recordOfEvents,
} from '../src/index.js';
import { GOTE, gameCreated, given, SENTE, T0 } from '../src/testing/index.js';
import { mustAccept, playedLog } from './helpers.js';

const at = T0.toISOString();
const later = (ms: number): Date => new Date(T0.getTime() + ms);
const propose = (playerId: string, now: Date = T0, preferencesAllow = true) =>
  ({ type: 'ProposeTakeback', playerId, preferencesAllow, now }) as const;
const answer = (playerId: string, accept: boolean, now: Date = T0) =>
  ({ type: 'AnswerTakeback', playerId, accept, now }) as const;

const created = gameCreated('g1');
/** sente 7g7f, gote 3c3d, sente 2g2f: gote is on move */
const three = playedLog(created, ['7g7f', '3c3d', '2g2f']);
const AFTER_TWO = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3';
const AFTER_ONE = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';

describe('ProposeTakeback', () => {
  it('records the proposal of either player', () => {
    given(three)
      .when(propose(SENTE.id))
      .then([{ type: 'TakebackProposed', data: { color: 'sente', at } }]);
    given(three)
      .when(propose(GOTE.id))
      .then([{ type: 'TakebackProposed', data: { color: 'gote', at } }]);
  });
  it.each([
    ['a spectator', three, propose('someone'), 'not_a_player'],
    [
      'a finished game',
      [...three, { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at } }],
      propose(SENTE.id),
      'game_over',
    ],
    ['a player whose preferences say no', three, propose(SENTE.id, T0, false), 'takeback_not_allowed'],
    [
      'a game whose terms refuse takebacks',
      playedLog(gameCreated('g1', { noTakebacks: true }), ['7g7f', '3c3d']),
      propose(SENTE.id),
      'takeback_not_allowed',
    ],
    [
      'a second proposal',
      [...three, { type: 'TakebackProposed', data: { color: 'sente', at } }],
      propose(GOTE.id),
      'takeback_pending',
    ],
    [
      'a player with no move yet (gote on move at ply 1)',
      playedLog(created, ['7g7f']),
      propose(GOTE.id),
      'no_move_to_take_back',
    ],
    ['a game with no move', [created], propose(SENTE.id), 'no_move_to_take_back'],
  ] as const)('refuses %s', (_name, history, command, code) => {
    given(history as readonly GameEvent[])
      .when(command)
      .thenRejects(code);
  });
  it('refuses while a move awaits its verdict', () => {
    const submitted: GameEvent = {
      type: 'MoveSubmitted',
      data: { playerId: GOTE.id, color: 'gote', usi: '8c8d', ply: 3, receivedAt: at },
    };
    given([...three, submitted])
      .when(propose(SENTE.id))
      .thenRejects('move_pending');
  });
});

describe('AnswerTakeback', () => {
  const proposedBySente: GameEvent = { type: 'TakebackProposed', data: { color: 'sente', at } };
  const proposedByGote: GameEvent = { type: 'TakebackProposed', data: { color: 'gote', at } };

  it('undoes the proposer’s move when the opponent is on move', () => {
    given([...three, proposedBySente])
      .when(answer(GOTE.id, true))
      .then([
        {
          type: 'TakebackAccepted',
          data: { color: 'gote', plies: 1, ply: 2, sfen: AFTER_TWO, check: false, at },
        },
      ]);
    const s = fold(
      [
        ...three,
        proposedBySente,
        ...mustAccept(decide(answer(GOTE.id, true), fold([...three, proposedBySente], initialState()))),
      ],
      initialState(),
    );
    expect(movesOf(s)).toEqual(['7g7f', '3c3d']);
    expect(s.sideToMove).toBe('sente');
    expect(s.takebackBy).toBeNull();
  });
  it('undoes the opponent’s reply too when the proposer is on move', () => {
    given([...three, proposedByGote])
      .when(answer(SENTE.id, true))
      .then([
        {
          type: 'TakebackAccepted',
          data: { color: 'sente', plies: 2, ply: 1, sfen: AFTER_ONE, check: false, at },
        },
      ]);
  });
  it('lets the game go on from the position taken back to', () => {
    const log = [...three, proposedBySente];
    const after = fold(
      [...log, ...mustAccept(decide(answer(GOTE.id, true), fold(log, initialState())))],
      initialState(),
    );
    // sente plays another move than the one taken back
    const moved = mustAccept(decide({ type: 'SubmitMove', playerId: SENTE.id, usi: '6g6f', ply: 2, now: T0 }, after));
    const s = fold(moved, after);
    const verdict = mustAccept(decide({ type: 'ValidatePending', seq: s.seq, now: T0 }, s));
    expect(verdict[0]?.type).toBe('MoveAccepted');
    expect(movesOf(fold(verdict, s))).toEqual(['7g7f', '3c3d', '6g6f']);
  });
  it('records a decline and a withdrawal, after which another proposal may come', () => {
    given([...three, proposedBySente])
      .when(answer(GOTE.id, false))
      .then([{ type: 'TakebackDeclined', data: { color: 'gote', at } }]);
    given([...three, proposedBySente])
      .when(answer(SENTE.id, false))
      .then([{ type: 'TakebackDeclined', data: { color: 'sente', at } }]);
    given([...three, proposedBySente, { type: 'TakebackDeclined', data: { color: 'gote', at } }])
      .when(propose(SENTE.id))
      .then([proposedBySente]);
  });
  it.each([
    ['with no proposal', three, answer(GOTE.id, true), 'no_takeback_proposal'],
    ['a decline with no proposal', three, answer(GOTE.id, false), 'no_takeback_proposal'],
    ['one’s own proposal', [...three, proposedBySente], answer(SENTE.id, true), 'no_takeback_proposal'],
    ['by a spectator', [...three, proposedBySente], answer('someone', true), 'not_a_player'],
  ] as const)('refuses an acceptance %s', (_name, history, command, code) => {
    given(history as readonly GameEvent[])
      .when(command)
      .thenRejects(code);
  });
  it('voids a proposal once a move is made', () => {
    const log = playedLog(created, ['7g7f', '3c3d']);
    const proposed = fold([...log, proposedByGote], initialState());
    expect(proposed.takebackBy).toBe('gote');
    const moved = playedLog(created, ['7g7f', '3c3d', '2g2f']).slice(log.length);
    const s = fold([...log, proposedByGote, ...moved], initialState());
    expect(s.takebackBy).toBeNull();
    given([...log, proposedByGote, ...moved])
      .when(answer(SENTE.id, true))
      .thenRejects('no_takeback_proposal');
  });
});

describe('the clocks of a takeback', () => {
  const BYOYOMI = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 } as const;
  const timed = gameCreated('g1', { timeControl: BYOYOMI });
  // moves 10 s apart: sente's second move at 30 s, so gote has been thinking since then
  const log: GameEvent[] = [timed];
  let s = fold(log, initialState());
  ['7g7f', '3c3d', '2g2f'].forEach((usi, ply) => {
    const now = later((ply + 1) * 10_000);
    const player = s.sideToMove === 'sente' ? SENTE : GOTE;
    const events = mustAccept(decide({ type: 'SubmitMove', playerId: player.id, usi, ply, now }, s));
    s = fold(events, s);
    const verdict = mustAccept(decide({ type: 'ValidatePending', seq: s.seq, now }, s));
    s = fold(verdict, s);
    log.push(...events, ...verdict);
  });

  it('charges the side on move its turn so far and starts the new turn at the acceptance', () => {
    const proposed = [...log, { type: 'TakebackProposed', data: { color: 'sente', at } } as GameEvent];
    const state = fold(proposed, initialState());
    const events = mustAccept(decide(answer(GOTE.id, true, later(45_000)), state));
    const accepted = events[0];
    if (accepted?.type !== 'TakebackAccepted') throw new Error('no takeback');
    // gote thought 15 s (30 s → 45 s) and its earlier move was free (clocks start at ply 2);
    // sente's 2g2f cost 10 s, which stays spent
    expect(accepted.data.clock?.gote.mainMs).toBe(600_000 - 15_000);
    expect(accepted.data.clock?.sente.mainMs).toBe(600_000 - 10_000);
    expect(accepted.data.clock?.movedAt).toBe(later(45_000).toISOString());
    const after = fold(events, state);
    expect(after.clock?.toMove).toBe('sente');
    expect(after.clock?.turnStartedAt).toBe(later(45_000).getTime());
  });
  it('ends the game on time when the side to move’s time ran out before the acceptance', () => {
    const proposed = [...log, { type: 'TakebackProposed', data: { color: 'sente', at } } as GameEvent];
    const events = mustAccept(decide(answer(GOTE.id, true, later(30_000 + 700_000)), fold(proposed, initialState())));
    expect(events.map((e) => e.type)).toEqual(['GameEnded']);
  });
  it('gives the same state on a replay of the log', () => {
    const proposed = [...log, { type: 'TakebackProposed', data: { color: 'gote', at } } as GameEvent];
    const live = fold(proposed, initialState());
    const events = mustAccept(decide(answer(SENTE.id, true, later(40_000)), live));
    const liveAfter = fold(events, live);
    const replayed = fold([...proposed, ...events], initialState());
    expect({ ...replayed, line: null }).toEqual({ ...liveAfter, line: null });
    expect(movesOf(replayed)).toEqual(['7g7f']);
  });
});

describe('the record after a takeback', () => {
  it('holds the moves as they stand', () => {
    const log = [...three, { type: 'TakebackProposed', data: { color: 'sente', at } } as GameEvent];
    const all = [...log, ...mustAccept(decide(answer(GOTE.id, true), fold(log, initialState())))];
    const recorded = all.map(
      (e, i) => ({ ...e, gameId: 'g1', seq: i + 1, recordedAt: at, globalPosition: i + 1 }) as RecordedEvent,
    );
    expect(recordOfEvents(recorded)?.moves).toEqual(['7g7f', '3c3d']);
  });
});

describe('preferences', () => {
  it('follow lishogi’s: always, casual games only, never', () => {
    expect(preferenceAllows('always', true)).toBe(true);
    expect(preferenceAllows('casual', false)).toBe(true);
    expect(preferenceAllows('casual', true)).toBe(false);
    expect(preferenceAllows('never', false)).toBe(false);
  });
});
