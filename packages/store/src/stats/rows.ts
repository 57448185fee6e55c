/**
 * Pure: from a finished game's events to its `finished_games` row, and from rows to the
 * counter increments. The projector and the rebuild share these, so both count alike.
 */
import type { GameCreated, GameEnded } from '@shogi/game';
import { categoryOf } from '@shogi/ratings';
import { START_SFEN } from '@shogi/rules';
import type { Insertable } from 'kysely';
import {
  type FinishedGamesTable,
  type GameResult,
  type Grain,
  LENGTH_BUCKET,
  OPENING_PLIES,
  type StatsEndReason,
} from './schema.js';

export type FinishedRow = Insertable<FinishedGamesTable> & { opening: string[]; result: GameResult };

export interface FinishedGameInput {
  readonly gameId: string;
  readonly created: GameCreated['data'];
  /** Its first OPENING_PLIES accepted moves (all of them in a shorter game). */
  readonly opening: readonly string[];
  /** How many moves were accepted in it. */
  readonly plies: number;
  readonly ended: GameEnded['data'];
  readonly globalPosition: number;
  /** The finer reason an import recorded (illegal_move, max_moves, interrupted), if any. */
  readonly importedReason?: StatsEndReason | undefined;
}

const NO_RESULT_REASONS: ReadonlySet<string> = new Set(['abort', 'interrupted']);

export function finishedRow(g: FinishedGameInput): FinishedRow {
  const reason: string = g.importedReason ?? g.ended.reason;
  const result: GameResult = g.ended.winner ?? (NO_RESULT_REASONS.has(reason) ? 'none' : 'draw');
  return {
    game_id: g.gameId,
    sente_id: g.created.sente.id,
    sente_name: g.created.sente.name,
    gote_id: g.created.gote.id,
    gote_name: g.created.gote.name,
    ruleset: g.created.ruleset,
    handicap: g.created.handicap,
    initial_sfen: g.created.initialSfen,
    rated: g.created.rated,
    time_category: categoryOf(g.created.timeControl),
    sente_rating_before: null,
    sente_rating_after: null,
    gote_rating_before: null,
    gote_rating_after: null,
    result,
    end_reason: reason,
    plies: g.plies,
    opening: g.opening.slice(0, OPENING_PLIES),
    started_at: g.created.createdAt,
    ended_at: g.ended.at,
    imported: g.importedReason !== undefined,
    global_position: g.globalPosition,
  };
}

const sameStart = (a: string, b: string): boolean =>
  a.split(' ').slice(0, 3).join(' ') === b.split(' ').slice(0, 3).join(' ');

/** The explorer's tree of a game: its handicap ('' for the even start); null for another start. */
export function explorerRoot(row: FinishedRow): string | null {
  if (row.handicap != null) return row.handicap;
  return sameStart(row.initial_sfen, START_SFEN) ? '' : null;
}

/** The explorer's key of a position: the SFEN without its move number. */
export const positionKey = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');

/** UTC day of an instant, as YYYY-MM-DD. */
export const dayOf = (at: Date | string): string => new Date(at).toISOString().slice(0, 10);

/** The periods (grain, first day) a day is counted in (migration 0005). */
export const periodsOf = (day: string): [Grain, string][] => [
  ['day', day],
  ['month', `${day.slice(0, 7)}-01`],
  ['year', `${day.slice(0, 4)}-01-01`],
  ['all', ALL_PERIOD],
];
export const ALL_PERIOD = '1970-01-01';

export const lengthBucket = (plies: number): number => Math.floor(plies / LENGTH_BUCKET) * LENGTH_BUCKET;

/**
 * Sums increments under a string key. `key` may be a function, called only for an id not
 * seen yet: a rebuild adds tens of millions of increments to far fewer keys.
 */
export class Tally<K extends Record<string, unknown>, V extends Record<string, number>> {
  readonly entries = new Map<string, { key: K; values: V }>();
  add(id: string, key: K | (() => K), values: V): void {
    const e = this.entries.get(id);
    if (e === undefined) {
      this.entries.set(id, { key: typeof key === 'function' ? key() : key, values: { ...values } });
      return;
    }
    const sums = e.values as Record<string, number>;
    for (const k in values) sums[k] = (sums[k] as number) + (values[k] as number);
  }

  /** Each key with its sums, as one row of a counters table. */
  rows(): (K & V)[] {
    return [...this.entries.values()].map((e) => ({ ...e.key, ...e.values }));
  }
}
