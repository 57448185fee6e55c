/**
 * One position's answer from its entries: the totals, the moves by popularity with their
 * results and movers' average rating, and the top-rated and latest games through it, under a
 * filter of speeds, rating bands and months (lichess's explorer, in shogi's words).
 */
import type { Entry } from './entries.js';
import { usiOfCode } from './moves.js';
import { UNRATED_BAND } from './vocab.js';

export interface ExplorerFilter {
  /** speed indexes; null: every speed */
  readonly speeds: ReadonlySet<number> | null;
  /** band indexes; null: every band, the unrated games too */
  readonly bands: ReadonlySet<number> | null;
  /** month indexes, inclusive; null: open */
  readonly since: number | null;
  readonly until: number | null;
}

export const NO_FILTER: ExplorerFilter = { speeds: null, bands: null, since: null, until: null };

export interface MoveStats {
  readonly usi: string;
  readonly sente: number;
  readonly gote: number;
  readonly draws: number;
  /** the movers' average pre-game rating over the rated games; null with none */
  readonly averageRating: number | null;
  /** the only game of a move played once (its ref), else null */
  readonly game: number | null;
}

export interface GameRef {
  readonly ref: number;
  readonly usi: string;
}

export interface PositionStats {
  readonly sente: number;
  readonly gote: number;
  readonly draws: number;
  readonly moves: readonly MoveStats[];
  readonly topGames: readonly GameRef[];
  readonly recentGames: readonly GameRef[];
}

export interface Limits {
  readonly moves: number;
  readonly topGames: number;
  readonly recentGames: number;
}

export const matches = (e: Entry, f: ExplorerFilter): boolean =>
  (f.speeds === null || f.speeds.has(e.speed)) &&
  (f.bands === null || f.bands.has(e.band)) &&
  (f.since === null || e.month >= f.since) &&
  (f.until === null || e.month <= f.until);

interface Acc {
  sente: number;
  gote: number;
  draws: number;
  ratingSum: number;
  rated: number;
  game: number;
}

/** The answer for the entries of one position (other positions' entries must be left out). */
export function summarize(entries: Iterable<Entry>, filter: ExplorerFilter, limits: Limits): PositionStats {
  const byMove = new Map<number, Acc>();
  const top: { ref: number; rating: number; move: number }[] = [];
  const recent: { ref: number; move: number }[] = [];
  let sente = 0;
  let gote = 0;
  let draws = 0;
  for (const e of entries) {
    if (!matches(e, filter)) continue;
    let a = byMove.get(e.move);
    if (a === undefined) {
      a = { sente: 0, gote: 0, draws: 0, ratingSum: 0, rated: 0, game: e.top };
      byMove.set(e.move, a);
    }
    const n = e.sente + e.gote + e.draws;
    a.sente += e.sente;
    a.gote += e.gote;
    a.draws += e.draws;
    if (e.band !== UNRATED_BAND) {
      a.ratingSum += e.ratingSum;
      a.rated += n;
    }
    sente += e.sente;
    gote += e.gote;
    draws += e.draws;
    if (e.topRating > 0) top.push({ ref: e.top, rating: e.topRating, move: e.move });
    recent.push({ ref: e.recent, move: e.move });
  }
  const moves = [...byMove.entries()]
    .map(([move, a]) => ({ move, a, n: a.sente + a.gote + a.draws }))
    .sort((x, y) => y.n - x.n || x.move - y.move)
    .slice(0, limits.moves)
    .map(
      ({ move, a, n }): MoveStats => ({
        usi: usiOfCode(move),
        sente: a.sente,
        gote: a.gote,
        draws: a.draws,
        averageRating: a.rated === 0 ? null : Math.round(a.ratingSum / a.rated),
        game: n === 1 ? a.game : null,
      }),
    );
  return {
    sente,
    gote,
    draws,
    moves,
    topGames: distinct(
      top.sort((x, y) => y.rating - x.rating || y.ref - x.ref),
      limits.topGames,
    ),
    recentGames: distinct(
      recent.sort((x, y) => y.ref - x.ref),
      limits.recentGames,
    ),
  };
}

function distinct(refs: readonly { ref: number; move: number }[], limit: number): GameRef[] {
  const seen = new Set<number>();
  const out: GameRef[] = [];
  for (const r of refs) {
    if (out.length >= limit) break;
    if (seen.has(r.ref)) continue;
    seen.add(r.ref);
    out.push({ ref: r.ref, usi: usiOfCode(r.move) });
  }
  return out;
}
