/** Shared by the append and read sides: row shape, conversion, and the read-all lock key. */
import type { RecordedEvent } from '@shogi/game';
import { isGameEventType, upcastEventData } from '@shogi/game';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type Executor = Kysely<Database>;

/** The advisory lock key of the read-all horizon ('SHOGI' in ASCII); locks are per database. */
export const READ_ALL_LOCK_KEY = String(0x53484f4749);

export const UNIQUE_VIOLATION = '23505';
/** PostgreSQL aborted this transaction to break a lock cycle; nothing of it was written. */
export const DEADLOCK_DETECTED = '40P01';

export interface EventRow {
  game_id: string;
  seq: number;
  type: string;
  payload: unknown;
  recorded_at: Date;
  global_position: string;
}

export function toRecorded(row: EventRow): RecordedEvent {
  if (!isGameEventType(row.type)) throw new Error(`unknown event type ${row.type} in game ${row.game_id}`);
  return {
    type: row.type,
    data: upcastEventData(row.type, row.payload),
    gameId: row.game_id,
    seq: row.seq,
    recordedAt: row.recorded_at.toISOString(),
    globalPosition: Number(row.global_position),
  } as RecordedEvent;
}
