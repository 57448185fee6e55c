/**
 * Standings: every player's sheet, performance and rank, computed from the state alone (the
 * projection stores what this returns). Ranked as lishogi's `Player.magicScore`: score first,
 * then performance (the rating until a game is counted); equal players keep the order they joined in.
 */

import { type ScoringRules, type Sheet, type SheetGame, sheetOf } from './sheet.js';
import { colorOf, type PairingEntry, type PlayerEntry, type TournamentState } from './state.js';
import type { TournamentFormat } from './terms.js';

/** lishogi `TournamentApi.performanceOf`: the opponent's rating, plus 500 for a win, minus 500 for a loss. */
export const PERFORMANCE_SPREAD = 500;

export interface Standing {
  readonly player: PlayerEntry;
  readonly rank: number;
  readonly sheet: Sheet;
  readonly score: number;
  /** The mean of the games' performances, rounded; 0 before any counted game (lishogi's "none"). */
  readonly performance: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

export function scoringRulesOf(
  format: TournamentFormat,
  terms: { streakable: boolean; berserkable: boolean },
): ScoringRules {
  // a robin or a Swiss has every pair meet alike: no fire, no berserk, no draw rules (this server's choice)
  return format !== 'arena'
    ? { streakable: false, berserkable: false, drawRules: false }
    : { streakable: terms.streakable, berserkable: terms.berserkable, drawRules: true };
}

interface Counted {
  readonly pairing: PairingEntry;
  readonly game: SheetGame;
  readonly opponentRating: number;
}

function countedGames(state: TournamentState, player: PlayerEntry): Counted[] {
  const out: Counted[] = [];
  for (const id of player.gameIds) {
    const pairing = state.pairings.get(id);
    if (pairing?.result === undefined) continue;
    const color = colorOf(pairing, player.id);
    if (color === null) continue;
    const { winner, plies } = pairing.result;
    // a forfeit with no winner: neither showed, both lose
    const result = winner === null ? (pairing.result.forfeit ? 'loss' : 'draw') : winner === color ? 'win' : 'loss';
    const opponent = state.players.get(color === 'sente' ? pairing.gote : pairing.sente);
    out.push({
      pairing,
      game: { result, plies, berserk: pairing.berserk[color] },
      opponentRating: opponent?.rating ?? player.rating,
    });
  }
  // a player has one game at a time: the order paired is the order played
  return out;
}

/** A player's standing but for the rank: their sheet, score, performance and results. */
export type Unranked = Omit<Standing, 'rank'>;

/** One player's standing but for the rank, from their own games alone (O(their games)). */
export function unrankedStandingOf(state: TournamentState, player: PlayerEntry): Unranked {
  const terms = state.terms;
  const rules = scoringRulesOf(terms?.format ?? 'arena', terms ?? { streakable: true, berserkable: true });
  const games = countedGames(state, player);
  const sheet = sheetOf(
    games.map((g) => g.game),
    rules,
  );
  let perf = 0;
  let wins = 0;
  let draws = 0;
  let losses = 0;
  for (const g of games) {
    const sign = g.game.result === 'win' ? 1 : g.game.result === 'loss' ? -1 : 0;
    perf += g.opponentRating + PERFORMANCE_SPREAD * sign;
    if (sign > 0) wins++;
    else if (sign < 0) losses++;
    else draws++;
  }
  const performance = games.length === 0 ? 0 : Math.round(perf / games.length);
  return { player, sheet, score: sheet.total, performance, wins, draws, losses };
}

/** The second key of the ranking: the performance, or the rating before any counted game. */
export const tiebreakOf = (s: Pick<Unranked, 'performance' | 'player'>): number =>
  s.performance > 0 ? s.performance : s.player.rating;

/**
 * The ranking's order: score, then `tiebreakOf`, then the join order (`entered`). The projection
 * stores the three keys and ranks by them when read, in this order.
 */
export const compareStandings = (a: Unranked, b: Unranked): number =>
  b.score - a.score || tiebreakOf(b) - tiebreakOf(a) || a.player.entered - b.player.entered;

export function standingsOf(state: TournamentState): Standing[] {
  if (state.terms === null) return [];
  // an ejected player is in no standings; the others' ranks close up (lila removes the player)
  const rows = [...state.players.values()]
    .filter((player) => player.ejected !== true)
    .map((player) => unrankedStandingOf(state, player));
  rows.sort(compareStandings);
  return rows.map((r, i) => ({ ...r, rank: i + 1 }));
}

/** Each player's rank (1-based), for the pairer. */
export const ranksOf = (standings: readonly Standing[]): Map<string, number> =>
  new Map(standings.map((s) => [s.player.id, s.rank]));
