/**
 * Who is screened, and which of their games: reported accounts, the top of each leaderboard,
 * accounts whose rating rose unusually fast, and the winners of the boosting pattern (many
 * rated games against one opponent, nearly all won). Their rated games of the last days that
 * have no assessment yet are the screening's work. Bot accounts are never screened (they play
 * with engines by declaration); the people they play are. Tournament leaders are screened as
 * lila's irwin asks for them: the top places of running tournaments, and of those finished in
 * the window (a tournament shorter than a sweep's interval would otherwise go unseen).
 */
import { RATING_CATEGORIES } from '@shogi/ratings';
import { sql } from 'kysely';
import { botAccountsAmong } from '../bot-accounts.js';
import { leaderboard } from '../ratings/queries.js';
import type { Db } from '../schema.js';

export interface SelectionRules {
  /** the top of each category's leaderboard */
  readonly leaderboardTop: number;
  /** a rise of this many points within `windowDays` */
  readonly fastRisePoints: number;
  /** boosting: at least this many rated games against one opponent within `windowDays`... */
  readonly boostGames: number;
  /** ...of which the winner took at least this share */
  readonly boostShare: number;
  /** the games looked at, and reports counted, this many days back */
  readonly windowDays: number;
  /** a rated tournament's top places: the first `1 + players × share` (lila irwin `nbPlayers * 2 / 100`)... */
  readonly tournamentTopShare: number;
  /** ...at most this many (lila irwin `take(20)`) */
  readonly tournamentTopMax: number;
}

/** This server's choices (no lila or lishogi source): see docs/fair-play.md. */
export const DEFAULT_SELECTION: SelectionRules = {
  leaderboardTop: 10,
  fastRisePoints: 300,
  boostGames: 10,
  boostShare: 0.9,
  windowDays: 14,
  tournamentTopShare: 0.02,
  tournamentTopMax: 20,
};

export const SCREENING_REASONS = ['reported', 'leaderboard', 'tournament', 'fast_rise', 'boosting', 'extra'] as const;
export type ScreeningReason = (typeof SCREENING_REASONS)[number];

/** The accounts to screen now, each with why. */
export async function screenedPlayers(
  db: Db,
  now: Date,
  rules: SelectionRules = DEFAULT_SELECTION,
  extraPlayers: readonly string[] = [],
): Promise<Map<string, ScreeningReason>> {
  const since = new Date(now.getTime() - rules.windowDays * 24 * 3600 * 1000);
  const out = new Map<string, ScreeningReason>();
  const add = (id: string, why: ScreeningReason) => {
    if (!out.has(id)) out.set(id, why);
  };
  const reported = await sql<{ player_id: string }>`
    select distinct player_id from fairplay_reports where at >= ${since}`.execute(db);
  for (const r of reported.rows) add(r.player_id, 'reported');
  for (const category of RATING_CATEGORIES)
    for (const e of await leaderboard(db, category, rules.leaderboardTop, now)) add(e.playerId, 'leaderboard');
  for (const id of await tournamentLeaders(db, since, rules)) add(id, 'tournament');
  const risers = await sql<{ player_id: string }>`
    select player_id from rating_history where at >= ${since}
    group by player_id, category having sum(rating_after - rating_before) >= ${rules.fastRisePoints}`.execute(db);
  for (const r of risers.rows) add(r.player_id, 'fast_rise');
  const boosters = await sql<{ winner: string }>`
    with pairs as (
      select least(sente_id, gote_id) as a, greatest(sente_id, gote_id) as b,
        count(*) as games,
        count(*) filter (where (result = 'sente' and sente_id < gote_id) or (result = 'gote' and gote_id < sente_id)) as a_wins,
        count(*) filter (where (result = 'sente' and sente_id > gote_id) or (result = 'gote' and gote_id > sente_id)) as b_wins
      from finished_games where rated and not imported and ended_at >= ${since}
      group by 1, 2
    )
    select case when a_wins >= b_wins then a else b end as winner from pairs
    where games >= ${rules.boostGames} and greatest(a_wins, b_wins) >= ${rules.boostShare}::float8 * games`.execute(db);
  for (const r of boosters.rows) add(r.winner, 'boosting');
  for (const id of extraPlayers) add(id, 'extra');
  if (out.size === 0) return out;
  for (const bot of await botAccountsAmong(db, [...out.keys()])) out.delete(bot);
  return out;
}

/**
 * The top places of rated tournaments running now or finished since `since`: the ranks whose
 * 0-based index is at most `players × share`, at most `max` (lila `Env` of irwin:
 * `zipWithIndex.filter(_._2 <= tour.nbPlayers * 2 / 100).take(20)`).
 */
export async function tournamentLeaders(db: Db, since: Date, rules: SelectionRules = DEFAULT_SELECTION) {
  // ranks are counted when read, in the standings' order (tournaments/queries.ts)
  const rows = await sql<{ player_id: string }>`
    select r.player_id from (
      select p.player_id, p.tournament_id, t.nb_players,
        row_number() over (partition by p.tournament_id order by p.score desc, p.tiebreak desc, p.entered) as rank
      from tournament_players p join tournaments t on t.id = p.tournament_id
      where t.rated and (t.status = 'started' or (t.status = 'finished' and t.finished_at >= ${since}))
    ) r
    where r.rank - 1 <= floor(r.nb_players * ${rules.tournamentTopShare}::float8)
      and r.rank <= ${rules.tournamentTopMax}
    order by r.tournament_id, r.rank`.execute(db);
  return [...new Set(rows.rows.map((r) => r.player_id))];
}

export interface ScreeningCandidate {
  readonly gameId: string;
  /** the screened players of the game (one or both) */
  readonly players: readonly string[];
}

/** The rated games of these players in the window with no assessment yet, newest first. */
export async function unscreenedGames(
  db: Db,
  players: readonly string[],
  now: Date,
  limit: number,
  rules: SelectionRules = DEFAULT_SELECTION,
): Promise<ScreeningCandidate[]> {
  if (players.length === 0 || limit <= 0) return [];
  const since = new Date(now.getTime() - rules.windowDays * 24 * 3600 * 1000);
  const rows = await sql<{ game_id: string; sente_id: string; gote_id: string }>`
    select f.game_id, f.sente_id, f.gote_id from finished_games f
    where f.rated and not f.imported and f.result <> 'none' and f.ended_at >= ${since}
      and (f.sente_id = any(${players}::text[]) or f.gote_id = any(${players}::text[]))
      and not exists (select 1 from fairplay_assessments a where a.game_id = f.game_id)
    order by f.ended_at desc limit ${limit}`.execute(db);
  const wanted = new Set(players);
  return rows.rows.map((r) => ({ gameId: r.game_id, players: [r.sente_id, r.gote_id].filter((p) => wanted.has(p)) }));
}
