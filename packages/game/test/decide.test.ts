import { START_SFEN } from '@shogi/rules';
import { describe, expect, it } from 'vitest';
import { decide, fold, type GameEvent, initialState, movesOf } from '../src/index.js';
import { GOTE, gameCreated, given, moveSubmitted, SENTE, T0 } from '../src/testing/index.js';
import { created, mustAccept, play, playAll, playedLog } from './helpers.js';

const at = T0.toISOString();
const created1 = gameCreated('g1');
/** The game after both first moves: from here a player's ending names a winner (ply-rule.ts). */
const opened = playedLog(created1, ['7g7f', '3c3d']);
const BYOYOMI = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 } as const;

describe('CreateGame', () => {
  it('records the players, ruleset and start position', () => {
    given([])
      .when({ type: 'CreateGame', gameId: 'g1', sente: SENTE, gote: GOTE, ruleset: 'default', now: T0 })
      .then([created1]);
  });
  it('uses the handicap position, where gote moves first', () => {
    const d = decide(
      { type: 'CreateGame', gameId: 'g1', sente: SENTE, gote: GOTE, ruleset: 'jsa', handicap: 'bishop', now: T0 },
      initialState(),
    );
    const s = fold(mustAccept(d), initialState());
    expect(s.sideToMove).toBe('gote');
    expect(s.info?.handicap).toBe('bishop');
  });
  it.each([
    ['an existing game', [created1], {}, 'game_exists'],
    ['a bad SFEN', [], { initialSfen: 'nonsense' }, 'invalid_setup'],
    ['the same player twice', [], { gote: SENTE }, 'invalid_setup'],
    ['a rated game without a clock', [], { rated: true }, 'invalid_time_control'],
    [
      'a rated game from a custom position',
      [],
      { rated: true, timeControl: BYOYOMI, initialSfen: '4k4/9/9/9/9/9/9/9/4K4 b G 1' },
      'rated_custom_position',
    ],
    [
      'a time control out of bounds',
      [],
      { timeControl: { kind: 'fischer', mainSeconds: 0, incrementSeconds: 0 } },
      'invalid_time_control',
    ],
  ] as const)('rejects %s', (_name, history, overrides, code) => {
    given(history)
      .when({ type: 'CreateGame', gameId: 'g1', sente: SENTE, gote: GOTE, ruleset: 'default', now: T0, ...overrides })
      .thenRejects(code);
  });
});

describe('CreateGame, rated', () => {
  const rated = { type: 'CreateGame' as const, gameId: 'g1', sente: SENTE, gote: GOTE, ruleset: 'default' as const };
  it.each([
    ['the standard start', {}],
    ['the standard start as an SFEN, at any move number', { initialSfen: START_SFEN.replace(/ 1$/, ' 7') }],
    ['a named handicap', { handicap: 'rook' as const }],
  ])('accepts %s', (_name, setup) => {
    mustAccept(decide({ ...rated, ...setup, rated: true, timeControl: BYOYOMI, now: T0 }, initialState()));
  });
  it('accepts a custom position when unrated', () => {
    mustAccept(
      decide({ ...rated, initialSfen: '4k4/9/9/9/9/9/9/9/4K4 b G 1', timeControl: BYOYOMI, now: T0 }, initialState()),
    );
  });
});

