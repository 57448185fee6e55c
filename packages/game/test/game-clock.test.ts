/**
 * Clocks in the game's events: given a history with recorded receive times, when a verdict
 * or a flag check is decided, then the clocks and the flag decisions follow from those times
 * alone (lichess's start rule: each side's first move is free, a first-move timer before).
 */
import { describe, expect, it } from 'vitest';
import {
  advanceClockView,
  byoyomi,
  clockView,
  correspondence,
  decide,
  FIRST_MOVE_MS,
  fischer,
  fold,
  type GameEvent,
  type GameState,
  initialState,
  LAG_ALLOWANCE_MS,
  type MoveAccepted,
  type TimeControl,
  UNLIMITED,
} from '../src/index.js';
import { GOTE, gameCreated, given, moveSubmitted, SENTE, T0 } from '../src/testing/index.js';
import { mustAccept } from './helpers.js';

const S = 1000;
const DAY = 24 * 3600 * S;
const t = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => t(ms).toISOString();
const created = (timeControl: TimeControl) =>
  gameCreated('g1', { timeControl, rated: timeControl.kind !== 'unlimited' });
/** A submission of `usi` as the move after `ply` accepted moves, received at T0 + `atMs`. */
const sub = (usi: string, ply: number, atMs: number): GameEvent => {
  const e = moveSubmitted(usi, ply);
  return { ...e, data: { ...e.data, receivedAt: iso(atMs) } };
};
const OPENING = ['7g7f', '3c3d', '2g2f', '8c8d', '2f2e', '8d8e', '6i7h', '4a3b'];

/** Plays OPENING[i] for each receive time in order (submit, then its verdict) and returns the log. */
function history(tc: TimeControl, times: readonly number[]): GameEvent[] {
  const log: GameEvent[] = [created(tc)];
  let state = fold(log, initialState());
  times.forEach((at, i) => {
    const submitted = sub(OPENING[i] as string, i, at);
    state = fold([submitted], state);
    const verdict = mustAccept(decide({ type: 'ValidatePending', seq: state.seq, now: t(at) }, state));
    state = fold(verdict, state);
    log.push(submitted, ...verdict);
  });
  return log;
}
const stateOf = (log: readonly GameEvent[]): GameState => fold(log, initialState());
const lastAccepted = (log: readonly GameEvent[]) =>
  log.filter((e): e is MoveAccepted => e.type === 'MoveAccepted').at(-1)?.data;

describe('clocks start once both sides made their first move', () => {
  it('charges neither first move, then runs for the side to move from the second move', () => {
    // byoyomi 60 s + 3 × 10 s; sente's first move at 5 s, gote's at 20 s: both free
    const log = history(byoyomi(60, 10, 3), [5 * S, 20 * S]);
    const second = lastAccepted(log);
    expect(second?.clock).toEqual({
      sente: { mainMs: 60 * S, periodsLeft: 3, periodMs: 10 * S },
      gote: { mainMs: 60 * S, periodsLeft: 3, periodMs: 10 * S },
      movedAt: iso(20 * S),
      deadlineAt: iso(20 * S + 60 * S + 30 * S),
    });
    const s = stateOf(log);
    expect(clockView(s.clock!, s.ply, null, t(50 * S).getTime())).toMatchObject({
      sente: { mainMs: 30 * S, periodsLeft: 3 },
      running: 'sente',
      started: true,
    });
  });

  it('shows the first-move timer, and no running clock, before that', () => {
    const s = stateOf(history(fischer(300, 0), [5 * S]));
    expect(clockView(s.clock!, s.ply, null, t(10 * S).getTime())).toEqual({
      sente: { mainMs: 300 * S, periodsLeft: 0, periodMs: 0 },
      gote: { mainMs: 300 * S, periodsLeft: 0, periodMs: 0 },
      running: null,
      started: false,
      deadlineAt: iso(5 * S + FIRST_MOVE_MS),
      at: iso(10 * S),
    });
  });
});

