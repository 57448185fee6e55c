/**
 * The screening's results: each assessed player's signals and verdict per game, and the
 * account's aggregate, recomputed from its latest assessments whenever one is added.
 */
import {
  type AccountFacts,
  type Aggregate,
  type AssessedGame,
  aggregate,
  type GameVerdict,
  type Speed,
} from '@shogi/fairplay';
import { sql } from 'kysely';
import type { FairplayAssessmentRow, FairplayDb } from './schema.js';

/** How many of an account's latest assessed games its aggregate reads. */
export const AGGREGATE_GAMES = 100;

export interface NewAssessment {
  readonly gameId: string;
  readonly playerId: string;
  readonly color: 'sente' | 'gote';
  readonly verdict: GameVerdict;
  readonly rule: string | null;
  readonly speed: Speed;
  readonly signals: object;
  readonly flags: object;
  readonly depth: number;
  readonly endedAt: Date;
  readonly now: Date;
}

/** Stores the assessments, replacing a game's earlier one of the same player (a deeper screening). */
export async function saveAssessments(db: FairplayDb, rows: readonly NewAssessment[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    game_id: r.gameId,
    player_id: r.playerId,
    color: r.color,
    verdict: r.verdict,
    rule: r.rule,
    speed: r.speed,
    signals: JSON.stringify(r.signals),
    flags: JSON.stringify(r.flags),
    depth: r.depth,
    ended_at: r.endedAt,
    assessed_at: r.now,
  }));
  await db
    .insertInto('fairplay_assessments')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['game_id', 'player_id']).doUpdateSet((eb) => ({
        verdict: eb.ref('excluded.verdict'),
        rule: eb.ref('excluded.rule'),
        signals: eb.ref('excluded.signals'),
        flags: eb.ref('excluded.flags'),
        depth: eb.ref('excluded.depth'),
        assessed_at: eb.ref('excluded.assessed_at'),
      })),
    )
    .execute();
}

export async function latestAssessments(
  db: FairplayDb,
  playerId: string,
  limit = AGGREGATE_GAMES,
): Promise<FairplayAssessmentRow[]> {
  return db
    .selectFrom('fairplay_assessments')
    .selectAll()
    .where('player_id', '=', playerId)
    .orderBy('ended_at', 'desc')
    .limit(limit)
    .execute();
}

/** Which games of these are assessed already (for any of their players). */
export async function assessedGames(db: FairplayDb, gameIds: readonly string[]): Promise<Set<string>> {
  if (gameIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('fairplay_assessments')
    .select('game_id')
    .where('game_id', '=', sql<string>`any(${[...gameIds]}::text[])`)
    .execute();
  return new Set(rows.map((r) => r.game_id));
}

/** The account's rated games and best rating, from the ratings projection. */
export async function accountFacts(db: FairplayDb, playerId: string): Promise<AccountFacts> {
  const row = await sql<{ games: string | null; best: number | null }>`
    select sum(games) as games, max(rating) as best from ratings where player_id = ${playerId}`.execute(db);
  const r = row.rows[0];
  return { ratedGames: Number(r?.games ?? 0), bestRating: r?.best ?? null };
}

export const assessedGameOf = (row: FairplayAssessmentRow): AssessedGame => {
  const s = row.signals as {
    acpl: number;
    blurPercent: number;
    meanMoveTimeMs: number | null;
    moveTimeSdMs: number | null;
  };
  const f = row.flags as { highlyConsistentMoveTimes: boolean };
  return {
    verdict: row.verdict as GameVerdict,
    speed: row.speed as Speed,
    acpl: s.acpl,
    blurPercent: s.blurPercent,
    highlyConsistentMoveTimes: f.highlyConsistentMoveTimes,
    meanMoveTimeMs: s.meanMoveTimeMs,
    moveTimeSdMs: s.moveTimeSdMs,
  };
};

/** Recomputes and stores the account's aggregate from its latest assessments. */
export async function refreshAggregate(db: FairplayDb, playerId: string, now: Date): Promise<Aggregate> {
  const rows = await latestAssessments(db, playerId);
  const result = aggregate(rows.map(assessedGameOf), await accountFacts(db, playerId));
  const row = { verdict: result.verdict, aggregate: JSON.stringify(result), updated_at: now };
  await db
    .insertInto('fairplay_accounts')
    .values({ player_id: playerId, ...row })
    .onConflict((oc) => oc.column('player_id').doUpdateSet(row))
    .execute();
  return result;
}
