/**
 * Given a rated game's events and its screened positions, when fair play reads a player's
 * game, then each move carries its time from the recorded receive times, byoyomi, blur and the
 * engine's lines (issue 47).
 */
import type { GameEvent } from '@shogi/game';
import { describe, expect, it } from 'vitest';
import { playerGameOf, ratedGameFacts, type ScreenedPosition } from '../src/screening/player-games.js';

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const side = (mainMs: number) => ({ mainMs, periodsLeft: 1, periodMs: 10_000 });

function game(rated = true): GameEvent[] {
  const events: GameEvent[] = [
    {
      type: 'GameCreated',
      data: {
        gameId: 'g1',
        sente: { id: 'alice', name: 'Alice' },
        gote: { id: 'bob', name: 'Bob' },
        ruleset: 'default',
        handicap: null,
        initialSfen: START,
        timeControl: { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 },
        rated,
        createdAt: at(0),
      },
    } as GameEvent,
  ];
  // [usi, color, received (s), blur, mover's main time left after the move (ms)]
  const moves = [
    ['7g7f', 'sente', 2, false, 298_000],
    ['3c3d', 'gote', 5, false, 297_000],
    ['2g2f', 'sente', 9, true, 294_000],
    ['8c8d', 'gote', 10, false, 296_000],
    ['2f2e', 'sente', 400, false, 0],
  ] as const;
  for (const [usi, color, s, blur, main] of moves) {
    const submittedSeq = events.length + 1;
    events.push({
      type: 'MoveSubmitted',
      data: {
        playerId: color === 'sente' ? 'alice' : 'bob',
        color,
        usi,
        ply: 0,
        receivedAt: at(s),
        ...(blur ? { blur: true as const } : {}),
      },
    } as GameEvent);
    events.push({
      type: 'MoveAccepted',
      data: {
        submittedSeq,
        ply: 0,
        usi,
        sfen: START,
        check: false,
        clock: {
          sente: side(color === 'sente' ? main : 300_000),
          gote: side(color === 'gote' ? main : 300_000),
          movedAt: at(s),
          deadlineAt: at(s + 300),
        },
      },
    } as GameEvent);
  }
  events.push({ type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at: at(401) } } as GameEvent);
  return events;
}

const cp = (value: number) => ({ kind: 'cp', value }) as const;
const position = (score: number, lines: [string, number][]): ScreenedPosition => ({
  score: cp(score),
  lines: lines.map(([move, s]) => ({ move, score: cp(s) })),
});

describe('a rated game read for fair play', () => {
  it('times each move from its turn start, marks byoyomi and blur', () => {
    const facts = ratedGameFacts(game());
    expect(facts).toMatchObject({ sente: 'alice', gote: 'bob', speed: 'blitz', winner: 'sente', clockSeconds: 700 });
    expect(facts?.timing).toEqual([
      { timeMs: 2000, inByoyomi: false, blur: false },
      { timeMs: 3000, inByoyomi: false, blur: false },
      { timeMs: 4000, inByoyomi: false, blur: true },
      { timeMs: 1000, inByoyomi: false, blur: false },
      { timeMs: 390_000, inByoyomi: true, blur: false },
    ]);
  });
  it('leaves casual and unfinished games alone', () => {
    expect(ratedGameFacts(game(false))).toBeNull();
    expect(ratedGameFacts(game().slice(0, -1))).toBeNull();
  });
  it("gives each player its own moves with the engine's lines before them", () => {
    const facts = ratedGameFacts(game());
    if (facts === null) throw new Error('no facts');
    const positions = [
      position(30, [
        ['7g7f', 30],
        ['2g2f', 25],
      ]),
      position(-30, [
        ['8c8d', -20],
        ['3c3d', -30],
      ]),
      position(40, [['2g2f', 40]]),
      position(-40, [['8c8d', -40]]),
      position(50, [['2f2e', 50]]),
      position(-60, [['8d8e', -60]]),
    ];
    const alice = playerGameOf(facts, positions, 'sente', 'sente');
    expect(alice.won).toBe(true);
    expect(alice.moves.map((m) => [m.usi, m.engineChoices[0], m.playedLine, m.blur])).toEqual([
      ['7g7f', '7g7f', cp(30), false],
      ['2g2f', '2g2f', cp(40), true],
      ['2f2e', '2f2e', cp(50), false],
    ]);
    const bob = playerGameOf(facts, positions, 'gote', 'sente');
    expect(bob.won).toBe(false);
    expect(bob.moves.map((m) => [m.usi, m.engineChoices, m.playedLine])).toEqual([
      ['3c3d', ['8c8d', '3c3d'], cp(-30)],
      ['8c8d', ['8c8d'], cp(-40)],
    ]);
  });
});