describe('byoyomi with several periods', () => {
  // 60 s main + 3 periods of 10 s; clocks start at 20 s (gote's first move)
  const tc = byoyomi(60, 10, 3);
  it('keeps a period used within its end and loses each period overrun entirely', () => {
    // sente: 70 s (main + the first period to its end): all periods kept
    // gote: 85 s (main + 25 s): two periods lost, one left
    const log = history(tc, [5 * S, 20 * S, 90 * S, 175 * S]);
    expect(lastAccepted(log)?.clock).toEqual({
      sente: { mainMs: 0, periodsLeft: 3, periodMs: 10 * S },
      gote: { mainMs: 0, periodsLeft: 1, periodMs: 10 * S },
      movedAt: iso(175 * S),
      deadlineAt: iso(175 * S + 30 * S),
    });
  });

  it('refuses a move after the last period (and the lag allowance) as a timeout, the flag at the deadline', () => {
    const log = history(tc, [5 * S, 20 * S, 90 * S, 175 * S]);
    // sente's deadline is 205 s; the move comes at 205 s + lag + 1 ms
    const late = sub(OPENING[4] as string, 4, 205 * S + LAG_ALLOWANCE_MS + 1);
    given([...log, late])
      .when({ type: 'ValidatePending', seq: log.length + 1, now: t(207 * S) })
      .then([
        { type: 'MoveRejected', data: { submittedSeq: log.length + 1, usi: '2f2e', ply: 4, reason: 'timeout' } },
        { type: 'GameEnded', data: { winner: 'gote', reason: 'timeout', at: iso(205 * S) } },
      ]);
  });

  it('accepts a move within the lag allowance, losing no period', () => {
    const log = history(tc, [5 * S, 20 * S, 90 * S, 175 * S, 205 * S + LAG_ALLOWANCE_MS]);
    expect(lastAccepted(log)?.clock?.sente).toEqual({ mainMs: 0, periodsLeft: 1, periodMs: 10 * S });
  });
});

describe('Fischer', () => {
  it('adds the increment after the time used, and flags when the main time runs out', () => {
    // 60 s + 5 s; clocks start at 10 s; sente uses 20 s: 60 - 20 + 5 = 45 s
    const log = history(fischer(60, 5), [1 * S, 10 * S, 30 * S]);
    expect(lastAccepted(log)?.clock?.sente).toEqual({ mainMs: 45 * S, periodsLeft: 0, periodMs: 0 });
    // gote has 60 s from 30 s: a move at 91.001 s is late, the flag fell at 90 s
    const late = sub(OPENING[3] as string, 3, 90 * S + LAG_ALLOWANCE_MS + 1);
    given([...log, late])
      .when({ type: 'ValidatePending', seq: log.length + 1, now: t(92 * S) })
      .then([
        { type: 'MoveRejected', data: { submittedSeq: log.length + 1, usi: '8c8d', ply: 3, reason: 'timeout' } },
        { type: 'GameEnded', data: { winner: 'sente', reason: 'timeout', at: iso(90 * S) } },
      ]);
  });
});

describe('correspondence', () => {
  it('gives the days per move for the first move and for each move after', () => {
    const tc = correspondence(2);
    // first moves at 1 day and 2.5 days (each within 2 days of its turn), then 1.5 days
    const log = history(tc, [1 * DAY, 2.5 * DAY, 4 * DAY]);
    expect(lastAccepted(log)?.clock).toEqual({
      sente: { mainMs: 0, periodsLeft: 1, periodMs: 2 * DAY },
      gote: { mainMs: 0, periodsLeft: 1, periodMs: 2 * DAY },
      movedAt: iso(4 * DAY),
      deadlineAt: iso(6 * DAY),
    });
    given(log)
      .when({ type: 'CheckClock', now: t(6 * DAY + LAG_ALLOWANCE_MS + 1) })
      .then([{ type: 'GameEnded', data: { winner: 'sente', reason: 'timeout', at: iso(6 * DAY) } }]);
  });

  it('aborts a game whose first move does not come within the days per move', () => {
    given([created(correspondence(3))])
      .when({ type: 'CheckClock', now: t(3 * DAY + LAG_ALLOWANCE_MS + 1) })
      .then([{ type: 'GameEnded', data: { winner: null, reason: 'abort', at: iso(3 * DAY) } }]);
  });
});

