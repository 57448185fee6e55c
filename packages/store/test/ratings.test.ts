/**
 * The pure rating update of the ratings projection: which finished games are rated, and the
 * fold of games in log order (each game its own Glicko-2 rating period for both players,
 * the deviations first grown by the idle time since each player's previous game).
 */
import { isProvisional, NEW_PLAYER, type Rating, ratingAt } from '@shogi/ratings';
import { START_SFEN } from '@shogi/rules';
import { describe, expect, it } from 'vitest';
import {
  diffBucket,
  expectation,
  gameBand,
  type PlayerRating,
  type RatableGame,
  type RatingChange,
  ratableGame,
  rateGames,
  ratingKey,
  withRatings,
} from '../src/ratings/update.js';
import type { FinishedRow } from '../src/stats/rows.js';

const row = (over: Partial<FinishedRow> = {}): FinishedRow => ({
  game_id: 'g1',
  sente_id: 'a',
  sente_name: 'A',
  gote_id: 'b',
  gote_name: 'B',
  ruleset: 'default',
  handicap: null,
  initial_sfen: START_SFEN,
  rated: true,
  time_category: 'blitz',
  sente_rating_before: null,
  sente_rating_after: null,
  gote_rating_before: null,
  gote_rating_after: null,
  result: 'sente',
  end_reason: 'resignation',
  plies: 80,
  opening: [],
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: '2026-01-01T00:20:00.000Z',
  imported: false,
  global_position: 10,
  ...over,
});

const game = (i: number, result: RatableGame['result'], sente = 'a', gote = 'b'): RatableGame => ({
  gameId: `g${i}`,
  globalPosition: i,
  category: 'blitz',
  sente: { id: sente, name: sente.toUpperCase() },
  gote: { id: gote, name: gote.toUpperCase() },
  result,
  at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
});

/**
 * Glickman's steps 3, 4, 6, 7 for two new players (μ = μj = 0, φ = φj = 350 / 173.7178),
 * with the volatility left at 0.06 (step 5 moves it by < 1e-5 here): the first game's
 * result as the paper's formulas give it, apart from @shogi/ratings' code.
 */
function firstGame(score: number): { rating: number; deviation: number } {
  const phi = 350 / 173.7178;
  const g = 1 / Math.sqrt(1 + (3 * phi * phi) / Math.PI ** 2);
  const e = 0.5;
  const v = 1 / (g * g * e * (1 - e));
  const phiStar = Math.sqrt(phi * phi + 0.06 * 0.06);
  const phiPrime = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  return { rating: 1500 + 173.7178 * phiPrime * phiPrime * g * (score - e), deviation: 173.7178 * phiPrime };
}

describe('ratableGame', () => {
  it.each([
    ['rated blitz, decided', {}, true],
    ['a draw', { result: 'draw' as const, end_reason: 'sennichite' }, true],
    ['a timeout', { end_reason: 'timeout' }, true],
    ['unrated', { rated: false }, false],
    ['unlimited (no category)', { time_category: null }, false],
    ['aborted', { result: 'none' as const, end_reason: 'abort' }, false],
    ['interrupted (no result)', { result: 'none' as const, end_reason: 'interrupted' }, false],
  ])('%s', (_name, over, rated) => {
    expect(ratableGame(row(over)) !== null).toBe(rated);
  });
});