describe('SubmitMove (the gateway checks)', () => {
  const submit = (playerId: string, usi: string, ply: number, idempotencyKey?: string) => ({
    type: 'SubmitMove' as const,
    playerId,
    usi,
    ply,
    now: T0,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  it('records a well-formed legal move by the player on move', () => {
    given([created1])
      .when(submit(SENTE.id, '7g7f', 0))
      .then([moveSubmitted('7g7f', 0)]);
  });
  it.each([
    ['an unknown game', [], submit(SENTE.id, '7g7f', 0), 'unknown_game'],
    ['a stranger', [created1], submit('nobody', '7g7f', 0), 'not_a_player'],
    ['the side not on move', [created1], submit(GOTE.id, '3c3d', 0), 'not_your_turn'],
    ['a stale ply', [created1], submit(SENTE.id, '7g7f', 1), 'stale_ply'],
    ['malformed USI', [created1], submit(SENTE.id, '7g7', 0), 'malformed_usi'],
    ['overlong USI', [created1], submit(SENTE.id, '7g7f+++', 0), 'malformed_usi'],
    ['an illegal move', [created1], submit(SENTE.id, '7g7e', 0), 'illegal_move'],
    ['a move while one is pending', [created1, moveSubmitted('7g7f', 0)], submit(SENTE.id, '2g2f', 0), 'move_pending'],
    [
      'a move after the end',
      [
        created1,
        { type: 'Resigned', data: { color: 'gote', at } },
        { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at } },
      ],
      submit(SENTE.id, '7g7f', 0),
      'game_over',
    ],
  ] as const)('rejects %s', (_name, history, command, code) => {
    given(history as readonly GameEvent[])
      .when(command)
      .thenRejects(code);
  });
  it('gives the rules reason of an illegal move', () => {
    const { decision } = given([created1]).when(submit(SENTE.id, '5i5e', 0));
    expect(decision).toMatchObject({ ok: false, rejection: { code: 'illegal_move', reason: 'illegal_piece_move' } });
  });
  it('records nothing for a retry with the same idempotency key and names the first seq', () => {
    const first = { ...moveSubmitted('7g7f', 0), data: { ...moveSubmitted('7g7f', 0).data, idempotencyKey: 'k1' } };
    const { decision } = given([created1, first]).when(submit(SENTE.id, '7g7f', 0, 'k1'));
    expect(decision).toEqual({ ok: true, events: [], duplicateOf: 2 });
  });
  it('knows a player’s latest key after the opponent has replied', () => {
    // the client lost sente's answer and retries after gote's reply came in
    const keyed = { ...moveSubmitted('7g7f', 0), data: { ...moveSubmitted('7g7f', 0).data, idempotencyKey: 'k1' } };
    const accept = (usi: string, ply: number, submittedSeq: number, sfen: string): GameEvent => ({
      type: 'MoveAccepted',
      data: { submittedSeq, ply, usi, sfen, check: false },
    });
    const history: GameEvent[] = [
      created1,
      keyed,
      accept('7g7f', 1, 2, 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'),
      moveSubmitted('3c3d', 1),
      accept('3c3d', 2, 4, 'lnsgkgsnl/1r5b1/pp1pppppp/2p6/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3'),
    ];
    expect(given(history).when(submit(SENTE.id, '7g7f', 0, 'k1')).decision).toEqual({
      ok: true,
      events: [],
      duplicateOf: 2,
    });
    // the same key for another move names the original too; the gateway refuses it as reused
    expect(given(history).when(submit(SENTE.id, '2g2f', 2, 'k1')).decision).toMatchObject({ duplicateOf: 2 });
    // gote's key space is gote's own
    expect(given(history).when(submit(GOTE.id, '8c8d', 2, 'k1')).decision).toMatchObject({ ok: false });
  });
});

describe('ValidatePending (the worker verdict)', () => {
  it('accepts a legal move with the position after it', () => {
    given([created1, moveSubmitted('7g7f', 0)])
      .when({ type: 'ValidatePending', seq: 2, now: T0 })
      .then([
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
      ]);
  });
  it('is a no-op for a submission that already has its verdict (a redelivered job)', () => {
    const s = play(created(), '7g7f').state;
    expect(decide({ type: 'ValidatePending', seq: 2, now: T0 }, s)).toEqual({ ok: true, events: [] });
  });
  it('asks to retry for a seq it has not seen', () => {
    given([created1]).when({ type: 'ValidatePending', seq: 5, now: T0 }).thenRejects('unknown_submission');
  });
  it('accepts only the first of two submissions recorded for the same ply', () => {
    const { decision } = given([created1, moveSubmitted('7g7f', 0), moveSubmitted('2g2f', 0)]).when({
      type: 'ValidatePending',
      seq: 3,
      now: T0,
    });
    expect(decision).toMatchObject({
      ok: true,
      events: [
        { type: 'MoveAccepted', data: { submittedSeq: 2, ply: 1, usi: '7g7f' } },
        { type: 'MoveRejected', data: { submittedSeq: 3, usi: '2g2f', ply: 0, reason: 'stale_ply' } },
      ],
    });
  });
  it('rejects a recorded illegal move with the rules reason', () => {
    given([created1, moveSubmitted('5i5e', 0)])
      .when({ type: 'ValidatePending', seq: 2, now: T0 })
      .then([{ type: 'MoveRejected', data: { submittedSeq: 2, usi: '5i5e', ply: 0, reason: 'illegal_piece_move' } }]);
  });
  it('rejects a pending move once the game ended by resignation', () => {
    const end: GameEvent[] = [
      { type: 'Resigned', data: { color: 'gote', at } },
      { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at } },
    ];
    given([created1, moveSubmitted('7g7f', 0), ...end])
      .when({ type: 'ValidatePending', seq: 2, now: T0 })
      .then([{ type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'game_over' } }]);
  });
});

