/**
 * Property: verdicts depend only on the events before them. A game driven by random
 * submissions (legal, illegal, malformed, stale, by the wrong player) through decide and
 * evolve gives a log whose every ValidatePending, re-decided on a fresh fold of the log up
 * to that point, yields the same events.
 */
import { formatUsi, legalMoves } from '@shogi/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, evolve, fold, type GameEvent, type GameState, initialState } from '../src/index.js';
import { historyAt } from '../src/move-line.js';
import { lineOf } from '../src/state.js';
import { GOTE, gameCreated, SENTE, T0 } from '../src/testing/index.js';

type Step = { kind: 'legal' | 'junk' | 'stale' | 'stranger' | 'validate' | 'raw'; pick: number };

const step = fc.record({
  kind: fc.constantFrom<Step['kind']>('legal', 'legal', 'legal', 'junk', 'stale', 'stranger', 'validate', 'raw', 'raw'),
  pick: fc.nat(),
});

function run(steps: readonly Step[]): {
  log: GameEvent[];
  validations: { at: number; seq: number; events: GameEvent[] }[];
} {
  let s: GameState = fold([gameCreated('g')], initialState());
  const log: GameEvent[] = [gameCreated('g')];
  const validations: { at: number; seq: number; events: GameEvent[] }[] = [];
  const append = (events: GameEvent[]) => {
    for (const e of events) {
      log.push(e);
      s = evolve(s, e);
    }
  };
  for (const { kind, pick } of steps) {
    if (s.status === 'ended') break;
    if (kind === 'raw') {
      // recorded as by a gateway that skipped its checks: the worker must judge it
      const usi = ['7g7f', '3c3d', '5i5e', '9z9z', 'P*5e', '2b8h+', '8h2b+'][pick % 7] ?? '7g7f';
      const color = pick % 3 === 0 ? 'gote' : 'sente';
      append([
        {
          type: 'MoveSubmitted',
          data: {
            playerId: color === 'sente' ? SENTE.id : GOTE.id,
            color,
            usi,
            ply: s.ply - (pick % 5 === 0 ? 1 : 0),
            receivedAt: T0.toISOString(),
          },
        },
      ]);
      continue;
    }
    if (kind === 'validate' || s.pending.length > 0) {
      const d = decide({ type: 'ValidatePending', seq: s.seq, now: T0 }, s);
      if (!d.ok) throw new Error(d.rejection.code);
      validations.push({ at: log.length, seq: s.seq, events: d.events });
      append(d.events);
      continue;
    }
    const mover = s.sideToMove === 'sente' ? SENTE : GOTE;
    const moves = legalMoves(historyAt(lineOf(s)).position);
    const usi =
      kind === 'junk'
        ? ['9z9z', 'P*5', '1a1a', '5i5e'][pick % 4]
        : formatUsi(moves[pick % Math.max(1, moves.length)] ?? 0);
    const d = decide(
      {
        type: 'SubmitMove',
        playerId: kind === 'stranger' ? (mover === SENTE ? GOTE.id : SENTE.id) : mover.id,
        usi: usi ?? '',
        ply: kind === 'stale' ? s.ply + 1 : s.ply,
        now: T0,
      },
      s,
    );
    if (d.ok) append(d.events);
  }
  return { log, validations };
}

describe('determinism', () => {
  it('re-deciding each validation on a fresh fold of the log before it gives the same verdicts', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        const { log, validations } = run(steps);
        for (const v of validations) {
          const fresh = fold(log.slice(0, v.at), initialState());
          expect(decide({ type: 'ValidatePending', seq: v.seq, now: T0 }, fresh)).toEqual({
            ok: true,
            events: v.events,
          });
        }
        // and folding the whole log twice gives the same observable state
        const a = fold(log, initialState());
        const b = fold(log, initialState());
        expect([a.seq, a.ply, a.sfen, a.status, a.result]).toEqual([b.seq, b.ply, b.sfen, b.status, b.result]);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the generator', () => {
  it('produces accepted and rejected verdicts', () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(fc.array(step, { minLength: 40, maxLength: 120 }), (steps) => {
        for (const v of run(steps).validations) for (const e of v.events) kinds.add(e.type);
      }),
      { numRuns: 30, seed: 1 },
    );
    expect(kinds).toEqual(new Set(['MoveAccepted', 'MoveRejected']));
  });
});
