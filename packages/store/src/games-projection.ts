/**
 * The `games` projection as a pure reducer over recorded events. The event store applies
 * it in the same statement as the append (so the row never lags the log), and
 * `compareGamesWithLog` applies it to the whole log to check the live table.
 */
import { type GameCreated, type GameEvent, newGameClock, sideOfSfen, turnDeadline } from '@shogi/game';
import type { GameRow } from './schema.js';

/** Columns of a games row that events set; a patch is a subset of them. */
export type GameRowValues = Omit<GameRow, 'created_at' | 'updated_at'> & { created_at: Date };
export type GameRowPatch = Partial<GameRowValues> & {
  /** A verdict for this submission seq clears pending_seq if the row's value is this seq. */
  pending_clear_if?: number;
};

/** The first move's deadline of a new game (game-clock.ts); null without a clock. */
function firstMoveDeadline(d: GameCreated['data']): Date | null {
  const clock = newGameClock(d.timeControl, Date.parse(d.createdAt), sideOfSfen(d.initialSfen), d.clockRules);
  const limit = clock === null ? null : turnDeadline(clock, 0);
  return limit === null ? null : new Date(limit);
}

/**
 * Applies one event (with its seq) to a patch; starting from {} gives the columns a batch changes.
 * Pure for the caller (`patch` is not changed); the copy it returns is filled in place rather
 * than spread again with the new columns: spreading it a second time gave every accepted move
 * three hidden classes of its own that V8 did not share (`--log-maps`; with the append result's
 * and the job options' spreads, new maps on every move, allocated in the old generation and
 * collected only by its mark-compacts).
 */
export function applyToGameRow(patch: GameRowPatch, seq: number, event: GameEvent): GameRowPatch {
  const next: GameRowPatch = { ...patch, last_seq: seq };
  if (event.type === 'MoveSubmitted') {
    delete next.pending_clear_if;
    next.pending_seq = seq;
  }
  if (event.type === 'MoveAccepted' || event.type === 'MoveRejected') {
    const answered = event.data.submittedSeq;
    // a later submission still waits when the latest one is not the one answered
    if ('pending_seq' in next) {
      if (next.pending_seq === answered) next.pending_seq = null;
    } else next.pending_clear_if = answered;
  }
  switch (event.type) {
    case 'GameCreated': {
      const d = event.data;
      next.id = d.gameId;
      next.sente_id = d.sente.id;
      next.sente_name = d.sente.name;
      next.gote_id = d.gote.id;
      next.gote_name = d.gote.name;
      next.ruleset = d.ruleset;
      next.handicap = d.handicap;
      next.status = 'ongoing';
      next.side_to_move = sideOfSfen(d.initialSfen);
      next.ply = 0;
      next.result = null;
      next.winner = null;
      next.end_reason = null;
      next.sfen = d.initialSfen;
      next.pending_seq = null;
      next.created_at = new Date(d.createdAt);
      next.deadline_at = firstMoveDeadline(d);
      return next;
    }
    // a takeback records the position it returns to as a move records the one it reaches
    case 'MoveAccepted':
    case 'TakebackAccepted': {
      const d = event.data;
      next.ply = d.ply;
      next.sfen = d.sfen;
      next.side_to_move = sideOfSfen(d.sfen);
      if (d.clock !== undefined) next.deadline_at = new Date(d.clock.deadlineAt);
      return next;
    }
    case 'GameEnded': {
      const w = event.data.winner;
      next.status = 'ended';
      next.winner = w;
      next.result = w ?? 'draw';
      next.end_reason = event.data.reason;
      next.deadline_at = null;
      return next;
    }
    case 'MoveSubmitted':
    case 'MoveRejected':
    case 'Resigned':
    case 'ImpasseDeclared':
    case 'TakebackProposed':
    case 'TakebackDeclined':
    // before the first move: the first-move timer, which the row's deadline holds, is not halved
    case 'Berserked':
      return next;
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

const ROW_KEYS = [
  'id',
  'sente_id',
  'sente_name',
  'gote_id',
  'gote_name',
  'ruleset',
  'handicap',
  'status',
  'side_to_move',
  'ply',
  'last_seq',
  'result',
  'winner',
  'end_reason',
  'sfen',
  'pending_seq',
  'created_at',
  'deadline_at',
] as const satisfies readonly (keyof GameRowValues)[];

/** A patch that sets every column (a batch starting with GameCreated) as a full row. */
export function asFullRow(patch: GameRowPatch): GameRowValues | null {
  for (const k of ROW_KEYS) if (!(k in patch)) return null;
  const { pending_clear_if: _, ...row } = patch;
  return row as GameRowValues;
}

export const GAME_ROW_KEYS: readonly (keyof GameRow)[] = [...ROW_KEYS, 'updated_at'];