describe('game ends', () => {
  it('ends in checkmate by a gold drop (uchifuzume is about pawns only)', () => {
    const s = created('default', '4k4/9/4G4/9/9/9/9/9/4K4 b G 1');
    const { verdict, state } = play(s, 'G*5b');
    expect(verdict[0]).toMatchObject({ type: 'MoveAccepted', data: { check: true } });
    expect(verdict[1]).toEqual({ type: 'GameEnded', data: { winner: 'sente', reason: 'checkmate', at } });
    expect(state.status).toBe('ended');
  });
  it('rejects a pawn-drop mate (uchifuzume), at the gateway and in the worker', () => {
    // P*1b: the gold covers 1b and 2b, the bishop 2a: it would mate, so it is illegal
    const history = [gameCreated('g1', { initialSfen: '8k/9/5B1G1/9/9/9/9/9/4K4 b P 1' })];
    const { decision } = given(history).when({ type: 'SubmitMove', playerId: SENTE.id, usi: 'P*1b', ply: 0, now: T0 });
    expect(decision).toMatchObject({ ok: false, rejection: { code: 'illegal_move', reason: 'uchifuzume' } });
    given([...history, moveSubmitted('P*1b', 0)])
      .when({ type: 'ValidatePending', seq: 2, now: T0 })
      .then([{ type: 'MoveRejected', data: { submittedSeq: 2, usi: 'P*1b', ply: 0, reason: 'uchifuzume' } }]);
  });
  it('ends in sennichite when a position occurs the fourth time without perpetual check', () => {
    const cycle = ['5i4h', '5a4b', '4h5i', '4b5a'];
    const { verdicts, state } = playAll(created(), [...cycle, ...cycle, ...cycle]);
    expect(verdicts.slice(0, 11).every((v) => v.length === 1 && v[0]?.type === 'MoveAccepted')).toBe(true);
    expect(verdicts[11]?.[1]).toEqual({ type: 'GameEnded', data: { winner: null, reason: 'sennichite', at } });
    expect(state.result?.reason).toBe('sennichite');
  });

  // gote king on 1a in check from the rook on 5a; sente checks on every move
  const PERPETUAL = '4R3k/9/9/9/9/9/9/9/K8 w - 1';
  const checks = ['1a1b', '5a5b', '1b1a', '5b5a'];
  it('default ruleset: the perpetual checker may not complete the fourfold repetition', () => {
    const { verdicts, state } = playAll(created('default', PERPETUAL), [...checks, ...checks, ...checks]);
    expect(verdicts[11]).toEqual([
      {
        type: 'MoveRejected',
        data: { submittedSeq: expect.any(Number), usi: '5b5a', ply: 11, reason: 'perpetual_check' },
      },
    ]);
    expect(state.status).toBe('ongoing');
    expect(state.ply).toBe(11);
  });
  it('jsa ruleset: the perpetual checker loses', () => {
    const { verdicts, state } = playAll(created('jsa', PERPETUAL), [...checks, ...checks, ...checks]);
    expect(verdicts[11]?.[1]).toEqual({ type: 'GameEnded', data: { winner: 'gote', reason: 'perpetual_check', at } });
    expect(state.result).toEqual({ winner: 'gote', reason: 'perpetual_check', at });
  });
  // gote's lone king on 1a; after S 4c3b the gold covers 1b and 2b, the silver 2a, and 1a is not attacked
  const STALEMATE = '8k/9/5S1G1/9/9/9/9/9/K8 b - 1';
  it.each([
    ['default', null],
    ['jsa', 'sente'],
  ] as const)('stalemate under %s: winner %s', (ruleset, winner) => {
    const { verdict } = play(created(ruleset, STALEMATE), '4c3b');
    expect(verdict[0]).toMatchObject({ type: 'MoveAccepted', data: { check: false } });
    expect(verdict[1]).toEqual({ type: 'GameEnded', data: { winner, reason: 'stalemate', at } });
  });
  // sente's king on 5b, 13 pieces in gote's camp (rook, bishop, 11 tokins: 21 points) and 16 in hand: 37 >= 28
  const IMPASSE = '+R+B+P+P+P+P+P+P+P/4K4/+P+P+P+P5/9/9/9/8k/9/9 b 4G4S4N4L 1';
  it('a valid impasse declaration wins; an invalid one loses', () => {
    given([gameCreated('g1', { initialSfen: IMPASSE })])
      .when({ type: 'DeclareImpasse', playerId: SENTE.id, now: T0 })
      .then([
        { type: 'ImpasseDeclared', data: { color: 'sente', valid: true, points: 37, piecesInCamp: 13, at } },
        { type: 'GameEnded', data: { winner: 'sente', reason: 'impasse', at } },
      ]);
    given(opened)
      .when({ type: 'DeclareImpasse', playerId: SENTE.id, now: T0 })
      .then([
        { type: 'ImpasseDeclared', data: { color: 'sente', valid: false, points: 0, piecesInCamp: 0, at } },
        { type: 'GameEnded', data: { winner: 'gote', reason: 'impasse', at } },
      ]);
    given([created1]).when({ type: 'DeclareImpasse', playerId: GOTE.id, now: T0 }).thenRejects('not_your_turn');
    given([created1, moveSubmitted('7g7f', 0)])
      .when({ type: 'DeclareImpasse', playerId: SENTE.id, now: T0 })
      .thenRejects('move_pending');
  });
  it('resigning ends the game for the opponent', () => {
    given(opened)
      .when({ type: 'Resign', playerId: GOTE.id, now: T0 })
      .then([
        { type: 'Resigned', data: { color: 'gote', at } },
        { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at } },
      ]);
    given([created1]).when({ type: 'Resign', playerId: 'nobody', now: T0 }).thenRejects('not_a_player');
  });
  it('an ending leaves no submission without its verdict', () => {
    const pending = moveSubmitted('7g7f', 0);
    const rejected: GameEvent = {
      type: 'MoveRejected',
      data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'game_over' },
    };
    given([...opened, moveSubmitted('2g2f', 2)])
      .when({ type: 'Resign', playerId: GOTE.id, now: T0 })
      .then([
        { type: 'Resigned', data: { color: 'gote', at } },
        { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at } },
        { type: 'MoveRejected', data: { submittedSeq: 6, usi: '2g2f', ply: 2, reason: 'game_over' } },
      ]);
    given([created1, pending])
      .when({ type: 'Abort', playerId: GOTE.id, now: T0 })
      .then([{ type: 'GameEnded', data: { winner: null, reason: 'abort', at, abortedBy: 'gote' } }, rejected]);
  });
});

