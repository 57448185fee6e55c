import { describe, expect, it } from 'vitest';
import {
  decideTournament,
  foldTournament,
  standingsOf,
  type TournamentCommand,
  type TournamentRejectionCode,
  type TournamentState,
  type TournamentTerms,
} from '../src/index.js';
import { ARENA_TERMS, at, createdWith, entrant, mustAccept, run, startedWith, T0 } from './helpers.js';

const create = (terms: Partial<TournamentTerms>, now = new Date(T0.getTime() - 60_000)): TournamentCommand => ({
  type: 'CreateTournament',
  tournamentId: 't1',
  createdBy: { id: 'host', name: 'host' },
  terms: { ...ARENA_TERMS, ...terms },
  now,
});
const join = (
  id: string,
  extra: Partial<{ rating: number; bot: boolean; passwordHash: string | null; ratedGames: number; now: Date }> = {},
): TournamentCommand => ({
  type: 'JoinTournament',
  player: entrant(id, extra.rating ?? 1500, extra.bot ?? false),
  passwordHash: extra.passwordHash ?? null,
  ratedGames: extra.ratedGames ?? 50,
  now: extra.now ?? new Date(T0.getTime() - 10_000),
});

const rejected = (c: TournamentCommand, s: TournamentState): TournamentRejectionCode | null => {
  const d = decideTournament(c, s);
  return d.ok ? null : d.rejection.code;
};

describe('CreateTournament', () => {
  it('records the terms and its creator', () => {
    const { state, events } = run([create({})]);
    expect(events.map((e) => e.type)).toEqual(['TournamentCreated']);
    expect(state.status).toBe('created');
    expect(state.terms?.clock).toEqual(ARENA_TERMS.clock);
  });
  it.each<[string, Partial<TournamentTerms>, TournamentRejectionCode]>([
    ['an unlimited clock', { clock: { kind: 'unlimited' } as never }, 'invalid_clock'],
    ['a clock of nothing', { clock: { kind: 'fischer', mainSeconds: 0, incrementSeconds: 0 } }, 'invalid_clock'],
    [
      'a byoyomi of 0 s',
      { clock: { kind: 'byoyomi', mainSeconds: 60, byoyomiSeconds: 0, periods: 1 } },
      'invalid_clock',
    ],
    ['no minutes', { minutes: 0 }, 'invalid_duration'],
    ['more than 720 minutes', { minutes: 721 }, 'invalid_duration'],
    // lila sufficientDuration: 30 min + 60 s byoyomi is ~ 2 h a game, 60 minutes holds no three
    [
      'too short for three games',
      { clock: { kind: 'byoyomi', mainSeconds: 1800, byoyomiSeconds: 60, periods: 1 } },
      'invalid_duration',
    ],
    ['a start in the past', { startsAt: new Date(T0.getTime() - 3_600_000).toISOString() }, 'invalid_start'],
    ['a start two months ahead', { startsAt: new Date(T0.getTime() + 62 * 86_400_000).toISOString() }, 'invalid_start'],
    ['a one-letter name', { name: 'x' }, 'invalid_terms'],
    ['a rated custom position', { position: '4k4/9/9/9/9/9/9/9/4K4 b G 1' }, 'invalid_terms'],
    ['a robin of 100', { format: 'robin', maxPlayers: 100 }, 'invalid_terms'],
  ])('refuses %s', (_, terms, code) => {
    expect(rejected(create(terms), run([]).state)).toBe(code);
  });
  it('refuses a second creation of the same stream', () => {
    expect(rejected(create({}), createdWith())).toBe('tournament_exists');
  });
});

describe('JoinTournament', () => {
  it('joins, and refuses joining twice', () => {
    const { state } = run([join('a')], createdWith());
    expect([...state.players.keys()]).toEqual(['a']);
    expect(rejected(join('a'), state)).toBe('already_joined');
  });
  it('refuses an unknown, a finished and a full tournament', () => {
    expect(rejected(join('a'), run([]).state)).toBe('unknown_tournament');
    const full = run([join('a'), join('b')], createdWith({ maxPlayers: 2 })).state;
    expect(rejected(join('c'), full)).toBe('tournament_full');
    const over = run([{ type: 'FinishTournament', now: at(3600) }], startedWith(['a', 'b'])).state;
    expect(rejected(join('c', { now: at(3601) }), over)).toBe('tournament_finished');
  });
  it('checks the password, the conditions and bots', () => {
    const locked = createdWith({ passwordHash: 'h1' });
    expect(rejected(join('a', { passwordHash: 'h2' }), locked)).toBe('wrong_password');
    expect(rejected(join('a'), locked)).toBe('wrong_password');
    expect(rejected(join('a', { passwordHash: 'h1' }), locked)).toBeNull();
    const cond = createdWith({ conditions: { minRating: 1600, nbRatedGame: 20 } });
    expect(rejected(join('a', { rating: 1599 }), cond)).toBe('min_rating_not_met');
    expect(rejected(join('a', { rating: 1600, ratedGames: 19 }), cond)).toBe('nb_rated_games_not_met');
    expect(rejected(join('a', { rating: 1600, ratedGames: 20 }), cond)).toBeNull();
    expect(rejected(join('bot', { bot: true }), createdWith())).toBe('bots_not_allowed');
    expect(rejected(join('bot', { bot: true }), createdWith({ botsAllowed: true }))).toBeNull();
  });
  it('lets anyone join a running arena, no one a running robin', () => {
    expect(rejected(join('c', { now: at(60) }), startedWith(['a', 'b']))).toBeNull();
    expect(rejected(join('c', { now: at(60) }), startedWith(['a', 'b'], { format: 'robin', maxPlayers: 8 }))).toBe(
      'already_started',
    );
  });
});

