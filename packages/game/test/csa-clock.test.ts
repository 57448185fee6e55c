/**
 * Clocks of games under the CSA protocol's time rules (clockRules 'csa'): given a history
 * with recorded receive times, the clocks and the flags follow from those times alone.
 * The rules are the CSA server protocol 1.2.1's with Least_Time_Per_Move 0 (shogi-server's
 * ChessClockWithLeastZero, as Floodgate plays): thinking time rounded down to whole seconds,
 * the increment added before the time is taken off, a time-out when
 * remaining − used + byoyomi + increment ≤ 0, no lag allowance, the clock running from the start.
 */
import { describe, expect, it } from 'vitest';
import {
  byoyomi,
  clockView,
  csaSecondsUsed,
  decide,
  fischer,
  fold,
  type GameEvent,
  type GameState,
  initialState,
  type MoveAccepted,
  type TimeControl,
} from '../src/index.js';
import { gameCreated, given, moveSubmitted, T0 } from '../src/testing/index.js';
import { mustAccept } from './helpers.js';

const S = 1000;
const t = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => t(ms).toISOString();
const created = (timeControl: TimeControl) => gameCreated('g1', { timeControl, rated: true, clockRules: 'csa' });
const sub = (usi: string, ply: number, atMs: number): GameEvent => {
  const e = moveSubmitted(usi, ply);
  return { ...e, data: { ...e.data, receivedAt: iso(atMs) } };
};
const OPENING = ['7g7f', '3c3d', '2g2f', '8c8d', '2f2e', '8d8e', '6i7h', '4a3b'];

/** Plays OPENING[i] at each receive time (ms after the start) and returns the log. */
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
/** The verdict of a move OPENING[ply] received `atMs` after the start, after `log`. */
const verdictAt = (log: readonly GameEvent[], atMs: number): GameEvent[] => {
  const ply = log.filter((e) => e.type === 'MoveAccepted').length;
  const state = stateOf([...log, sub(OPENING[ply] as string, ply, atMs)]);
  return mustAccept(decide({ type: 'ValidatePending', seq: state.seq, now: t(atMs + 5 * S) }, state));
};

describe('csaSecondsUsed: the T of a move echo', () => {
  it.each([
    [0, 0],
    [999, 0],
    [1000, 1],
    [9999, 9],
    [65_500, 65],
    // a receive time before the turn began (clock skew between gateways) costs nothing
    [-20, 0],
  ])('%i ms is T%i', (elapsed, seconds) => {
    expect(csaSecondsUsed(T0.getTime(), T0.getTime() + elapsed)).toBe(seconds);
  });
});

describe('byoyomi (Total_Time, Byoyomi)', () => {
  it('charges whole seconds rounded down from the start: no free first move', () => {
    // 300 s + 10 s: sente moves at 3.9 s (T3), gote at 3.9 + 12.5 s (T12)
    const log = history(byoyomi(300, 10), [3900, 16_400]);
    expect(lastAccepted(log)?.clock).toEqual({
      sente: { mainMs: 297 * S, periodsLeft: 1, periodMs: 10 * S },
      gote: { mainMs: 288 * S, periodsLeft: 1, periodMs: 10 * S },
      movedAt: iso(16_400),
      // sente has 297 s + 10 s from 16.4 s: the last millisecond in time
      deadlineAt: iso(16_400 + 307 * S - 1),
    });
  });

  it('runs main time to zero, then gives the byoyomi again on every move', () => {
    // 60 s + 10 s: sente thinks 65.5 s (T65: main gone, in byoyomi), gote 1 s, sente 9.9 s
    const log = history(byoyomi(60, 10), [65_500, 66_500, 76_400]);
    expect(lastAccepted(log)?.clock?.sente).toEqual({ mainMs: 0, periodsLeft: 1, periodMs: 10 * S });
  });

  it.each([
    // 0 s + 10 s ("10-second shogi"): remaining 0 − used + byoyomi 10 ≤ 0 from T10 on
    ['9.999 s is in time', 9999, true],
    ['10.000 s is late', 10_000, false],
  ])('%s', (_, atMs, inTime) => {
    const events = verdictAt([created(byoyomi(0, 10))], atMs);
    if (inTime) expect(events[0]?.type).toBe('MoveAccepted');
    else
      expect(events).toEqual([
        { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'timeout' } },
        // the flag is dated at the last millisecond in time; nobody had moved: the ply rule aborts
        { type: 'GameEnded', data: { winner: null, reason: 'abort', at: iso(10 * S - 1) } },
      ]);
  });
});

