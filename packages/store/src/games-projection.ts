/**
 * The `games` projection as a pure reducer over recorded events. The event store applies
 * it in the same statement as the append (so the row never lags the log), and
 * `compareGamesWithLog` applies it to the whole log to check the live table.
 */
import { firstMoveLimitMs, type GameEvent } from '@shogi/game';
import type { GameRow } from './schema.js';

/** Columns of a games row that events set; a patch is a subset of them. */
export type GameRowValues = Omit<GameRow, 'created_at' | 'updated_at'> & { created_at: Date };
export type GameRowPatch = Partial<GameRowValues> & {
  /** A verdict for this submission seq clears pending_seq if the row's value is this seq. */
  pending_clear_if?: number;
};

const sideOfSfen = (sfen: string): 'sente' | 'gote' => (sfen.split(' ')[1] === 'w' ? 'gote' : 'sente');

/** The first move's deadline of a new game (game-clock.ts); null without a clock. */
function firstMoveDeadline(tc: Parameters<typeof firstMoveLimitMs>[0], createdAt: string): Date | null {
  const limit = firstMoveLimitMs(tc);
  return limit === null ? null : new Date(Date.parse(createdAt) + limit);
}

/** Applies one event (with its seq) to a patch; starting from {} gives the columns a batch changes. */
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
      return {
        ...next,
        id: d.gameId,
        sente_id: d.sente.id,
        sente_name: d.sente.name,
        gote_id: d.gote.id,
        gote_name: d.gote.name,
        ruleset: d.ruleset,
        handicap: d.handicap,
        status: 'ongoing',
        side_to_move: sideOfSfen(d.initialSfen),
        ply: 0,
        result: null,
        winner: null,
        end_reason: null,
        sfen: d.initialSfen,
        pending_seq: null,
        created_at: new Date(d.createdAt),
        deadline_at: firstMoveDeadline(d.timeControl, d.createdAt),
      };
    }
    case 'MoveAccepted': {
      const d = event.data;
      const moved = { ...next, ply: d.ply, sfen: d.sfen, side_to_move: sideOfSfen(d.sfen) };
      return d.clock === undefined ? moved : { ...moved, deadline_at: new Date(d.clock.deadlineAt) };
    }
    case 'GameEnded': {
      const w = event.data.winner;
      return {
        ...next,
        status: 'ended',
        winner: w,
        result: w ?? 'draw',
        end_reason: event.data.reason,
        deadline_at: null,
      };
    }
    case 'MoveSubmitted':
    case 'MoveRejected':
    case 'Resigned':
    case 'ImpasseDeclared':
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
