/**
 * The ratings projection's I/O, run by the statistics projector inside its batch
 * transaction (the checkpoint row locked): the batch's finished games that are rated get
 * their ratings before/after, `ratings` and `rating_history` are written, and the rating
 * counters are added to. Batches are applied one at a time in log order, so games are
 * rated in the order of the global log.
 */
import type { Rating } from '@shogi/ratings';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { addCounts } from '../stats/counters.js';
import { dayOf, type FinishedRow, periodsOf, Tally } from '../stats/rows.js';
import type { StatsTables } from '../stats/schema.js';
import type { RatingTables } from './schema.js';
import {
  bandOf,
  expectation,
  gameBand,
  type PlayerRating,
  type RatingChange,
  ratableGame,
  rateGames,
  ratingKey,
  withRatings,
} from './update.js';

type Trx = Transaction<Database & StatsTables & RatingTables>;

const CHUNK = 1000;

/** A rated game as the counters need it: the row with its ratings, and both pre-game ratings. */
export interface RatedOutcome {
  readonly row: FinishedRow;
  readonly sente: Rating;
  readonly gote: Rating;
}

/**
 * Rates the rated games among `rows` (in order; games already projected are skipped, so a
 * game is rated once) and writes `ratings` and `rating_history`. Returns the rows with
 * their ratings filled, and the rated games for `writeRatingCounters`.
 */
export async function rateFinished(
  trx: Trx,
  rows: readonly FinishedRow[],
): Promise<{ rows: FinishedRow[]; rated: RatedOutcome[] }> {
  const seen = new Set<string>();
  const candidates = rows.flatMap((r) => {
    const g = ratableGame(r);
    if (g === null || seen.has(g.gameId)) return [];
    seen.add(g.gameId);
    return [g];
  });
  if (candidates.length === 0) return { rows: [...rows], rated: [] };
  const ids = candidates.map((g) => g.gameId);
  // a game already in finished_games or in the history was rated by an earlier batch
  const done = await sql<{ game_id: string }>`
    select game_id from finished_games where game_id = any(${ids}::text[])
    union select game_id from rating_history where game_id = any(${ids}::text[])`.execute(trx);
  const skip = new Set(done.rows.map((r) => r.game_id));
  const games = candidates.filter((g) => !skip.has(g.gameId));
  if (games.length === 0) return { rows: [...rows], rated: [] };

  const players = [...new Set(games.flatMap((g) => [g.sente.id, g.gote.id]))];
  const current = new Map<string, PlayerRating>();
  for (let i = 0; i < players.length; i += CHUNK) {
    const found = await trx
      .selectFrom('ratings')
      .selectAll()
      .where('player_id', '=', sql<string>`any(${players.slice(i, i + CHUNK)}::text[])`)
      .execute();
    for (const r of found)
      current.set(ratingKey(r.player_id, r.category), {
        playerId: r.player_id,
        category: r.category as PlayerRating['category'],
        name: r.name,
        rating: r.rating,
        deviation: r.rd,
        volatility: r.volatility,
        games: r.games,
        wins: r.wins,
        losses: r.losses,
        draws: r.draws,
        updatedAt: new Date(r.updated_at).toISOString(),
      });
  }
  const fold = rateGames(games, current);
  await writeRatings(trx, fold.ratings.values(), fold.changes);

  const byGame = new Map<string, RatingChange[]>();
  for (const c of fold.changes) byGame.set(c.gameId, [...(byGame.get(c.gameId) ?? []), c]);
  const rated: RatedOutcome[] = [];
  const out = rows.map((r) => {
    const c = byGame.get(r.game_id);
    if (c === undefined) return r;
    byGame.delete(r.game_id); // a duplicate row of the game stays unrated (and is not inserted)
    const [s, g] = c as [RatingChange, RatingChange];
    const row = withRatings(r, s, g);
    rated.push({ row, sente: s.before, gote: g.before });
    return row;
  });
  return { rows: out, rated };
}

