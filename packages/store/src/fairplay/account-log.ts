/**
 * An account's fair-play stream in the log: reports of it, moderators' marks and unmarks, and
 * the refunds its mark gave its victims, each an event with who and why. The stream lives in
 * `game_events` beside the games (`fairplay-<playerId>`), so the ratings projection meets each
 * refund in log order among the games and a rebuild gives the same ratings. Every other reader
 * of the log skips these types: they start no game.
 */
import { sql, type Transaction } from 'kysely';
import { READ_ALL_LOCK_KEY } from '../event-rows.js';
import type { Database } from '../schema.js';
import type { FairplayDb, FairplayTables } from './schema.js';

export const REPORT_REASONS = ['cheat', 'boost', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export type FairplayEvent =
  | {
      readonly type: 'PlayerReported';
      readonly data: { readonly reporterId: string; readonly reason: ReportReason; readonly text?: string };
    }
  | { readonly type: 'EngineMarked'; readonly data: { readonly by: string; readonly reason: string } }
  | { readonly type: 'EngineUnmarked'; readonly data: { readonly by: string; readonly reason: string } }
  | {
      readonly type: 'RatingRefunded';
      readonly data: {
        readonly victimId: string;
        readonly category: string;
        readonly points: number;
      };
    };
export type FairplayEventType = FairplayEvent['type'];
export const FAIRPLAY_EVENT_TYPES = [
  'PlayerReported',
  'EngineMarked',
  'EngineUnmarked',
  'RatingRefunded',
] as const satisfies readonly FairplayEventType[];

export const fairplayStream = (playerId: string): string => `fairplay-${playerId}`;

export interface RecordedFairplayEvent {
  readonly event: FairplayEvent;
  readonly seq: number;
  readonly globalPosition: number;
  readonly at: Date;
}

type Trx = Transaction<Database & FairplayTables>;

/**
 * Appends the events to the account's stream, after its last one (one writer at a time per
 * stream: a transaction-level lock on the stream), and writes the moderation projections in
 * the same transaction.
 */
export async function appendFairplay(
  db: FairplayDb,
  playerId: string,
  events: readonly FairplayEvent[],
): Promise<RecordedFairplayEvent[]> {
  if (events.length === 0) return [];
  const stream = fairplayStream(playerId);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${stream}))`.execute(trx);
    const last = await sql<{
      seq: number | null;
    }>`select max(seq) as seq from game_events where game_id = ${stream}`.execute(trx);
    const after = last.rows[0]?.seq ?? 0;
    const values = sql.join(
      events.map((e, i) => sql`(${after + i + 1}::integer, ${e.type}::text, ${JSON.stringify(e.data)}::jsonb)`),
    );
    // the shared horizon lock, as every append takes it: readAll never skips this commit
    const inserted = await sql<{ seq: number; global_position: string; recorded_at: Date }>`
      with horizon_lock as materialized (select pg_advisory_xact_lock_shared(${READ_ALL_LOCK_KEY}::bigint) as locked)
      insert into game_events (game_id, seq, type, payload)
      select ${stream}, v.seq, v.type, v.payload from horizon_lock, (values ${values}) as v(seq, type, payload)
      returning seq, global_position, recorded_at`.execute(trx);
    const recorded = inserted.rows
      .sort((a, b) => a.seq - b.seq)
      .map((r, i) => ({
        event: events[i] as FairplayEvent,
        seq: r.seq,
        globalPosition: Number(r.global_position),
        at: r.recorded_at,
      }));
    for (const r of recorded) await project(trx, playerId, r);
    return recorded;
  });
}

/** The moderation projections of one event (refunds reach the ratings through the stats projector). */
async function project(trx: Trx, playerId: string, r: RecordedFairplayEvent): Promise<void> {
  const { event } = r;
  switch (event.type) {
    case 'PlayerReported':
      await trx
        .insertInto('fairplay_reports')
        .values({
          player_id: playerId,
          seq: r.seq,
          reporter_id: event.data.reporterId,
          reason: event.data.reason,
          text: event.data.text ?? null,
          at: r.at,
        })
        .execute();
      return;
    case 'EngineMarked':
    case 'EngineUnmarked': {
      const row = { marked: event.type === 'EngineMarked', by: event.data.by, reason: event.data.reason, at: r.at };
      await trx
        .insertInto('engine_marks')
        .values({ player_id: playerId, ...row })
        .onConflict((oc) => oc.column('player_id').doUpdateSet(row))
        .execute();
      return;
    }
    case 'RatingRefunded':
      return;
    default: {
      const never: never = event;
      throw new Error(`unknown fair-play event ${JSON.stringify(never)}`);
    }
  }
}

/** The account's fair-play stream, in order. */
export async function readFairplay(db: FairplayDb, playerId: string): Promise<RecordedFairplayEvent[]> {
  const rows = await sql<{ seq: number; type: string; payload: unknown; global_position: string; recorded_at: Date }>`
    select seq, type, payload, global_position, recorded_at from game_events
    where game_id = ${fairplayStream(playerId)} order by seq`.execute(db);
  return rows.rows.map((r) => ({
    event: { type: r.type, data: r.payload } as FairplayEvent,
    seq: r.seq,
    globalPosition: Number(r.global_position),
    at: r.recorded_at,
  }));
}

/** Whether the account is marked now. */
export async function isMarked(db: FairplayDb, playerId: string): Promise<boolean> {
  const row = await db.selectFrom('engine_marks').select('marked').where('player_id', '=', playerId).executeTakeFirst();
  return row?.marked === true;
}

/** Which of the players a moderator has marked now (one read for a record's two players). */
export async function markedAmong(db: FairplayDb, playerIds: readonly string[]): Promise<Set<string>> {
  if (playerIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('engine_marks')
    .select('player_id')
    .where('player_id', 'in', [...playerIds])
    .where('marked', '=', true)
    .execute();
  return new Set(rows.map((r) => r.player_id));
}