describe('CheckClock', () => {
  const tc = byoyomi(0, 10, 1);
  // clocks start at 2 s; sente's deadline 12 s
  const log = history(tc, [1 * S, 2 * S]);

  it('does nothing until the side to move has flagged (lag allowance included)', () => {
    given(log)
      .when({ type: 'CheckClock', now: t(12 * S + LAG_ALLOWANCE_MS) })
      .then([]);
  });

  it('ends the game on time once, however many times it is decided', () => {
    const now = t(12 * S + LAG_ALLOWANCE_MS + 1);
    const ended = given(log)
      .when({ type: 'CheckClock', now })
      .then([{ type: 'GameEnded', data: { winner: 'gote', reason: 'timeout', at: iso(12 * S) } }]);
    expect(mustAccept(decide({ type: 'CheckClock', now }, ended))).toEqual([]);
    expect(mustAccept(decide({ type: 'CheckClock', now: t(99 * S) }, ended))).toEqual([]);
  });

  it('gives a submission received in time its verdict first: then nobody has flagged', () => {
    const inTime = sub('2g2f', 2, 11 * S);
    const s = given([...log, inTime]).when({ type: 'CheckClock', now: t(14 * S) });
    const events = mustAccept(s.decision);
    expect(events.map((e) => e.type)).toEqual(['MoveAccepted']);
  });

  it('gives a late pending submission its timeout, and one GameEnded', () => {
    const late = sub('2g2f', 2, 13.5 * S);
    given([...log, late])
      .when({ type: 'CheckClock', now: t(14 * S) })
      .then([
        { type: 'MoveRejected', data: { submittedSeq: log.length + 1, usi: '2g2f', ply: 2, reason: 'timeout' } },
        { type: 'GameEnded', data: { winner: 'gote', reason: 'timeout', at: iso(12 * S) } },
      ]);
  });

  it('never ends an unlimited game', () => {
    given(history(UNLIMITED, [1 * S, 2 * S]))
      .when({ type: 'CheckClock', now: t(365 * DAY) })
      .then([]);
  });
});

describe('first-move timer', () => {
  const tc = fischer(180, 2);
  it('aborts the game when the side to move has not made its first move in time', () => {
    given([created(tc)])
      .when({ type: 'CheckClock', now: t(FIRST_MOVE_MS + LAG_ALLOWANCE_MS + 1) })
      .then([{ type: 'GameEnded', data: { winner: null, reason: 'abort', at: iso(FIRST_MOVE_MS) } }]);
  });

  it("runs again for the second side's first move, from the first move", () => {
    const log = history(tc, [10 * S]);
    given(log)
      .when({ type: 'CheckClock', now: t(10 * S + FIRST_MOVE_MS) })
      .then([]);
    const late = sub('3c3d', 1, 10 * S + FIRST_MOVE_MS + LAG_ALLOWANCE_MS + 1);
    given([...log, late])
      .when({ type: 'ValidatePending', seq: log.length + 1, now: t(50 * S) })
      .then([
        { type: 'MoveRejected', data: { submittedSeq: log.length + 1, usi: '3c3d', ply: 1, reason: 'timeout' } },
        { type: 'GameEnded', data: { winner: null, reason: 'abort', at: iso(10 * S + FIRST_MOVE_MS) } },
      ]);
  });
});

