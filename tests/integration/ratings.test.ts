/**
 * The ratings projection on the real PostgreSQL: finished games appended through the event
 * store are rated by the statistics projector in log order, each exactly once, even with
 * two projectors racing; aborted, unrated and unlimited games change nothing; a rebuild
 * equals the live tables (RD grown by the idle time between a player's games included);
 * and the profile, history, leaderboard and rating statistics routes answer from them
 * (app.inject), the profile's RD grown to the time of the request and the leaderboard
 * leaving out players inactive for 30 days.
 */
import type { GameEvent } from '@shogi/game';
import { gameCreated } from '@shogi/game/testing';
import { isOnLeaderboard, isProvisional, ratingAt, type TimeControlShape } from '@shogi/ratings';
import {
  catchUp,
  createPgEventStore,
  DERIVED_RATING_TABLES,
  leaderboard,
  type PlayerRating,
  type RatableGame,
  type RatingChange,
  ratableGame,
  rateGames,
  ratingKey,
  readCheckpoint,
  rebuildStats,
  startProjector,
} from '@shogi/store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, type Stack, startStack } from './harness.js';

const BLITZ: TimeControlShape = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 }; // 700 s: blitz
const BULLET: TimeControlShape = { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 10, periods: 1 }; // 400 s: bullet
const quiet = { info: () => undefined, error: (o: object) => console.error(o) };

let stack: Stack;
const players: { id: string; name: string }[] = [];
/** What each game is, so the test knows which should be rated. */
const games: { id: string; kind: 'rated' | 'abort' | 'unrated' | 'unlimited' }[] = [];

beforeAll(async () => {
  stack = await startStack({ worker: false });
  // two players through the API (their names come from the players table), four only in the log
  for (const name of ['alice', 'bob']) players.push((await call(stack.app, 'POST', '/api/players', { name })).body);
  for (const id of ['p3', 'p4', 'p5', 'p6']) players.push({ id, name: id.toUpperCase() });
});
afterAll(async () => stack?.close());

const at = (i: number) => new Date(Date.UTC(2026, 2, 1 + (i % 9), 10, i)).toISOString();
const DAY = 86_400_000;
/** `minutes` after the time `daysAgo` days before now (the leaderboard counts from the wall clock). */
const ago = (daysAgo: number, minutes = 0) => new Date(Date.now() - daysAgo * DAY + minutes * 60_000).toISOString();

/**
 * `n` rated blitz games of `player` (sente) against three sparring partners in turn, ending
 * at `when(i)`: two wins, then a draw. Results against the same few opponents settle the RD
 * (wins against ever new 1500/350 players never bring it under 110: they say little).
 */
async function play(prefix: string, player: { id: string; name: string }, n: number, when: (i: number) => string) {
  const store = createPgEventStore(stack.db);
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    const gote = { id: `${prefix}-sparring${i % 3}`, name: `S${i % 3}` };
    const end =
      i % 3 === 2
        ? { winner: null, reason: 'sennichite' as const }
        : { winner: 'sente' as const, reason: 'checkmate' as const };
    await store.append(id, 0, [
      gameCreated(id, { sente: player, gote, timeControl: BLITZ as never, rated: true, createdAt: when(i) }),
      { type: 'GameEnded', data: { ...end, at: when(i) } },
    ]);
  }
  await catchUp(stack.db);
}

/** The stored rating of a player in a category. */
async function stored(playerId: string, category: string) {
  const r = await sql<{ rating: number; rd: number; volatility: number; updated_at: Date }>`
    select rating, rd, volatility, updated_at from ratings where player_id = ${playerId} and category = ${category}`.execute(
    stack.db,
  );
  const row = r.rows[0];
  if (row === undefined) throw new Error(`no ${category} rating for ${playerId}`);
  return { rating: { rating: row.rating, deviation: row.rd, volatility: row.volatility }, updatedAt: row.updated_at };
}