describe('WithdrawFromTournament', () => {
  it('before the start: out of it', () => {
    const { state } = run([join('a'), { type: 'WithdrawFromTournament', playerId: 'a', now: T0 }], createdWith());
    expect(state.players.size).toBe(0);
  });
  it('refuses one who is not in', () => {
    expect(rejected({ type: 'WithdrawFromTournament', playerId: 'z', now: T0 }, createdWith())).toBe('not_joined');
  });
  it('in a running arena: paused, kept in the standings, rejoins after the delay (lishogi Pause)', () => {
    const s0 = startedWith(['a', 'b', 'c']);
    const { state, events } = run([{ type: 'WithdrawFromTournament', playerId: 'a', now: at(30) }], s0);
    expect(events).toEqual([
      { type: 'PlayerPaused', data: { playerId: 'a', at: at(30).toISOString(), reason: 'withdrew', delayed: true } },
    ]);
    expect(state.players.get('a')?.paused).toBe(true);
    // the first pause waits 10 s
    expect(rejected(join('a', { now: at(35) }), state)).toBe('paused');
    expect(rejected(join('a', { now: at(40) }), state)).toBeNull();
    // withdrawing again while paused changes nothing
    expect(mustAccept(decideTournament({ type: 'WithdrawFromTournament', playerId: 'a', now: at(31) }, state))).toEqual(
      [],
    );
  });
  it('the second pause within 20 minutes waits pauses × clock / 15', () => {
    let s = startedWith(['a', 'b', 'c']);
    s = run([{ type: 'WithdrawFromTournament', playerId: 'a', now: at(30) }, join('a', { now: at(41) })], s).state;
    s = run([{ type: 'WithdrawFromTournament', playerId: 'a', now: at(60) }], s).state;
    // 3+2: 180 + 40 × 2 = 260 s estimated; 260 / 15 = 17 s × (2 - 1)
    expect(rejected(join('a', { now: at(60 + 15) }), s)).toBe('paused');
    expect(rejected(join('a', { now: at(60 + 17) }), s)).toBeNull();
  });
});

describe('PairPlayers, ScoreGame', () => {
  const s0 = startedWith(['a', 'b', 'c', 'd']);
  const paired = run(
    [{ type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'a', gote: 'b' }], now: at(1) }],
    s0,
  ).state;
  it('marks the paired players as playing, and refuses pairing them again', () => {
    expect(paired.playing.get('a')).toBe('g1');
    expect(
      rejected({ type: 'PairPlayers', pairings: [{ gameId: 'g2', sente: 'a', gote: 'c' }], now: at(2) }, paired),
    ).toBe('invalid_pairing');
    expect(
      rejected({ type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'c', gote: 'd' }], now: at(2) }, paired),
    ).toBe('invalid_pairing');
    expect(
      rejected({ type: 'PairPlayers', pairings: [{ gameId: 'g2', sente: 'c', gote: 'zed' }], now: at(2) }, paired),
    ).toBe('invalid_pairing');
    expect(
      rejected(
        {
          type: 'PairPlayers',
          pairings: [
            { gameId: 'g2', sente: 'c', gote: 'd' },
            { gameId: 'g3', sente: 'd', gote: 'c' },
          ],
          now: at(2),
        },
        paired,
      ),
    ).toBe('invalid_pairing');
  });
  it('refuses pairing in the last seconds (lila pairingsClosed: max(30, min(main / 2, 120)))', () => {
    // 3 minutes main time: 90 s before the end
    const late = (s: number): TournamentCommand => ({
      type: 'PairPlayers',
      pairings: [{ gameId: 'g9', sente: 'c', gote: 'd' }],
      now: at(s),
    });
    expect(rejected(late(3600 - 91), paired)).toBeNull();
    expect(rejected(late(3600 - 89), paired)).toBe('pairings_closed');
  });
  it('scores a game once, frees its players and remembers their last opponent', () => {
    const score: TournamentCommand = { type: 'ScoreGame', gameId: 'g1', winner: 'sente', plies: 50, now: at(100) };
    const { state } = run([score], paired);
    expect(state.playing.size).toBe(0);
    expect(state.lastOpponent.get('a')).toBe('b');
    expect(state.players.get('b')?.waitingSince).toBe(at(100).toISOString());
    expect(rejected(score, state)).toBe('game_already_scored');
    expect(rejected({ ...score, gameId: 'nope' } as TournamentCommand, state)).toBe('unknown_game');
  });
  it('pauses the player who never moved (lishogi withdrawNonMover)', () => {
    const { events } = run(
      [{ type: 'ScoreGame', gameId: 'g1', winner: 'gote', plies: 0, noStartBy: 'sente', now: at(30) }],
      paired,
    );
    expect(events[1]).toEqual({
      type: 'PlayerPaused',
      data: { playerId: 'a', at: at(30).toISOString(), reason: 'no_start', delayed: false },
    });
  });
  it('does not count a game that ends after the tournament (lila finishGame on started tournaments only)', () => {
    const over = run([{ type: 'FinishTournament', now: at(3600) }], paired).state;
    expect(rejected({ type: 'ScoreGame', gameId: 'g1', winner: 'sente', plies: 50, now: at(3610) }, over)).toBe(
      'tournament_finished',
    );
  });
});