describe('rateGames', () => {
  it('a first game between new players: the winner gains what the loser loses, both RDs fall', () => {
    const { ratings, changes } = rateGames([game(1, 'sente')], new Map());
    const a = ratings.get(ratingKey('a', 'blitz')) as PlayerRating;
    const b = ratings.get(ratingKey('b', 'blitz')) as PlayerRating;
    const win = firstGame(1);
    expect(a.rating).toBeCloseTo(win.rating, 2); // 1662.31
    expect(b.rating).toBeCloseTo(3000 - win.rating, 2); // 1337.69
    expect(a.deviation).toBeCloseTo(win.deviation, 2); // 290.32
    expect(b.deviation).toBeCloseTo(win.deviation, 2);
    expect(a).toMatchObject({ games: 1, wins: 1, losses: 0, draws: 0, name: 'A', updatedAt: game(1, 'sente').at });
    expect(b).toMatchObject({ games: 1, wins: 0, losses: 1, draws: 0 });
    // each side rated against the other's PRE-game rating
    expect(changes.map((c) => [c.playerId, c.opponentId, c.before.rating])).toEqual([
      ['a', 'b', 1500],
      ['b', 'a', 1500],
    ]);
  });

  it('a draw between equals moves no rating, only the RDs', () => {
    const { ratings } = rateGames([game(1, 'draw')], new Map());
    for (const p of ['a', 'b']) {
      const r = ratings.get(ratingKey(p, 'blitz')) as PlayerRating;
      expect(r.rating).toBeCloseTo(1500, 9);
      expect(r.deviation).toBeCloseTo(firstGame(0.5).deviation, 2);
      expect(r.draws).toBe(1);
    }
  });

  it('games fold in order: the second game starts from the first one’s ratings, and order matters', () => {
    const one = rateGames([game(1, 'sente')], new Map());
    const two = rateGames([game(2, 'sente', 'b', 'a')], one.ratings);
    const both = rateGames([game(1, 'sente'), game(2, 'sente', 'b', 'a')], new Map());
    expect(both.ratings).toEqual(two.ratings);
    // b's second game starts where its first ended, its RD grown by the minute between the games
    const bAfterOne = one.changes[1]?.after as Rating;
    expect(both.changes[2]?.before).toEqual(ratingAt(bAfterOne, game(1, 'sente').at, game(2, 'sente').at));
    expect(both.changes[2]?.before.rating).toBe(bAfterOne.rating);
    expect(both.changes[2]?.before.deviation).toBeGreaterThan(bAfterOne.deviation);
    const swapped = rateGames([game(2, 'sente', 'b', 'a'), game(1, 'sente')], new Map());
    expect(swapped.ratings.get(ratingKey('a', 'blitz'))?.rating).not.toBe(
      both.ratings.get(ratingKey('a', 'blitz'))?.rating,
    );
    expect(both.ratings.get(ratingKey('a', 'blitz'))).toMatchObject({ games: 2, wins: 1, losses: 1 });
  });

  it('categories are apart: a blitz game leaves the bullet rating alone', () => {
    const bullet = { ...game(1, 'sente'), category: 'bullet' as const };
    const { ratings } = rateGames([bullet, game(2, 'sente')], new Map());
    expect(ratings.get(ratingKey('a', 'bullet'))?.games).toBe(1);
    expect(ratings.get(ratingKey('a', 'blitz'))?.games).toBe(1);
    expect(ratings.get(ratingKey('a', 'blitz'))?.rating).toBeCloseTo(firstGame(1).rating, 2);
  });

  it('a new player is provisional (RD > 110) until enough games bring the RD down', () => {
    const established: PlayerRating = {
      ...NEW_PLAYER,
      deviation: 60,
      playerId: 'b',
      category: 'blitz',
      name: 'B',
      games: 500,
      wins: 250,
      losses: 250,
      draws: 0,
      updatedAt: '2025-01-01T00:00:00.000Z',
    };
    let current = new Map([[ratingKey('b', 'blitz'), established]]);
    const rds: number[] = [];
    for (let i = 1; i <= 20; i++) {
      current = new Map([...current, ...rateGames([game(i, i % 2 ? 'sente' : 'gote')], current).ratings]);
      rds.push((current.get(ratingKey('a', 'blitz')) as PlayerRating).deviation);
    }
    expect(isProvisional({ ...NEW_PLAYER, deviation: rds[0] as number })).toBe(true);
    expect(isProvisional({ ...NEW_PLAYER, deviation: rds[19] as number })).toBe(false);
    for (let i = 1; i < rds.length; i++) expect(rds[i]).toBeLessThan(rds[i - 1] as number);
  });
});

