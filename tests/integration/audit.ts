/**
 * The audit every fault and fuzz test ends with (issue 8), read straight from PostgreSQL:
 *
 * 1. every stream is dense from seq 1 and starts with GameCreated;
 * 2. every MoveSubmitted has exactly one verdict (MoveAccepted or MoveRejected), and every
 *    verdict answers an earlier MoveSubmitted of its game: no move applied twice;
 * 3. the MoveAccepted plies of a game are 1..N in seq order (a TakebackAccepted sets N back); after GameEnded only the
 *    game_over rejection of a submission that was pending;
 * 4. every submission a client was told is durable (202 / ack) is in the log with its USI
 *    at that seq: no accepted move lost;
 * 5. the `games` projection equals a replay of the log (`compareGamesWithLog`).
 *
 * It returns a list of problems (empty when all holds) so a failing test prints them all.
 */
import { compareGamesWithLog, type Db } from '@shogi/store';
import { sql } from 'kysely';

export interface LoggedEvent {
  readonly gameId: string;
  readonly seq: number;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/** A submission a client holds an acknowledgement for (HTTP 202 `{seq}` or a WebSocket ack). */
export interface Acknowledged {
  readonly gameId: string;
  readonly seq: number;
  readonly usi: string;
}

export interface AuditOptions {
  /** submissions acknowledged to clients: each must be in the log */
  readonly acknowledged?: readonly Acknowledged[];
  /** submissions allowed to have no verdict yet (default: none) */
  readonly allowPending?: boolean;
}

export interface AuditReport {
  readonly games: number;
  readonly events: number;
  readonly submissions: number;
  readonly accepted: number;
  readonly problems: string[];
}

export async function readLog(db: Db): Promise<Map<string, LoggedEvent[]>> {
  const { rows } = await sql<{ game_id: string; seq: number; type: string; payload: Record<string, unknown> }>`
    select game_id, seq, type, payload from game_events order by game_id, seq`.execute(db);
  const byGame = new Map<string, LoggedEvent[]>();
  for (const r of rows) {
    const list = byGame.get(r.game_id) ?? [];
    list.push({ gameId: r.game_id, seq: Number(r.seq), type: r.type, payload: r.payload });
    byGame.set(r.game_id, list);
  }
  return byGame;
}

/** The checks of one game's stream (1-3 above). */
export function auditStream(gameId: string, events: readonly LoggedEvent[], options: AuditOptions = {}): string[] {
  const problems: string[] = [];
  const p = (what: string) => problems.push(`game ${gameId}: ${what}`);
  events.forEach((e, i) => {
    if (e.seq !== i + 1) p(`seq ${e.seq} at position ${i + 1} (stream not dense from 1)`);
  });
  if (events[0]?.type !== 'GameCreated') p(`first event is ${events[0]?.type ?? 'missing'}, not GameCreated`);
  const submitted = new Set<number>();
  const verdicts = new Map<number, number>();
  let ply = 0;
  let ended = false;
  for (const e of events) {
    // a submission pending when the game ended (a resignation) is answered game_over
    const lateVerdict = e.type === 'MoveRejected' && e.payload.reason === 'game_over';
    if (ended && !lateVerdict) p(`${e.type} at seq ${e.seq} after GameEnded`);
    if (e.type === 'GameCreated' && e.seq !== 1) p(`GameCreated again at seq ${e.seq}`);
    if (e.type === 'MoveSubmitted') submitted.add(e.seq);
    if (e.type === 'MoveAccepted' || e.type === 'MoveRejected') {
      const answered = Number(e.payload.submittedSeq);
      if (!submitted.has(answered)) p(`${e.type} at seq ${e.seq} answers seq ${answered}, no earlier submission`);
      verdicts.set(answered, (verdicts.get(answered) ?? 0) + 1);
    }
    if (e.type === 'MoveAccepted') {
      ply++;
      if (Number(e.payload.ply) !== ply)
        p(`MoveAccepted at seq ${e.seq} has ply ${String(e.payload.ply)}, expected ${ply}`);
    }
    // a takeback sets the ply back by the moves it undid
    if (e.type === 'TakebackAccepted') {
      ply -= Number(e.payload.plies);
      if (Number(e.payload.ply) !== ply)
        p(`TakebackAccepted at seq ${e.seq} leaves ply ${String(e.payload.ply)}, expected ${ply}`);
    }
    if (e.type === 'GameEnded') ended = true;
  }
  for (const seq of submitted) {
    const n = verdicts.get(seq) ?? 0;
    if (n > 1) p(`submission ${seq} has ${n} verdicts (applied twice)`);
    if (n === 0 && !options.allowPending) p(`submission ${seq} has no verdict`);
  }
  return problems;
}

/** The whole audit over every game of the database. */
export async function audit(db: Db, options: AuditOptions = {}): Promise<AuditReport> {
  const log = await readLog(db);
  const problems: string[] = [];
  let events = 0;
  let submissions = 0;
  let accepted = 0;
  for (const [gameId, stream] of log) {
    events += stream.length;
    submissions += stream.filter((e) => e.type === 'MoveSubmitted').length;
    accepted += stream.filter((e) => e.type === 'MoveAccepted').length;
    problems.push(...auditStream(gameId, stream, options));
  }
  for (const a of options.acknowledged ?? []) {
    const e = log.get(a.gameId)?.[a.seq - 1];
    if (e?.type !== 'MoveSubmitted' || e.payload.usi !== a.usi)
      problems.push(
        `game ${a.gameId}: acknowledged ${a.usi} at seq ${a.seq} is not in the log (found ${e?.type ?? 'nothing'})`,
      );
  }
  const compared = await compareGamesWithLog(db);
  for (const d of compared.differences)
    problems.push(`game ${d.id}: games row differs from the replayed log in ${d.columns.join(', ')}`);
  if (compared.rebuilt !== log.size) problems.push(`${log.size} streams but ${compared.rebuilt} games rebuilt`);
  return { games: log.size, events, submissions, accepted, problems };
}

/** Polls until every submission has its verdict (or the timeout), then audits. */
export async function auditWhenSettled(db: Db, options: AuditOptions = {}, timeoutMs = 40_000): Promise<AuditReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await audit(db, options);
    if (report.problems.length === 0 || Date.now() > deadline) return report;
    await new Promise((r) => setTimeout(r, 100));
  }
}
