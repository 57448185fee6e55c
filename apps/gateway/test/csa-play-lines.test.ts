/**
 * What a CSA player is sent of its game's events (CSA server protocol 1.2.1: each move as
 * `<move>,T<seconds>` to both players, then the ending lines, as shogi-server writes them).
 */
import type { EndReason } from '@shogi/game';
import type { WireEvent } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import { describe, expect, it } from 'vitest';
import { endingLines } from '../src/csa/endings.js';
import { newPlayView, onMove, playLines } from '../src/csa/play-lines.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
let seq = 1;
const event = (type: string, payload: Record<string, unknown>): WireEvent => ({
  seq: ++seq,
  type,
  payload,
  recordedAt: at(0),
});
const AFTER_7776 = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';
const AFTER_3334 = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3';

describe('play lines', () => {
  it('echoes each accepted move with its whole seconds since the turn began, to either side', () => {
    const game = { gameId: 'g', initialSfen: START_SFEN, createdAt: at(0) };
    const sente = newPlayView(game, 'sente');
    const gote = newPlayView(game, 'gote');
    const events = [
      event('MoveSubmitted', { color: 'sente', usi: '7g7f', ply: 0, receivedAt: at(3900) }),
      event('MoveAccepted', { usi: '7g7f', ply: 1, sfen: AFTER_7776, clock: { movedAt: at(3900) } }),
      event('MoveSubmitted', { color: 'gote', usi: '3c3d', ply: 1, receivedAt: at(16_400) }),
      event('MoveAccepted', { usi: '3c3d', ply: 2, sfen: AFTER_3334, clock: { movedAt: at(16_400) } }),
    ];
    expect(playLines(sente, events)).toEqual(['+7776FU,T3', '-3334FU,T12']);
    expect(playLines(gote, events)).toEqual(['+7776FU,T3', '-3334FU,T12']);
    expect(onMove(sente)).toBe(true);
    expect(onMove(gote)).toBe(false);
  });

  it('holds the mover while its submission awaits its verdict', () => {
    const view = newPlayView({ gameId: 'g', initialSfen: START_SFEN, createdAt: at(0) }, 'sente');
    expect(playLines(view, [event('MoveSubmitted', { color: 'sente', usi: '7g7f', ply: 0 })])).toEqual([]);
    expect(onMove(view)).toBe(false);
  });

  it('ends with the ending lines and nothing after', () => {
    const view = newPlayView({ gameId: 'g', initialSfen: START_SFEN, createdAt: at(0) }, 'gote');
    const lines = playLines(view, [
      event('ImpasseDeclared', { color: 'sente', valid: false }),
      event('GameEnded', { winner: 'gote', reason: 'impasse', at: at(1) }),
      event('MoveAccepted', { usi: '3c3d', ply: 2, sfen: AFTER_3334 }),
    ]);
    expect(lines).toEqual(['%KACHI', '#ILLEGAL_MOVE', '#WIN']);
    expect(view.ended).toBe(true);
  });
});

describe('ending lines', () => {
  it.each<[EndReason, 'sente' | 'gote' | null, boolean | null, string[], string[]]>([
    ['resignation', 'sente', null, ['%TORYO', '#RESIGN', '#WIN'], ['%TORYO', '#RESIGN', '#LOSE']],
    ['checkmate', 'gote', null, ['%TORYO', '#RESIGN', '#LOSE'], ['%TORYO', '#RESIGN', '#WIN']],
    ['impasse', 'sente', true, ['%KACHI', '#JISHOGI', '#WIN'], ['%KACHI', '#JISHOGI', '#LOSE']],
    ['impasse', 'gote', false, ['%KACHI', '#ILLEGAL_MOVE', '#LOSE'], ['%KACHI', '#ILLEGAL_MOVE', '#WIN']],
    ['timeout', 'gote', null, ['#TIME_UP', '#LOSE'], ['#TIME_UP', '#WIN']],
    ['sennichite', null, null, ['#SENNICHITE', '#DRAW'], ['#SENNICHITE', '#DRAW']],
    ['perpetual_check', 'sente', null, ['#OUTE_SENNICHITE', '#WIN'], ['#OUTE_SENNICHITE', '#LOSE']],
    ['illegal_move', 'sente', null, ['#ILLEGAL_MOVE', '#WIN'], ['#ILLEGAL_MOVE', '#LOSE']],
    ['max_moves', null, null, ['#MAX_MOVES', '#CENSORED'], ['#MAX_MOVES', '#CENSORED']],
    ['abort', null, null, ['#CHUDAN'], ['#CHUDAN']],
  ])('%s (winner %s)', (reason, winner, declarationValid, sente, gote) => {
    const end = { winner, reason, declarationValid };
    expect(endingLines(end, 'sente')).toEqual(sente);
    expect(endingLines(end, 'gote')).toEqual(gote);
  });
});