/** The events of game i: created, a few moves for some, then its end. */
function eventsOf(i: number): { id: string; kind: (typeof games)[number]['kind']; events: GameEvent[] } {
  const id = `r${i}`;
  const kind = i % 11 === 3 ? 'abort' : i % 11 === 7 ? 'unrated' : i % 11 === 9 ? 'unlimited' : 'rated';
  const sente = players[i % players.length] as { id: string; name: string };
  const gote = players[(i * 5 + 1) % players.length] as { id: string; name: string };
  const timeControl = kind === 'unlimited' ? { kind: 'unlimited' as const } : i % 4 === 0 ? BULLET : BLITZ;
  const events: GameEvent[] = [
    gameCreated(id, {
      sente,
      gote: gote.id === sente.id ? (players[(i + 1) % players.length] as typeof gote) : gote,
      timeControl: timeControl as never,
      rated: kind !== 'unrated',
      createdAt: at(i),
    }),
  ];
  if (i % 3 === 0)
    events.push(
      { type: 'MoveSubmitted', data: { playerId: sente.id, color: 'sente', usi: '7g7f', ply: 0, receivedAt: at(i) } },
      { type: 'MoveAccepted', data: { submittedSeq: 2, ply: 1, usi: '7g7f', sfen: 'x', check: false } },
    );
  const end =
    kind === 'abort'
      ? { winner: null, reason: 'abort' as const }
      : i % 5 === 0
        ? { winner: null, reason: 'sennichite' as const }
        : i % 5 === 1
          ? { winner: 'gote' as const, reason: 'timeout' as const }
          : { winner: i % 3 ? ('sente' as const) : ('gote' as const), reason: 'resignation' as const };
  events.push({ type: 'GameEnded', data: { ...end, at: at(i) } });
  return { id, kind, events };
}