describe('Fischer (Total_Time, Increment)', () => {
  it('adds the increment before taking the time off', () => {
    // 300 s + 10 s: sente has 310 s for its first move; it uses 12.7 s (T12): 298 s left
    const log = history(fischer(300, 10), [12_700]);
    expect(lastAccepted(log)?.clock).toEqual({
      sente: { mainMs: 298 * S, periodsLeft: 0, periodMs: 0 },
      // gote's turn has begun: its increment is credited
      gote: { mainMs: 310 * S, periodsLeft: 0, periodMs: 0 },
      movedAt: iso(12_700),
      deadlineAt: iso(12_700 + 310 * S - 1),
    });
  });

  it.each([
    // 5 s + 2 s: 7 s for the first move
    ['6.999 s is in time, leaving 1 s', 6999, true],
    ['7.000 s is late', 7000, false],
  ])('%s', (_, atMs, inTime) => {
    const events = verdictAt([created(fischer(5, 2))], atMs);
    if (inTime)
      expect((events[0] as MoveAccepted).data.clock?.sente).toEqual({ mainMs: 1 * S, periodsLeft: 0, periodMs: 0 });
    else
      expect(events).toEqual([
        { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'timeout' } },
        { type: 'GameEnded', data: { winner: null, reason: 'abort', at: iso(7 * S - 1) } },
      ]);
  });

  it('flags the side on move by a clock check at its deadline: an abort before both first moves, then a timeout', () => {
    // sudden death 900 s (floodgate-900-0): nobody has moved; the check comes at 900 s
    const log = [created(fischer(900, 0))];
    given(log)
      .when({ type: 'CheckClock', now: t(900 * S - 1) })
      .then([]);
    given(log)
      .when({ type: 'CheckClock', now: t(900 * S) })
      .then([{ type: 'GameEnded', data: { winner: null, reason: 'abort', at: iso(900 * S - 1) } }]);
    // both moved (1 s each): sente, on move from 2 s with 899 s left, runs out
    const opened = history(fischer(900, 0), [1000, 2000]);
    given(opened)
      .when({ type: 'CheckClock', now: t(2000 + 899 * S) })
      .then([{ type: 'GameEnded', data: { winner: 'gote', reason: 'timeout', at: iso(2000 + 899 * S - 1) } }]);
  });
});

describe('views', () => {
  it('shows the clock of the side to move running from the start', () => {
    const s = stateOf([created(fischer(300, 10))]);
    expect(clockView(s.clock!, s.ply, null, t(4 * S).getTime())).toEqual({
      sente: { mainMs: 306 * S, periodsLeft: 0, periodMs: 0 },
      gote: { mainMs: 300 * S, periodsLeft: 0, periodMs: 0 },
      running: 'sente',
      started: true,
      deadlineAt: iso(310 * S - 1),
      at: iso(4 * S),
    });
  });

  it('gives the same clocks on a replay of the log as live', () => {
    const log = history(byoyomi(120, 5), [1500, 7200, 30_100, 33_000, 41_999]);
    const replayed = stateOf(log);
    const live = log.reduce((s, e) => fold([e], s), initialState());
    expect(replayed.clock).toEqual(live.clock);
    expect(replayed.clock?.rules).toBe('csa');
  });
});

describe('creation', () => {
  it('refuses CSA clock rules without a byoyomi or Fischer clock', () => {
    const d = decide(
      {
        type: 'CreateGame',
        gameId: 'g1',
        sente: { id: 's', name: 's' },
        gote: { id: 'g', name: 'g' },
        ruleset: 'jsa',
        clockRules: 'csa',
        now: T0,
      },
      initialState(),
    );
    expect(d).toMatchObject({ ok: false, rejection: { code: 'invalid_time_control' } });
  });
});
