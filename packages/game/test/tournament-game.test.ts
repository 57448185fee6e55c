/**
 * A tournament's game (lishogi's arena rules): no abort, and an ending before both sides have
 * moved stands, the player who did not move losing it (lishogi scores `NoStart` so), where a
 * game of its own would be aborted (ply-rule.ts).
 */
import { describe, expect, it } from 'vitest';
import { decide, fold, initialState } from '../src/index.js';
import { GOTE, gameCreated, SENTE, T0 } from '../src/testing/index.js';
import { mustAccept } from './helpers.js';

const BLITZ = { kind: 'fischer', mainSeconds: 180, incrementSeconds: 0 } as const;
const inTournament = gameCreated('g1', { timeControl: BLITZ, rated: true, noTakebacks: true, tournamentId: 't1' });
const ofItsOwn = gameCreated('g1', { timeControl: BLITZ, rated: true });

describe('a tournament game', () => {
  it('records its tournament at creation', () => {
    const d = decide(
      { type: 'CreateGame', gameId: 'g1', sente: SENTE, gote: GOTE, ruleset: 'default', tournamentId: 't1', now: T0 },
      initialState(),
    );
    const s = fold(mustAccept(d), initialState());
    expect(s.info?.tournamentId).toBe('t1');
  });

  it('cannot be aborted', () => {
    const d = decide({ type: 'Abort', playerId: SENTE.id, now: T0 }, fold([inTournament], initialState()));
    expect(d.ok ? null : d.rejection.code).toBe('abort_not_allowed');
  });

  it('is lost by a player who does not make a first move in time, where a game of its own is aborted', () => {
    // the first-move limit has long passed at T0 + 1 h
    const late = new Date(T0.getTime() + 3_600_000);
    const ended = (first: typeof inTournament) =>
      mustAccept(decide({ type: 'CheckClock', now: late }, fold([first], initialState()))).find(
        (e) => e.type === 'GameEnded',
      );
    expect(ended(inTournament)?.data).toMatchObject({ winner: 'gote', reason: 'timeout' });
    expect(ended(ofItsOwn)?.data).toMatchObject({ winner: null, reason: 'abort' });
  });

  it('keeps a resignation before both moved as a resignation', () => {
    const events = mustAccept(
      decide({ type: 'Resign', playerId: SENTE.id, now: T0 }, fold([inTournament], initialState())),
    );
    expect(events.find((e) => e.type === 'GameEnded')?.data).toMatchObject({ winner: 'gote', reason: 'resignation' });
  });
});

describe("berserk (lishogi's)", () => {
  const created = fold([inTournament], initialState());
  it('halves the main time of the berserker before their first move, once', () => {
    const events = mustAccept(decide({ type: 'Berserk', playerId: GOTE.id, now: T0 }, created));
    expect(events).toEqual([{ type: 'Berserked', data: { color: 'gote', at: T0.toISOString() } }]);
    const after = fold(events, created);
    expect(after.clock?.gote.mainMs).toBe(90_000);
    expect(after.clock?.sente.mainMs).toBe(180_000);
    // a second berserk changes nothing
    expect(mustAccept(decide({ type: 'Berserk', playerId: GOTE.id, now: T0 }, after))).toEqual([]);
  });
  it('is refused outside a tournament and after one’s first move', () => {
    const own = decide({ type: 'Berserk', playerId: SENTE.id, now: T0 }, fold([ofItsOwn], initialState()));
    expect(own.ok ? null : own.rejection.code).toBe('berserk_not_allowed');
    const moved = fold(
      [
        {
          type: 'MoveSubmitted',
          data: { playerId: SENTE.id, color: 'sente', usi: '7g7f', ply: 0, receivedAt: T0.toISOString() },
        },
        {
          type: 'MoveAccepted',
          data: {
            submittedSeq: 2,
            ply: 1,
            usi: '7g7f',
            sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2',
            check: false,
          },
        },
      ],
      created,
    );
    const late = decide({ type: 'Berserk', playerId: SENTE.id, now: T0 }, moved);
    expect(late.ok ? null : late.rejection.code).toBe('berserk_not_allowed');
    // gote has not moved yet: still may
    expect(mustAccept(decide({ type: 'Berserk', playerId: GOTE.id, now: T0 }, moved))).toHaveLength(1);
  });
});