describe('Abort', () => {
  const tc = fischer(180, 2);
  const abort = (playerId: string, atMs = 3 * S) => ({ type: 'Abort' as const, playerId, now: t(atMs) });
  /** `by`: the side whose request aborted (absent: an abort recorded without it) */
  const aborted = (by?: 'sente' | 'gote'): GameEvent => ({
    type: 'GameEnded',
    data: { winner: null, reason: 'abort', at: iso(3 * S), ...(by === undefined ? {} : { abortedBy: by }) },
  });

  it.each([
    ['sente', SENTE.id],
    ['gote', GOTE.id],
  ] as const)('lets %s abort before any move', (side, id) => {
    given([created(tc)])
      .when(abort(id))
      .then([aborted(side)]);
  });

  it('lets only the side that has not moved abort after the first move', () => {
    const log = history(tc, [1 * S]);
    given(log).when(abort(SENTE.id)).thenRejects('too_late_to_abort');
    given(log)
      .when(abort(GOTE.id))
      .then([aborted('gote')]);
  });

  it('refuses once both sides moved, for strangers, after the end, and with a first move pending', () => {
    given(history(tc, [1 * S, 2 * S]))
      .when(abort(GOTE.id))
      .thenRejects('too_late_to_abort');
    given([created(tc)])
      .when(abort('nobody'))
      .thenRejects('not_a_player');
    given([created(tc), aborted()])
      .when(abort(SENTE.id))
      .thenRejects('game_over');
    given([created(tc), sub('7g7f', 0, 1 * S)])
      .when(abort(SENTE.id))
      .thenRejects('move_pending');
  });

  it('works in unlimited games too', () => {
    given([created(UNLIMITED)])
      .when(abort(GOTE.id))
      .then([aborted('gote')]);
  });
});

describe('replays', () => {
  it('gives the same clocks from the receive times alone as the ones recorded', () => {
    const log = history(byoyomi(30, 5, 2), [1 * S, 2 * S, 20 * S, 58 * S, 70 * S, 101 * S]);
    const live = stateOf(log);
    const withoutClocks = log.map((e) =>
      e.type === 'MoveAccepted' ? { ...e, data: { ...e.data, clock: undefined } } : e,
    ) as GameEvent[];
    expect(stateOf(withoutClocks).clock).toEqual(live.clock);
  });

  it('shows the loser on time at zero once the game ended', () => {
    const log = history(byoyomi(0, 10, 1), [1 * S, 2 * S]);
    const ended = fold(mustAccept(decide({ type: 'CheckClock', now: t(20 * S) }, stateOf(log))), stateOf(log));
    const view = clockView(ended.clock!, ended.ply, ended.result, t(30 * S).getTime());
    expect(view).toMatchObject({ sente: { mainMs: 0, periodsLeft: 0, periodMs: 0 }, running: null, deadlineAt: null });
    expect(view.gote).toEqual({ mainMs: 0, periodsLeft: 1, periodMs: 10 * S });
  });
});

describe('DeclareImpasse', () => {
  it('ends the game on time when the declarer had already run out', () => {
    const log = history(byoyomi(0, 10, 1), [1 * S, 2 * S]);
    given(log)
      .when({ type: 'DeclareImpasse', playerId: SENTE.id, now: t(20 * S) })
      .then([{ type: 'GameEnded', data: { winner: 'gote', reason: 'timeout', at: iso(12 * S) } }]);
  });
});

describe('advanceClockView', () => {
  // the clocks viewed at t1 and advanced to t2 equal the clocks viewed at t2, across main time,
  // period ends (inclusive) and the flag, for byoyomi, Fischer and correspondence
  const cases: [string, TimeControl, number][] = [
    ['byoyomi 10 s + 3 × 5 s', byoyomi(10, 5, 3), 40 * S],
    ['byoyomi 0 + 1 × 2 s', byoyomi(0, 2, 1), 4 * S],
    ['Fischer 20 + 3', fischer(20, 3), 40 * S],
    ['correspondence 1 day', correspondence(1), 2 * DAY],
  ];
  it.each(cases)('composes with the view at read time: %s', (_name, tc, span) => {
    const log = history(tc, [1 * S, 2 * S]);
    const s = stateOf(log);
    const start = s.clock!.turnStartedAt;
    const step = span / 40;
    for (let i = 0; i <= 40; i++) {
      for (const j of [i, i + 1, i + 7, 40]) {
        const t1 = start + i * step;
        const t2 = start + j * step;
        const advanced = advanceClockView(clockView(s.clock!, s.ply, null, t1), tc, t2);
        expect(advanced, `${i} -> ${j}`).toEqual(clockView(s.clock!, s.ply, null, t2));
      }
    }
  });
});
