/**
 * Moderators' side of fair play: the queue of accounts to look at with their evidence, and
 * marking or unmarking an account as an engine user, each an event in its fair-play stream.
 * A mark refunds its victims as lichess's RatingRefund does (the marked account's rated games
 * of the last 7 days, victims with a settled rating, 0 to 150 points each), as RatingRefunded
 * events the ratings projection applies in log order; an account unmarked once is refunded no
 * more (lila's wasUnengined), and an unmark takes no refund back.
 */
import { type Aggregate, pointsToRefund, refundsOf, type VictimGame } from '@shogi/fairplay';
import { PROVISIONAL_DEVIATION } from '@shogi/ratings';
import { sql } from 'kysely';
import { appendFairplay, type FairplayEvent, type RecordedFairplayEvent, readFairplay } from './account-log.js';
import { relatedAccounts } from './addresses.js';
import { latestAssessments } from './assessments.js';
import type { FairplayDb } from './schema.js';

export interface QueueEntry {
  readonly username: string;
  readonly playerId: string;
  readonly verdict: 'markable' | 'reportable' | 'fine';
  readonly evidence: {
    readonly aggregate: Aggregate | null;
    readonly games: {
      readonly gameId: string;
      readonly color: string;
      readonly verdict: string;
      readonly rule: string | null;
      readonly speed: string;
      readonly endedAt: string;
      readonly signals: unknown;
    }[];
    readonly reports: {
      readonly reporter: string;
      readonly reason: string;
      readonly text: string | null;
      readonly at: string;
    }[];
    /** the usernames of the accounts seen from an address this one was seen from (registration, login) */
    readonly relatedAccounts: string[];
  };
}

const VERDICT_ORDER = { markable: 0, reportable: 1, fine: 2 } as const;

/**
 * Accounts not marked whose aggregate is markable or reportable, or that were reported since
 * their last mark or unmark: markable first, then reportable, then by reports.
 */
export async function modQueue(db: FairplayDb, limit = 50): Promise<QueueEntry[]> {
  const rows = await sql<{ player_id: string; username: string; verdict: string | null; aggregate: unknown }>`
    with candidates as (
      select player_id from fairplay_accounts where verdict in ('markable', 'reportable')
      union
      select r.player_id from fairplay_reports r
      where not exists (select 1 from engine_marks m where m.player_id = r.player_id and m.at >= r.at)
    )
    select c.player_id, a.username, f.verdict, f.aggregate from candidates c
    join accounts a on a.player_id = c.player_id
    left join fairplay_accounts f on f.player_id = c.player_id
    where not exists (select 1 from engine_marks m where m.player_id = c.player_id and m.marked)`.execute(db);
  const entries: QueueEntry[] = [];
  for (const r of rows.rows) {
    const games = await latestAssessments(db, r.player_id);
    const reports = await sql<{ reporter: string; reason: string; text: string | null; at: Date }>`
      select coalesce(a.username, p.name) as reporter, r.reason, r.text, r.at from fairplay_reports r
      join players p on p.id = r.reporter_id left join accounts a on a.player_id = r.reporter_id
      where r.player_id = ${r.player_id} order by r.at desc`.execute(db);
    entries.push({
      username: r.username,
      playerId: r.player_id,
      verdict: (r.verdict ?? 'fine') as QueueEntry['verdict'],
      evidence: {
        aggregate: (r.aggregate ?? null) as Aggregate | null,
        games: games.map((g) => ({
          gameId: g.game_id,
          color: g.color,
          verdict: g.verdict,
          rule: g.rule,
          speed: g.speed,
          endedAt: new Date(g.ended_at).toISOString(),
          signals: g.signals,
        })),
        reports: reports.rows.map((x) => ({ ...x, at: new Date(x.at).toISOString() })),
        relatedAccounts: await relatedAccounts(db, r.player_id),
      },
    });
  }
  entries.sort(
    (a, b) =>
      VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict] ||
      b.evidence.reports.length - a.evidence.reports.length ||
      a.username.localeCompare(b.username),
  );
  return entries.slice(0, limit);
}

/** The victims' side of the marked account's rated games (rating_history), for refundsOf. */
async function victimGames(db: FairplayDb, playerId: string, since: Date): Promise<VictimGame[]> {
  const rows = await sql<{ victim: string; category: string; before: number; after: number; rd: number; at: Date }>`
    select v.player_id as victim, v.category, v.rating_before as before, v.rating_after as after,
      v.rd_before as rd, v.at
    from rating_history m join rating_history v on v.game_id = m.game_id and v.player_id <> m.player_id
    where m.player_id = ${playerId} and m.at >= ${since}`.execute(db);
  return rows.rows.map((r) => ({
    victimId: r.victim,
    category: r.category,
    ratingBefore: r.before,
    ratingDiff: Math.round(r.after - r.before),
    provisional: r.rd > PROVISIONAL_DEVIATION,
    endedAt: new Date(r.at).toISOString(),
  }));
}

/** The refunds a mark now gives: none for an account unmarked before. */
async function refundEvents(db: FairplayDb, playerId: string, now: Date, history: readonly RecordedFairplayEvent[]) {
  if (history.some((h) => h.event.type === 'EngineUnmarked')) return [];
  const since = new Date(now.getTime() - 8 * 24 * 3600 * 1000);
  const out: FairplayEvent[] = [];
  for (const refund of refundsOf(await victimGames(db, playerId, since), now)) {
    const current = await sql<{ rating: number; highest: number | null }>`
      select r.rating, (select max(h.rating_after) from rating_history h
        where h.player_id = r.player_id and h.category = r.category) as highest
      from ratings r where r.player_id = ${refund.victimId} and r.category = ${refund.category}`.execute(db);
    const row = current.rows[0];
    if (row === undefined) continue;
    const points = pointsToRefund(refund, row.rating, row.highest);
    if (points > 0)
      out.push({ type: 'RatingRefunded', data: { victimId: refund.victimId, category: refund.category, points } });
  }
  return out;
}

export type MarkOutcome = { readonly kind: 'done'; readonly refunds: number } | { readonly kind: 'unchanged' };

/** Marks the account (with its victims' refunds) unless it is marked already. */
export async function markEngine(
  db: FairplayDb,
  playerId: string,
  by: string,
  reason: string,
  now: Date,
): Promise<MarkOutcome> {
  const history = await readFairplay(db, playerId);
  if (currentlyMarked(history)) return { kind: 'unchanged' };
  const refunds = await refundEvents(db, playerId, now, history);
  await appendFairplay(db, playerId, [{ type: 'EngineMarked', data: { by, reason } }, ...refunds]);
  return { kind: 'done', refunds: refunds.length };
}

/** Unmarks the account; its victims keep their refunds. */
export async function unmarkEngine(db: FairplayDb, playerId: string, by: string, reason: string): Promise<MarkOutcome> {
  if (!currentlyMarked(await readFairplay(db, playerId))) return { kind: 'unchanged' };
  await appendFairplay(db, playerId, [{ type: 'EngineUnmarked', data: { by, reason } }]);
  return { kind: 'done', refunds: 0 };
}

const currentlyMarked = (history: readonly RecordedFairplayEvent[]): boolean => {
  let marked = false;
  for (const h of history)
    if (h.event.type === 'EngineMarked') marked = true;
    else if (h.event.type === 'EngineUnmarked') marked = false;
  return marked;
};