describe('idempotency keys of the requests that end a game', () => {
  const ended = (type: 'Resign' | 'Abort' | 'DeclareImpasse', playerId: string) => {
    const s = fold([created1], initialState());
    return fold(mustAccept(decide({ type, playerId, now: T0, idempotencyKey: 'K' }, s)), s);
  };
  it.each(['Resign', 'Abort', 'DeclareImpasse'] as const)('%s: the player’s replay answers the seq', (type) => {
    const s = ended(type, SENTE.id);
    expect(decide({ type, playerId: SENTE.id, now: T0, idempotencyKey: 'K' }, s)).toEqual({
      ok: true,
      events: [],
      duplicateOf: 2,
    });
  });
  it.each(['Resign', 'Abort', 'DeclareImpasse'] as const)(
    '%s: the other player’s same key is a new request',
    (type) => {
      const s = ended(type, SENTE.id);
      expect(decide({ type, playerId: GOTE.id, now: T0, idempotencyKey: 'K' }, s)).toMatchObject({
        ok: false,
        rejection: { code: 'game_over' },
      });
    },
  );
  it('a key replays only the request it was used for, and only with that key', () => {
    const s = ended('Abort', SENTE.id);
    for (const type of ['Resign', 'DeclareImpasse'] as const)
      expect(decide({ type, playerId: SENTE.id, now: T0, idempotencyKey: 'K' }, s)).toMatchObject({ ok: false });
    expect(decide({ type: 'Abort', playerId: SENTE.id, now: T0, idempotencyKey: 'L' }, s)).toMatchObject({ ok: false });
    expect(decide({ type: 'Abort', playerId: SENTE.id, now: T0 }, s)).toMatchObject({ ok: false });
  });
  it('an abort recorded without its side replays for nobody', () => {
    given([created1, { type: 'GameEnded', data: { winner: null, reason: 'abort', at, idempotencyKey: 'K' } }])
      .when({ type: 'Abort', playerId: SENTE.id, now: T0, idempotencyKey: 'K' })
      .thenRejects('game_over');
  });
});

