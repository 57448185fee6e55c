/**
 * The gameState lines a game's events make: one a move, the ending folded into the state of
 * the move that brought it, clocks at the instant given (the running side charged until then).
 */
import type { WireEvent } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import type { SnapshotState } from '../src/domain/game-snapshot.js';
import { stateLines } from '../src/lishogi/state-lines.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** A Fischer 60+0 game two moves in (clocks running, gote to move), as a snapshot holds it. */
function snapshot(): SnapshotState {
  return {
    id: 'g',
    ruleset: 'default',
    initialSfen: START,
    sfen: 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3',
    moves: ['7g7f', '3c3d'],
    ply: 2,
    sideToMove: 'sente',
    status: 'ongoing',
    result: null,
    players: { sente: { id: 'a', name: 'a' }, gote: { id: 'b', name: 'b' } },
    timeControl: { kind: 'fischer', mainSeconds: 60, incrementSeconds: 0 },
    rated: false,
    takeback: null,
    clock: {
      sente: { mainMs: 60_000, periodsLeft: 0, periodMs: 0 },
      gote: { mainMs: 58_000, periodsLeft: 0, periodMs: 0 },
      running: 'sente',
      started: true,
      deadlineAt: iso(60_000),
      at: iso(0),
    },
    seq: 5,
  };
}

const accepted = (
  seq: number,
  usi: string,
  ply: number,
  sfen: string,
  movedAtMs: number,
  sente: number,
  gote: number,
): WireEvent => ({
  seq,
  type: 'MoveAccepted',
  payload: {
    submittedSeq: seq - 1,
    ply,
    usi,
    sfen,
    check: false,
    clock: {
      sente: { mainMs: sente, periodsLeft: 0, periodMs: 0 },
      gote: { mainMs: gote, periodsLeft: 0, periodMs: 0 },
      movedAt: iso(movedAtMs),
      deadlineAt: iso(movedAtMs + 60_000),
    },
  },
  recordedAt: iso(movedAtMs),
});
const submitted = (seq: number): WireEvent => ({ seq, type: 'MoveSubmitted', payload: {}, recordedAt: iso(0) });
const ended = (seq: number, winner: 'sente' | 'gote' | null, reason: string, atMs: number): WireEvent => ({
  seq,
  type: 'GameEnded',
  payload: { winner, reason, at: iso(atMs) },
  recordedAt: iso(atMs),
});
const AFTER_2G2F = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4';
const AFTER_8C8D = 'lnsgkgsnl/1r5b1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL b - 5';

describe('state lines', () => {
  test('a move makes one line, with the clocks at the instant it is sent', () => {
    const s = snapshot();
    // sente moved at 3 s; the line goes out at 4.5 s: gote's clock has run 1.5 s
    const { lines, ended: over } = stateLines(
      s,
      [submitted(6), accepted(7, '2g2f', 3, AFTER_2G2F, 3000, 57_000, 58_000)],
      T0 + 4500,
    );
    expect(over).toBe(false);
    expect(lines).toEqual([
      expect.objectContaining({ moves: '7g7f 3c3d 2g2f', btime: 57_000, wtime: 56_500, status: 'started' }),
    ]);
  });

  test('two moves in one batch (a catch-up from the log) make two lines, each move once', () => {
    const s = snapshot();
    const events = [
      submitted(6),
      accepted(7, '2g2f', 3, AFTER_2G2F, 3000, 57_000, 58_000),
      submitted(8),
      accepted(9, '8c8d', 4, AFTER_8C8D, 5000, 57_000, 56_000),
    ];
    const { lines } = stateLines(s, events, T0 + 5000);
    expect(lines.map((l) => l.moves)).toEqual(['7g7f 3c3d 2g2f', '7g7f 3c3d 2g2f 8c8d']);
  });

  test('a move and the ending it brings make one final line; events after the end make none', () => {
    const s = snapshot();
    const mate = [
      accepted(7, '2g2f', 3, AFTER_2G2F, 3000, 57_000, 58_000),
      ended(8, 'sente', 'checkmate', 3000),
      accepted(9, '8c8d', 4, AFTER_8C8D, 5000, 57_000, 56_000),
    ];
    const { lines, ended: over } = stateLines(s, mate, T0 + 9000);
    expect(over).toBe(true);
    // the clocks stopped at the end: nothing runs after it
    expect(lines).toEqual([
      expect.objectContaining({
        moves: '7g7f 3c3d 2g2f',
        status: 'mate',
        winner: 'sente',
        btime: 57_000,
        wtime: 58_000,
      }),
    ]);
    expect(stateLines(s, [ended(10, 'gote', 'resignation', 9000)], T0 + 9000).lines).toEqual([]);
  });

  test('an ending alone (a resignation, a flag) is its own line; the loser on time shows zero', () => {
    const s = snapshot();
    const { lines } = stateLines(s, [ended(6, 'gote', 'timeout', 61_000)], T0 + 61_000);
    expect(lines).toEqual([
      expect.objectContaining({ moves: '7g7f 3c3d', status: 'outoftime', winner: 'gote', btime: 0 }),
    ]);
  });

  test('events that change nothing a client sees make no line', () => {
    const s = snapshot();
    const rejected: WireEvent = { seq: 7, type: 'MoveRejected', payload: { submittedSeq: 6 }, recordedAt: iso(0) };
    expect(stateLines(s, [submitted(6), rejected], T0).lines).toEqual([]);
    expect(s.seq).toBe(7);
  });
});
