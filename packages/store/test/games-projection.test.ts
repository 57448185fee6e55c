import { gameCreated, moveSubmitted } from '@shogi/game/testing';
import { describe, expect, it } from 'vitest';
import { asFullRow } from '../src/games-projection.js';
import { applyToGameRow, type GameRowPatch } from '../src/index.js';

const fold = (start: GameRowPatch, firstSeq: number, events: Parameters<typeof applyToGameRow>[2][]) =>
  events.reduce((p, e, i) => applyToGameRow(p, firstSeq + i, e), start);

describe('games projection reducer', () => {
  it('a batch starting with GameCreated gives a full row', () => {
    const row = asFullRow(
      fold({}, 1, [gameCreated('g', { initialSfen: 'lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1' })]),
    );
    expect(row).toMatchObject({
      id: 'g',
      status: 'ongoing',
      side_to_move: 'gote',
      ply: 0,
      last_seq: 1,
      pending_seq: null,
    });
  });
  it('a later batch gives only the columns it changes', () => {
    const patch = fold({}, 5, [
      { type: 'MoveAccepted', data: { submittedSeq: 4, ply: 3, usi: '7g7f', sfen: 'x w - 4', check: true } },
      { type: 'GameEnded', data: { winner: null, reason: 'sennichite', at: '2026-01-01T00:00:00.000Z' } },
    ]);
    expect(patch).toEqual({
      last_seq: 6,
      ply: 3,
      sfen: 'x w - 4',
      side_to_move: 'gote',
      pending_clear_if: 4,
      status: 'ended',
      winner: null,
      result: 'draw',
      end_reason: 'sennichite',
      deadline_at: null,
    });
    expect(asFullRow(patch)).toBeNull();
  });
  it('keeps the deadline of the side to move: the first-move limit, then the one each timed move records', () => {
    const created = asFullRow(
      fold({}, 1, [gameCreated('g', { timeControl: { kind: 'fischer', mainSeconds: 60, incrementSeconds: 0 } })]),
    );
    expect(created?.deadline_at).toEqual(new Date('2026-01-01T00:00:30.000Z'));
    expect(asFullRow(fold({}, 1, [gameCreated('g')]))?.deadline_at).toBeNull();
    const side = { mainMs: 60_000, periodsLeft: 0, periodMs: 0 };
    const clock = {
      sente: side,
      gote: side,
      movedAt: '2026-01-01T00:00:05.000Z',
      deadlineAt: '2026-01-01T00:01:05.000Z',
    };
    const moved = fold({}, 3, [
      { type: 'MoveAccepted', data: { submittedSeq: 2, ply: 2, usi: '3c3d', sfen: 'x b - 3', check: false, clock } },
    ]);
    expect(moved.deadline_at).toEqual(new Date('2026-01-01T00:01:05.000Z'));
  });
  it.each([
    ['a submission sets pending_seq', [moveSubmitted('7g7f', 0)], { pending_seq: 2 }],
    [
      'its verdict in the same batch clears it',
      [
        moveSubmitted('7g7f', 0),
        { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'stale_ply' } },
      ],
      { pending_seq: null },
    ],
    [
      'a verdict for an earlier submission leaves the later one waiting',
      [
        moveSubmitted('7g7f', 0),
        moveSubmitted('2g2f', 0),
        { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'stale_ply' } },
      ],
      { pending_seq: 3 },
    ],
  ] as const)('%s', (_name, events, expected) => {
    expect(fold({}, 2, [...events])).toMatchObject(expected);
  });
});