describe('folding', () => {
  it('gives the same state and verdicts from a fresh fold of the recorded events (determinism)', () => {
    const moves = ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e', '8b3b'];
    const s0 = created();
    const events: GameEvent[] = [];
    let s = s0;
    for (const usi of moves) {
      const player = s.sideToMove === 'sente' ? SENTE : GOTE;
      const sub = mustAccept(decide({ type: 'SubmitMove', playerId: player.id, usi, ply: s.ply, now: T0 }, s));
      s = fold(sub, s);
      const v = mustAccept(decide({ type: 'ValidatePending', seq: s.seq, now: T0 }, s));
      s = fold(v, s);
      events.push(...sub, ...v);
    }
    const again = fold([created1, ...events], initialState());
    expect(movesOf(again)).toEqual(moves);
    expect(again.sfen).toBe(s.sfen);
    expect(again.seq).toBe(s.seq);
    // an older state is not disturbed by later folding (its line is its own)
    const old = fold([created1, ...events.slice(0, 4)], initialState());
    expect(movesOf(old)).toEqual(moves.slice(0, 2));
    const replayed = decide({ type: 'ValidatePending', seq: old.seq, now: T0 }, old);
    expect(replayed).toEqual({ ok: true, events: [] });
    expect(START_SFEN).not.toBe(again.sfen);
  });
  it('a verdict discarded after a conflict does not leak into the next decision', () => {
    let s = created();
    s = fold(mustAccept(decide({ type: 'SubmitMove', playerId: SENTE.id, usi: '7g7f', ply: 0, now: T0 }, s)), s);
    // decide plays tentatively; suppose the append lost the race and the winner resigned instead
    mustAccept(decide({ type: 'ValidatePending', seq: s.seq, now: T0 }, s));
    const other = fold(mustAccept(decide({ type: 'Resign', playerId: SENTE.id, now: T0 }, s)), s);
    expect(movesOf(other)).toEqual([]);
    // and a state that accepts a different move branches correctly
    const alt = fold(
      [
        { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'stale_ply' } },
        moveSubmitted('2g2f', 0),
      ],
      s,
    );
    const v = mustAccept(decide({ type: 'ValidatePending', seq: alt.seq, now: T0 }, alt));
    expect(fold(v, alt).sfen).toBe('lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2');
  });
});