async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of [...DERIVED_RATING_TABLES, 'finished_games']) {
    const r = await sql.raw(`select * from ${table}`).execute(stack.db);
    out[table] = r.rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** The ratings a pure fold over the log's finished games gives, in global order. */
async function expectedRatings(): Promise<Map<string, PlayerRating>> {
  const ended = await sql<{ game_id: string; global_position: string; payload: { reason: string; at: string } }>`
    select game_id, global_position, payload from game_events where type = 'GameEnded' order by global_position`.execute(
    stack.db,
  );
  const rated = ended.rows.flatMap((e) => {
    const ev = eventsOf(Number(e.game_id.slice(1)));
    const c = (ev.events[0] as { data: ReturnType<typeof gameCreated>['data'] }).data;
    const end = (ev.events.at(-1) as { data: { winner: 'sente' | 'gote' | null; reason: string; at: string } }).data;
    const g = ratableGame({
      game_id: e.game_id,
      sente_id: c.sente.id,
      sente_name: c.sente.name,
      gote_id: c.gote.id,
      gote_name: c.gote.name,
      ruleset: 'default',
      handicap: null,
      initial_sfen: '',
      rated: c.rated,
      time_category:
        c.timeControl.kind === 'unlimited'
          ? null
          : 'mainSeconds' in c.timeControl && c.timeControl.mainSeconds === 0
            ? 'bullet'
            : 'blitz',
      sente_rating_before: null,
      sente_rating_after: null,
      gote_rating_before: null,
      gote_rating_after: null,
      result: end.winner ?? (end.reason === 'abort' ? 'none' : 'draw'),
      end_reason: end.reason,
      plies: 0,
      opening: [],
      started_at: end.at,
      ended_at: end.at,
      imported: false,
      global_position: e.global_position,
    });
    return g === null ? [] : [g];
  });
  return rateGames(rated, new Map()).ratings;
}

describe('the ratings projection', () => {
  test('two projectors racing rate each game once, in log order; other games change nothing', async () => {
    // 1. two projectors with small, different batches while 44 games are appended concurrently
    const store = createPgEventStore(stack.db);
    const a = startProjector({ db: stack.db, logger: quiet, intervalMs: 5, span: 7 });
    const b = startProjector({ db: stack.db, logger: quiet, intervalMs: 5, span: 11 });
    await Promise.all(
      Array.from({ length: 44 }, async (_, i) => {
        const g = eventsOf(i);
        games.push({ id: g.id, kind: g.kind });
        await store.append(g.id, 0, g.events);
      }),
    );
    const { max } = await stack.db
      .selectFrom('game_events')
      .select((eb) => eb.fn.max('global_position').as('max'))
      .executeTakeFirstOrThrow();
    while ((await readCheckpoint(stack.db)) < Number(max)) await new Promise((r) => setTimeout(r, 10));
    await Promise.all([a.stop(), b.stop()]);

    // 2. exactly two history rows per rated game, none for the others
    const history = await sql<{ game_id: string; n: string }>`
      select game_id, count(*) as n from rating_history group by game_id`.execute(stack.db);
    const rated = games.filter((g) => g.kind === 'rated').map((g) => g.id);
    expect(history.rows.map((r) => r.game_id).sort()).toEqual([...rated].sort());
    expect(history.rows.every((r) => r.n === '2')).toBe(true);
    expect(rated.length).toBe(32);

    // 3. the ratings are the pure fold of the rated games in global order
    const expected = await expectedRatings();
    const live = await sql<{ player_id: string; category: string; rating: number; rd: number; games: number }>`
      select * from ratings`.execute(stack.db);
    expect(live.rows).toHaveLength(expected.size);
    for (const r of live.rows) {
      const e = expected.get(ratingKey(r.player_id, r.category)) as PlayerRating;
      expect(r.rating).toBe(e.rating);
      expect(r.rd).toBe(e.deviation);
      expect(r.games).toBe(e.games);
    }

    // 4. finished_games: ratings before/after on rated games only
    const rows = await sql<{ game_id: string; sente_rating_before: number | null; gote_rating_after: number | null }>`
      select game_id, sente_rating_before, gote_rating_after from finished_games`.execute(stack.db);
    expect(rows.rows).toHaveLength(games.length);
    for (const r of rows.rows) {
      const isRated = rated.includes(r.game_id);
      expect(r.sente_rating_before !== null, r.game_id).toBe(isRated);
      expect(r.gote_rating_after !== null, r.game_id).toBe(isRated);
    }
  });

  test('running the projector again changes nothing; a rebuild equals the live tables', async () => {
    const live = await snapshot();
    expect(await catchUp(stack.db)).toBe(0);
    expect(await snapshot()).toEqual(live);
    expect(await rebuildStats(stack.db, 5)).toBe(games.length);
    expect(await snapshot()).toEqual(live);
  });
});

describe('routes', () => {
  test('GET /api/players/:id: name, ratings per category, results by colour, recent games', async () => {
    const alice = players[0] as { id: string };
    const t0 = new Date();
    const r = await call(stack.app, 'GET', `/api/players/${alice.id}`);
    const t1 = new Date();
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('alice');
    const expected = await expectedRatings();
    for (const c of r.body.ratings) {
      const e = expected.get(ratingKey(alice.id, c.category)) as PlayerRating;
      expect(c).toMatchObject({ rating: Math.round(e.rating), games: e.games, updatedAt: e.updatedAt });
      // the RD shown is the stored one grown by the idle time since the last game (March) to the request
      const [low, high] = [ratingAt(e, e.updatedAt, t0), ratingAt(e, e.updatedAt, t1)];
      expect(c.rd).toBeGreaterThanOrEqual(Math.round(low.deviation));
      expect(c.rd).toBeLessThanOrEqual(Math.round(high.deviation));
      expect(c.rd).toBeGreaterThanOrEqual(Math.round(e.deviation));
      expect(c.provisional).toBe(isProvisional(low));
    }
    const { sente, gote } = r.body.results;
    const total = (x: { wins: number; losses: number; draws: number; noResult: number }) =>
      x.wins + x.losses + x.draws + x.noResult;
    const played = await sql<{ n: string }>`
      select count(*) as n from finished_games where sente_id = ${alice.id} or gote_id = ${alice.id}`.execute(stack.db);
    expect(total(sente) + total(gote)).toBe(Number(played.rows[0]?.n));
    expect(r.body.recentGames).toHaveLength(10);
    const ended = r.body.recentGames.map((g: { endedAt: string }) => g.endedAt);
    expect([...ended].sort().reverse()).toEqual(ended);
    const ratedGame = r.body.recentGames.find(
      (g: { rated: boolean; outcome: string }) => g.rated && g.outcome !== 'none',
    );
    if (ratedGame?.timeCategory) expect(ratedGame.ratingBefore).not.toBeNull();

    // a player known only from the log: the name in their games
    expect((await call(stack.app, 'GET', '/api/players/p3')).body.name).toBe('P3');
    const missing = await call(stack.app, 'GET', '/api/players/nobody');
    expect(missing).toMatchObject({ status: 404, body: { code: 'PLAYER_NOT_FOUND' } });
  });

  test('GET /api/players/:id/ratings/:category/history: one point per rated game, chained', async () => {
    const r = await call(stack.app, 'GET', '/api/players/p3/ratings/blitz/history');
    expect(r.status).toBe(200);
    const points = r.body.points as { ratingBefore: number; rating: number; rdBefore: number; rd: number }[];
    const expected = (await expectedRatings()).get(ratingKey('p3', 'blitz')) as PlayerRating;
    expect(points).toHaveLength(expected.games);
    expect(points[0]).toMatchObject({ ratingBefore: 1500, rdBefore: 350 });
    for (let i = 1; i < points.length; i++) expect(points[i]?.ratingBefore).toBe(points[i - 1]?.rating);
    expect(points.at(-1)?.rating).toBe(Math.round(expected.rating));
    const last2 = await call(stack.app, 'GET', '/api/players/p3/ratings/blitz/history?limit=2');
    expect(last2.body.points).toEqual(points.slice(-2));
    expect((await call(stack.app, 'GET', '/api/players/p3/ratings/classical/history')).body.points).toEqual([]);
    expect((await call(stack.app, 'GET', '/api/players/nobody/ratings/blitz/history')).status).toBe(404);
    expect((await call(stack.app, 'GET', '/api/players/p3/ratings/hyperbullet/history')).body.code).toBe('BAD_REQUEST');
  });

  test('GET /api/leaderboards/:category: active, non-provisional players, best first', async () => {
    // make p5 established and active: 40 blitz games ending in the last hour (the first comes
    // back after months: p5's RD grew meanwhile)
    await play('lb', { id: 'p5', name: 'P5' }, 40, (i) => ago(0, i - 60));
    const r = await call(stack.app, 'GET', '/api/leaderboards/blitz?limit=5');
    expect(r.status).toBe(200);
    expect(r.body.players[0]).toMatchObject({ rank: 1, playerId: 'p5', name: 'P5' });
    for (const p of r.body.players) expect(p.rd).toBeLessThanOrEqual(110);
    const now = new Date();
    const rows = await sql<{ rating: number; rd: number; volatility: number; updated_at: Date }>`
      select * from ratings where category = 'blitz'`.execute(stack.db);
    const on = rows.rows.filter((x) =>
      isOnLeaderboard({ rating: x.rating, deviation: x.rd, volatility: x.volatility }, x.updated_at, now),
    );
    expect(on.length).toBeGreaterThan(0);
    expect(r.body.players).toHaveLength(Math.min(5, on.length));
    expect((await call(stack.app, 'GET', '/api/leaderboards/bullet')).body.players).toEqual([]); // all provisional
    expect((await call(stack.app, 'GET', '/api/leaderboards/blitz?limit=500')).status).toBe(400);
    expect((await call(stack.app, 'GET', '/api/leaderboards/speed')).status).toBe(400);
  });

  test('an inactive player leaves the leaderboard; the profile still shows them, with a larger RD', async () => {
    // an established player (RD ≤ 110) whose latest game ended 60 days ago
    const veteran = { id: 'veteran', name: 'Veteran' };
    await play('vet', veteran, 60, (i) => ago(60, i - 60));
    const { rating, updatedAt } = await stored('veteran', 'blitz');
    expect(rating.deviation).toBeLessThanOrEqual(110);
    expect(ratingAt(rating, updatedAt, new Date()).deviation).toBeLessThanOrEqual(110); // off for the 30 days alone

    // off the board now; on it as of ten days after the last game, as the query shows for any time
    const board = await call(stack.app, 'GET', '/api/leaderboards/blitz');
    expect(board.body.players.map((p: { playerId: string }) => p.playerId)).not.toContain('veteran');
    expect(board.body.players.map((p: { playerId: string }) => p.playerId)).toContain('p5');
    const then = new Date(updatedAt.getTime() + 10 * DAY);
    const past = await leaderboard(stack.db, 'blitz', 50, then);
    const vet = past.find((p) => p.playerId === 'veteran');
    expect(vet).toMatchObject({ name: 'Veteran', rating: Math.round(rating.rating), games: 60 });
    expect(vet?.rd).toBe(Math.round(ratingAt(rating, updatedAt, then).deviation));
    const lapsed = await leaderboard(stack.db, 'blitz', 50, new Date(updatedAt.getTime() + 30 * DAY + 1));
    expect(lapsed.map((p) => p.playerId)).not.toContain('veteran');

    // the profile: the rating as stored, the RD grown by the 60 days
    const t0 = new Date();
    const profile = await call(stack.app, 'GET', '/api/players/veteran');
    expect(profile.status).toBe(200);
    const blitz = profile.body.ratings.find((c: { category: string }) => c.category === 'blitz');
    const grown = ratingAt(rating, updatedAt, t0).deviation;
    expect(grown - rating.deviation).toBeGreaterThan(1); // 60 days: about 12.9 periods of σ²
    expect(blitz).toMatchObject({ rating: Math.round(rating.rating), games: 60, wins: 40, draws: 20 });
    expect(blitz.rd).toBeGreaterThan(Math.round(rating.deviation));
    expect(Math.abs(blitz.rd - grown)).toBeLessThanOrEqual(1);
    expect(blitz.provisional).toBe(grown > 110);
  });

  test('a comeback is rated from the grown RD; a rebuild still equals the live tables', async () => {
    // the veteran wins again today, 60 days after their last game: rated from the RD grown
    // over the 60 days, the win moves the rating more than it would have without the break
    const veteran = { id: 'veteran', name: 'Veteran' };
    const before = await stored('veteran', 'blitz');
    const when = ago(0);
    await play('vet-back', veteran, 1, () => when);
    const h = await sql<{ rating_before: number; rd_before: number; rating_after: number; rd_after: number }>`
      select * from rating_history where player_id = 'veteran' and game_id = 'vet-back0'`.execute(stack.db);
    const live = h.rows[0] as (typeof h.rows)[number];
    const game: RatableGame = {
      gameId: 'vet-back0',
      globalPosition: 0,
      category: 'blitz',
      sente: veteran,
      gote: { id: 'vet-back-sparring0', name: 'S0' },
      result: 'sente',
      at: when,
    };
    const from = (updatedAt: string) =>
      rateGames(
        [game],
        new Map([
          [
            ratingKey('veteran', 'blitz'),
            {
              ...before.rating,
              ...{ playerId: 'veteran', category: 'blitz', name: 'Veteran', games: 60, wins: 40, losses: 0, draws: 20 },
              updatedAt,
            } satisfies PlayerRating,
          ],
        ]),
      ).changes[0] as RatingChange;
    const afterBreak = from(before.updatedAt.toISOString());
    const continuous = from(when); // as if the previous game had just ended
    expect(live).toMatchObject({
      rating_before: before.rating.rating,
      rd_before: afterBreak.before.deviation,
      rating_after: afterBreak.after.rating,
      rd_after: afterBreak.after.deviation,
    });
    expect(live.rd_before).toBeGreaterThan(before.rating.deviation + 1);
    expect(continuous.before.deviation).toBe(before.rating.deviation);
    expect(live.rating_after - live.rating_before).toBeGreaterThan(continuous.after.rating - continuous.before.rating);
    const board = await call(stack.app, 'GET', '/api/leaderboards/blitz');
    expect(board.body.players.map((p: { playerId: string }) => p.playerId)).toContain('veteran'); // active again

    // the idle time comes from the games' end times in the log, so a rebuild gives the same numbers
    const tables = await snapshot();
    expect(await rebuildStats(stack.db, 7)).toBeGreaterThan(games.length);
    expect(await snapshot()).toEqual(tables);
  });

  test('rating statistics: results by rating band, by opponent band, score by rating difference', async () => {
    const all = await call(stack.app, 'GET', '/api/stats/results');
    const rated = await call(stack.app, 'GET', '/api/stats/results?ratingMin=0&ratingMax=9900');
    const ratedGames = await sql<{ n: string }>`
      select count(*) as n from finished_games where sente_rating_before is not null`.execute(stack.db);
    expect(rated.body.games).toBe(Number(ratedGames.rows[0]?.n));
    expect(rated.body.games).toBeLessThan(all.body.games);
    // bands partition the rated games
    const low = await call(stack.app, 'GET', '/api/stats/results?ratingMax=1500');
    const high = await call(stack.app, 'GET', '/api/stats/results?ratingMin=1500');
    expect(low.body.games + high.body.games).toBe(rated.body.games);
    const avg1500 = await sql<{ n: string }>`select count(*) as n from finished_games
      where sente_rating_before is not null and (sente_rating_before + gote_rating_before) / 2.0 >= 1500`.execute(
      stack.db,
    );
    expect(high.body.games).toBe(Number(avg1500.rows[0]?.n));
    for (const url of [
      '/api/stats/results?ratingMin=1550',
      '/api/stats/results?ratingMin=1600&ratingMax=1500',
      '/api/stats/results?ratingMin=-100',
    ])
      expect((await call(stack.app, 'GET', url)).body.code, url).toBe('BAD_REQUEST');

    const p5 = await call(stack.app, 'GET', '/api/stats/players/p5/opponents?category=blitz');
    expect(p5.status).toBe(200);
    const bands = p5.body.bands as { band: number; games: number; wins: number }[];
    const p5Rating = await p5Blitz();
    expect(bands.reduce((s, b) => s + b.games, 0)).toBe(p5Rating.games);
    expect(bands.reduce((s, b) => s + b.wins, 0)).toBe(p5Rating.wins);
    expect(bands.find((b) => b.band === 1500)?.games).toBeGreaterThanOrEqual(3); // the sparring partners' first games

    const diff = await call(stack.app, 'GET', '/api/stats/score-by-rating-difference');
    expect(diff.status).toBe(200);
    const buckets = diff.body.buckets as { from: number; games: number; score: number; expected: number }[];
    expect(buckets.reduce((s, b) => s + b.games, 0)).toBe(rated.body.games);
    expect(buckets[0]).toMatchObject({ from: 0 });
    for (const b of buckets) expect(b.expected).toBeGreaterThanOrEqual(0.5);
    const bySente = await call(stack.app, 'GET', '/api/stats/score-by-rating-difference?higherColor=sente');
    const byGote = await call(stack.app, 'GET', '/api/stats/score-by-rating-difference?higherColor=gote');
    const sum = (r: { body: { buckets: { games: number }[] } }) => r.body.buckets.reduce((s, b) => s + b.games, 0);
    expect(sum(bySente) + sum(byGote)).toBe(rated.body.games);
  });
});

describe('contracts', () => {
  test('the OpenAPI document lists the rating routes', async () => {
    const doc = await call(stack.app, 'GET', '/docs/json');
    for (const path of [
      '/api/players/{id}',
      '/api/players/{id}/ratings/{category}/history',
      '/api/leaderboards/{category}',
      '/api/stats/score-by-rating-difference',
      '/api/stats/players/{id}/opponents',
    ])
      expect(Object.keys(doc.body.paths), path).toContain(path);
    expect(JSON.stringify(doc.body.paths['/api/stats/results'])).toContain('ratingMin');
  });

  test.each([
    ['/api/players/a%00b'],
    ['/api/players/p3?x=1'],
    ['/api/players/p3/ratings/blitz/history?limit=0'],
    ['/api/players/p3/ratings/blitz/history?limit=abc'],
    ['/api/stats/score-by-rating-difference?higherColor=black'],
    ['/api/stats/players/p3/opponents?category=fast'],
    ['/api/leaderboards/blitz?limit=-1'],
  ])('%s is a 400 BAD_REQUEST', async (url) => {
    const r = await call(stack.app, 'GET', url);
    expect(r).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });
});

async function p5Blitz(): Promise<{ games: number; wins: number }> {
  const r = await sql<{
    games: number;
    wins: number;
  }>`select games, wins from ratings where player_id = 'p5' and category = 'blitz'`.execute(stack.db);
  return r.rows[0] ?? { games: 0, wins: 0 };
}