describe('Berserk', () => {
  const paired = run(
    [{ type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'a', gote: 'b' }], now: at(1) }],
    startedWith(['a', 'b']),
  ).state;
  it('records it once per player and game', () => {
    const { state, events } = run([{ type: 'Berserk', gameId: 'g1', playerId: 'b', now: at(2) }], paired);
    expect(events).toEqual([
      { type: 'PlayerBerserked', data: { gameId: 'g1', color: 'gote', at: at(2).toISOString() } },
    ]);
    expect(state.pairings.get('g1')?.berserk).toEqual({ sente: false, gote: true });
    expect(mustAccept(decideTournament({ type: 'Berserk', gameId: 'g1', playerId: 'b', now: at(3) }, state))).toEqual(
      [],
    );
  });
  it('refuses it where the event has none, and to one not in the game', () => {
    const off = run(
      [{ type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'a', gote: 'b' }], now: at(1) }],
      startedWith(['a', 'b'], { berserkable: false }),
    ).state;
    expect(rejected({ type: 'Berserk', gameId: 'g1', playerId: 'a', now: at(2) }, off)).toBe('not_berserkable');
    expect(rejected({ type: 'Berserk', gameId: 'g1', playerId: 'zed', now: at(2) }, paired)).toBe('not_joined');
  });
});

describe('Start, Finish, Terminate', () => {
  it('starts at its time, not before', () => {
    const s = createdWith();
    expect(rejected({ type: 'StartTournament', now: at(-1) }, s)).toBe('not_started');
    expect(rejected({ type: 'StartTournament', now: T0 }, s)).toBeNull();
  });
  it('finishes at its end, not before', () => {
    const s = startedWith(['a', 'b']);
    expect(rejected({ type: 'FinishTournament', now: at(3599) }, s)).toBe('not_started');
    expect(foldTournament(mustAccept(decideTournament({ type: 'FinishTournament', now: at(3600) }, s)), s).status).toBe(
      'finished',
    );
  });
  it('is terminated by its creator only', () => {
    const s = startedWith(['a', 'b']);
    expect(rejected({ type: 'TerminateTournament', by: 'a', now: at(5) }, s)).toBe('not_creator');
    const { state } = run([{ type: 'TerminateTournament', by: 'host', now: at(5) }], s);
    expect(state.terminated).toBe(true);
    expect(rejected({ type: 'TerminateTournament', by: 'host', now: at(6) }, state)).toBe('tournament_finished');
  });
});

describe('ScoreGame with the berserks the game recorded', () => {
  const paired = run(
    [{ type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'a', gote: 'b' }], now: at(1) }],
    startedWith(['a', 'b']),
  ).state;
  it('records a berserk the tournament had not heard of, then the result: a berserk win of 14 plies scores 3', () => {
    const { state, events } = run(
      [
        {
          type: 'ScoreGame',
          gameId: 'g1',
          winner: 'sente',
          plies: 14,
          berserk: { sente: true, gote: false },
          now: at(60),
        },
      ],
      paired,
    );
    expect(events.map((e) => e.type)).toEqual(['PlayerBerserked', 'GameScored']);
    expect(standingsOf(state)[0]).toMatchObject({ player: { id: 'a' }, score: 3 });
  });
  it('ignores berserks where the event has none', () => {
    const off = run(
      [{ type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'a', gote: 'b' }], now: at(1) }],
      startedWith(['a', 'b'], { berserkable: false }),
    ).state;
    const { events } = run(
      [
        {
          type: 'ScoreGame',
          gameId: 'g1',
          winner: 'sente',
          plies: 40,
          berserk: { sente: true, gote: true },
          now: at(60),
        },
      ],
      off,
    );
    expect(events.map((e) => e.type)).toEqual(['GameScored']);
  });
});
