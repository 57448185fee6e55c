/**
 * A game's contribution to the explorer: for each of its first plies (DEFAULT_PLIES), the
 * position before the move (its key) and the move, with the game's result, speed, rating band,
 * month and its mover's rating. Entries of one group (position, move, speed, band, month) merge
 * by summing, which is what makes the index incremental: a game's entries are merged into the
 * index when it ends, and a rebuild merges the same entries in another order to the same sums.
 */
import { type Position, parseSfen, parseUsi } from '@shogi/rules';
import { keyOf } from './keys.js';
import { moveCode } from './moves.js';
import { bandIndex, type Speed, speedIndex } from './vocab.js';

/** Plies of each game the explorer covers, as lichess's explorer does (its first 50). */
export const DEFAULT_PLIES = 50;

export type ExplorerResult = 'sente' | 'gote' | 'draw';

export interface ExplorerGame {
  /** The game's reference in the index (the global position of its GameEnded: unique, increasing). */
  readonly ref: number;
  readonly initialSfen: string;
  /** Its moves in USI; only the first `plies` count. */
  readonly moves: readonly string[];
  readonly result: ExplorerResult;
  readonly speed: Speed;
  /** Pre-game ratings; null when the game had none (casual games, imports). */
  readonly senteRating: number | null;
  readonly goteRating: number | null;
  /** monthIndexOf the game's start. */
  readonly month: number;
}

/** One group's counts. `top` and `recent` are game refs; a single game's entry has top = recent. */
export interface Entry {
  rest: number;
  move: number;
  speed: number;
  band: number;
  month: number;
  sente: number;
  gote: number;
  draws: number;
  /** the movers' pre-game ratings summed over the group's games (rated ones: band < UNRATED_BAND) */
  ratingSum: number;
  /** the group's highest rated game (average of both players) and that average */
  top: number;
  topRating: number;
  /** the group's latest game (highest ref) */
  recent: number;
}

export interface BucketEntry {
  readonly bucket: number;
  readonly entry: Entry;
}

/**
 * The entries of a game: one per ply up to `plies`, stopping at a move that does not parse
 * (the log holds only accepted moves, so that is a corrupt record, not a game).
 */
export function entriesOfGame(game: ExplorerGame, plies = DEFAULT_PLIES): BucketEntry[] {
  const start = parseSfen(game.initialSfen);
  if (!start.ok) return [];
  const pos: Position = start.value;
  const average =
    game.senteRating !== null && game.goteRating !== null ? (game.senteRating + game.goteRating) / 2 : null;
  const band = bandIndex(average);
  const speed = speedIndex(game.speed);
  const topRating = average === null ? 0 : Math.round(average);
  const out: BucketEntry[] = [];
  const n = Math.min(plies, game.moves.length);
  for (let i = 0; i < n; i++) {
    const usi = game.moves[i] as string;
    const m = parseUsi(usi);
    const code = moveCode(usi);
    if (m < 0 || code < 0) break;
    const k = keyOf(pos);
    const mover = pos.side === 0 ? game.senteRating : game.goteRating;
    out.push({
      bucket: k.bucket,
      entry: {
        rest: k.rest,
        move: code,
        speed,
        band,
        month: game.month,
        sente: game.result === 'sente' ? 1 : 0,
        gote: game.result === 'gote' ? 1 : 0,
        draws: game.result === 'draw' ? 1 : 0,
        ratingSum: average === null || mover === null ? 0 : Math.round(mover),
        top: game.ref,
        topRating,
        recent: game.ref,
      },
    });
    pos.makeMove(m);
  }
  return out;
}

/** The group order: key, move, speed, band, month. */
export function compareEntries(a: Entry, b: Entry): number {
  return a.rest - b.rest || a.move - b.move || a.speed - b.speed || a.band - b.band || a.month - b.month;
}

/** Adds b's counts into a (same group). */
export function addInto(a: Entry, b: Entry): void {
  a.sente += b.sente;
  a.gote += b.gote;
  a.draws += b.draws;
  a.ratingSum += b.ratingSum;
  if (b.topRating > a.topRating || (b.topRating === a.topRating && b.top > a.top)) {
    a.top = b.top;
    a.topRating = b.topRating;
  }
  if (b.recent > a.recent) a.recent = b.recent;
}

/** Sorts and merges entries of one bucket into one entry per group (the input is consumed). */
export function mergeEntries(entries: Entry[]): Entry[] {
  entries.sort(compareEntries);
  const out: Entry[] = [];
  let last: Entry | undefined;
  for (const e of entries) {
    if (last !== undefined && compareEntries(last, e) === 0) addInto(last, e);
    else {
      last = { ...e };
      out.push(last);
    }
  }
  return out;
}