async function writeRatings(
  trx: Trx,
  ratings: Iterable<PlayerRating>,
  changes: readonly RatingChange[],
): Promise<void> {
  const history = changes.map((c) => ({
    game_id: c.gameId,
    player_id: c.playerId,
    category: c.category,
    opponent_id: c.opponentId,
    rating_before: c.before.rating,
    rd_before: c.before.deviation,
    rating_after: c.after.rating,
    rd_after: c.after.deviation,
    volatility_after: c.after.volatility,
    at: c.at,
    global_position: c.globalPosition,
  }));
  // a plain insert: the (game_id, player_id) key refuses a second rating of a game outright
  for (let i = 0; i < history.length; i += CHUNK)
    await trx
      .insertInto('rating_history')
      .values(history.slice(i, i + CHUNK))
      .execute();
  const rows = [...ratings].map((r) => ({
    player_id: r.playerId,
    category: r.category,
    name: r.name,
    rating: r.rating,
    rd: r.deviation,
    volatility: r.volatility,
    games: r.games,
    wins: r.wins,
    losses: r.losses,
    draws: r.draws,
    updated_at: r.updatedAt,
  }));
  const cols = ['name', 'rating', 'rd', 'volatility', 'games', 'wins', 'losses', 'draws', 'updated_at'] as const;
  for (let i = 0; i < rows.length; i += CHUNK)
    await trx
      .insertInto('ratings')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc
          .columns(['player_id', 'category'])
          .doUpdateSet(Object.fromEntries(cols.map((c) => [c, sql.ref(`excluded.${c}`)])) as never),
      )
      .execute();
}

/** Adds rated games to the rating counters (band rollups, player by opponent band, score vs expectation). */
export async function writeRatingCounters(trx: Trx, rated: readonly RatedOutcome[]): Promise<void> {
  if (rated.length === 0) return;
  type Outcome = { sente_wins: number; gote_wins: number; draws: number; no_result: number };
  const bands = new Tally<Record<string, unknown>, Outcome>();
  const players = new Tally<Record<string, unknown>, { wins: number; losses: number; draws: number }>();
  const diffs = new Tally<Record<string, unknown>, { games: number; score_halves: number; expected_micro: number }>();
  for (const { row: r, sente, gote } of rated) {
    const sb = r.sente_rating_before as number;
    const gb = r.gote_rating_before as number;
    const band = gameBand(sb, gb);
    const o: Outcome = {
      sente_wins: r.result === 'sente' ? 1 : 0,
      gote_wins: r.result === 'gote' ? 1 : 0,
      draws: r.result === 'draw' ? 1 : 0,
      no_result: r.result === 'none' ? 1 : 0,
    };
    const category = r.time_category ?? '';
    for (const [grain, day] of periodsOf(dayOf(r.ended_at))) {
      const dims = {
        grain,
        day,
        ruleset: r.ruleset,
        handicap: r.handicap ?? '',
        rated: r.rated,
        time_category: category,
        band,
      };
      bands.add(Object.values(dims).join('|'), dims, o);
    }
    for (const [color, opponentBefore] of [
      ['sente', gb],
      ['gote', sb],
    ] as const) {
      const player = color === 'sente' ? r.sente_id : r.gote_id;
      const opponentBand = bandOf(opponentBefore);
      players.add(
        `${player}|${category}|${opponentBand}`,
        { player_id: player, category, opponent_band: opponentBand },
        {
          wins: r.result === color ? 1 : 0,
          losses: r.result !== color && r.result !== 'draw' ? 1 : 0,
          draws: r.result === 'draw' ? 1 : 0,
        },
      );
    }
    const e = expectation(sente, gote);
    const score = r.result === 'draw' ? 1 : r.result === e.higher ? 2 : 0;
    diffs.add(
      `${category}|${e.higher}|${e.bucket}`,
      { category, higher_color: e.higher, bucket: e.bucket },
      { games: 1, score_halves: score, expected_micro: Math.round(e.expected * 1e6) },
    );
  }
  await addCounts(
    trx,
    'rating_band_rollups',
    bands.rows(),
    ['grain', 'day', 'ruleset', 'handicap', 'rated', 'time_category', 'band'],
    ['sente_wins', 'gote_wins', 'draws', 'no_result'],
  );
  await addCounts(
    trx,
    'player_band_results',
    players.rows(),
    ['player_id', 'category', 'opponent_band'],
    ['wins', 'losses', 'draws'],
  );
  await addCounts(
    trx,
    'rating_diff_counters',
    diffs.rows(),
    ['category', 'higher_color', 'bucket'],
    ['games', 'score_halves', 'expected_micro'],
  );
}