describe('idle time between games', () => {
  const DAY = 86_400_000;
  const T0 = Date.UTC(2026, 0, 1);
  const iso = (days: number): string => new Date(T0 + days * DAY).toISOString();
  const established = (playerId: string, lastPlayedDay: number, over: Partial<PlayerRating> = {}): PlayerRating => ({
    rating: 1700,
    deviation: 60,
    volatility: 0.06,
    playerId,
    category: 'blitz',
    name: playerId.toUpperCase(),
    games: 200,
    wins: 100,
    losses: 100,
    draws: 0,
    updatedAt: iso(lastPlayedDay),
    ...over,
  });
  const at = (g: RatableGame, day: number): RatableGame => ({ ...g, at: iso(day) });
  const current = (...rs: PlayerRating[]) => new Map(rs.map((r) => [ratingKey(r.playerId, r.category), r]));

  it('a player back after a year gains more from a win than one who played yesterday', () => {
    const ratings = current(established('active', 364), established('back', 0), established('x', 364));
    const active = rateGames([at(game(1, 'sente', 'active', 'x'), 365)], ratings).changes;
    const back = rateGames([at(game(2, 'sente', 'back', 'x'), 365)], ratings).changes;
    // the pre-game RD: 173.7178 · √((60/173.7178)² + t · 0.06²), t = days · 0.21436
    // 1 day: 60.1938; 365 days: 110.0008 (lila: "RD goes from 60 -> 110 in 1 year")
    expect(active[0]?.before.deviation).toBeCloseTo(60.1938, 3);
    expect(back[0]?.before.deviation).toBeCloseTo(110.0008, 3);
    const gainActive = (active[0]?.after.rating as number) - 1700;
    const gainBack = (back[0]?.after.rating as number) - 1700;
    expect(gainActive).toBeGreaterThan(0);
    expect(gainBack).toBeGreaterThan(2 * gainActive);
    // the returning player's RD after the game is still above the active one's
    expect(back[0]?.after.deviation).toBeGreaterThan(active[0]?.after.deviation as number);
  });

  it('folds a comeback: the same games, with a long break before the last, move the last one further', () => {
    const opponents = (day: number) => established(`o${day}`, day);
    const run = (lastDay: number) => {
      const games = Array.from({ length: 20 }, (_, i) => at(game(i, i % 2 ? 'sente' : 'gote', 'p', `o${i}`), i));
      games.push(at(game(99, 'sente', 'p', 'o99'), lastDay));
      const start = current(...Array.from({ length: 20 }, (_, i) => opponents(i)), established('o99', lastDay));
      return rateGames(games, start).changes.filter((c) => c.playerId === 'p');
    };
    const continuous = run(20).at(-1) as RatingChange;
    const comeback = run(20 + 400).at(-1) as RatingChange;
    expect(comeback.before.rating).toBe(continuous.before.rating);
    expect(comeback.before.deviation).toBeGreaterThan(continuous.before.deviation);
    expect(comeback.after.rating - comeback.before.rating).toBeGreaterThan(
      continuous.after.rating - continuous.before.rating,
    );
  });

  it('rates against the opponent’s rating as of the game: their RD grown too', () => {
    const ratings = current(established('a', 364), established('idle', 0));
    const { changes } = rateGames([at(game(1, 'sente', 'a', 'idle'), 365)], ratings);
    expect(changes[1]?.before.deviation).toBeCloseTo(110.0008, 3);
    // a's update is the Glicko-2 game against the grown opponent, not the stored one
    const stale = rateGames(
      [at(game(1, 'sente', 'a', 'idle'), 365)],
      current(established('a', 364), established('idle', 365)),
    ).changes;
    expect(changes[0]?.after.rating).not.toBe(stale[0]?.after.rating);
    expect(changes[0]?.after.rating).toBeLessThan(stale[0]?.after.rating as number); // a win over a less-known player is worth less
  });

  it('never grows the RD to more than 350, and a new player’s first game adds nothing', () => {
    const ratings = current(established('gone', 0));
    const { changes } = rateGames([at(game(1, 'draw', 'gone', 'newcomer'), 365 * 20)], ratings);
    expect(changes[0]?.before.deviation).toBe(350);
    expect(changes[1]?.before).toEqual(NEW_PLAYER);
  });

  it('a game projected after a later one adds no idle time and leaves updatedAt at the later end', () => {
    const ratings = current(established('a', 10), established('b', 10));
    const { changes, ratings: after } = rateGames([at(game(1, 'sente'), 5)], ratings);
    expect(changes[0]?.before).toEqual({ rating: 1700, deviation: 60, volatility: 0.06 });
    expect(after.get(ratingKey('a', 'blitz'))?.updatedAt).toBe(iso(10));
  });
});

describe('rows and counters keys', () => {
  it('withRatings writes the rounded ratings before/after into the finished_games row', () => {
    const { changes } = rateGames([game(1, 'sente')], new Map());
    const r = withRatings(row(), changes[0] as never, changes[1] as never);
    expect(r).toMatchObject({
      sente_rating_before: 1500,
      sente_rating_after: 1662,
      gote_rating_before: 1500,
      gote_rating_after: 1338,
    });
  });

  it.each([
    [1500, 1500, 1500],
    [1450, 1549, 1400], // average 1499.5
    [1450, 1550, 1500],
    [80, 20, 0],
  ])('gameBand(%i, %i) = %i', (s, g, band) => expect(gameBand(s, g)).toBe(band));

  it.each([
    [0, 0],
    [49.9, 0],
    [-50, 50],
    [799, 750],
    [5000, 800],
  ])('diffBucket(%d) = %i', (d, b) => expect(diffBucket(d)).toBe(b));

  it('expectation: from the higher-rated side, with the lower side’s RD', () => {
    const e = expectation({ ...NEW_PLAYER, rating: 1400 }, { ...NEW_PLAYER, rating: 1800, deviation: 50 });
    expect(e.higher).toBe('gote');
    expect(e.bucket).toBe(400);
    // 1 / (1 + 10^(-400/400)) = 0.909 when g(φ) ≈ 1; RD 350 on the lower side pulls it toward 0.5
    expect(e.expected).toBeGreaterThan(0.5);
    expect(e.expected).toBeLessThan(1 / (1 + 10 ** -1));
    expect(expectation(NEW_PLAYER, NEW_PLAYER)).toEqual({ higher: 'sente', bucket: 0, expected: 0.5 });
  });
});
