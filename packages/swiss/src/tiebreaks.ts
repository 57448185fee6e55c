// FIDE C.07 tie-breaks for individual Swiss events, as pure functions of the rounds played.
// Points are in tenths. The handling of unplayed rounds follows C.07 (2023) §16: in an
// opponent's score, each of the opponent's unplayed rounds counts as a draw; each of the player's
// own unplayed rounds counts as a game against a dummy opponent with the player's own score.

import { type Match, pointsFor, type Tournament } from './tournament.js';

export type TieBreak = 'buchholz' | 'buchholz-cut1' | 'sonneborn-berger' | 'direct-encounter' | 'wins' | 'games-won';

/** The final score of a player: every round written, unplayed ones as scored. */
export function finalScore(t: Tournament, id: number, rounds = t.playedRounds): number {
  const player = t.players[id]!;
  let score = 0;
  for (let r = 0; r < rounds && r < player.matches.length; r++) score += pointsFor(t, player, player.matches[r]!);
  return score;
}

/** The score used for an opponent's strength: unplayed rounds count as draws (§16.3). */
export function adjustedScore(t: Tournament, id: number, rounds = t.playedRounds): number {
  const player = t.players[id]!;
  let score = 0;
  for (let r = 0; r < rounds; r++) {
    const match = player.matches[r];
    score += match?.played ? pointsFor(t, player, match) : t.points.draw;
  }
  return score;
}

interface Contribution {
  readonly match: Match | undefined;
  readonly opponentScore: number;
  readonly points: number;
}

function contributions(t: Tournament, id: number, rounds: number): Contribution[] {
  const player = t.players[id]!;
  const own = finalScore(t, id, rounds);
  const result: Contribution[] = [];
  for (let r = 0; r < rounds; r++) {
    const match = player.matches[r];
    const points = match === undefined ? 0 : pointsFor(t, player, match);
    const opponentScore = match?.played ? adjustedScore(t, match.opponent, rounds) : own;
    result.push({ match, opponentScore, points });
  }
  return result;
}

/** BH (§8.1): the sum of the opponents' scores; `cut` drops that many of the lowest (§14.1). */
export function buchholz(t: Tournament, id: number, cut = 0, rounds = t.playedRounds): number {
  const scores = contributions(t, id, rounds)
    .map((c) => c.opponentScore)
    .sort((a, b) => a - b);
  return scores.slice(Math.min(cut, scores.length)).reduce((sum, s) => sum + s, 0);
}

/** SB (§8.2): each opponent's score times the fraction of a win scored against them, in tenths. */
export function sonnebornBerger(t: Tournament, id: number, rounds = t.playedRounds): number {
  let total = 0;
  for (const c of contributions(t, id, rounds)) total += (c.opponentScore * c.points) / t.points.win;
  return total;
}

/** WIN (§7.1): rounds scored as a win, played or not. */
export function wins(t: Tournament, id: number, rounds = t.playedRounds): number {
  const player = t.players[id]!;
  let count = 0;
  for (let r = 0; r < rounds; r++) {
    const match = player.matches[r];
    if (match !== undefined && pointsFor(t, player, match) >= t.points.win) count++;
  }
  return count;
}

/** WON (§7.2): games won over the board. */
export function gamesWon(t: Tournament, id: number, rounds = t.playedRounds): number {
  return t.players[id]!.matches.slice(0, rounds).filter((m) => m.played && m.score === 'win').length;
}

/**
 * DE (§6): among the players tied on points with `id`, the points `id` scored in the games
 * they played each other; 0 when the tied players did not all meet (the tie stays unbroken).
 */
export function directEncounter(t: Tournament, id: number, rounds = t.playedRounds): number {
  const own = finalScore(t, id, rounds);
  const tied = t.players.filter((p) => p.valid && finalScore(t, p.id, rounds) === own).map((p) => p.id);
  const met = (a: number, b: number): boolean =>
    t.players[a]!.matches.slice(0, rounds).some((m) => m.played && m.opponent === b);
  for (const a of tied) for (const b of tied) if (a < b && !met(a, b)) return 0;
  const player = t.players[id]!;
  let points = 0;
  for (const match of player.matches.slice(0, rounds)) {
    if (match.played && tied.includes(match.opponent)) points += pointsFor(t, player, match);
  }
  return points;
}

export function tieBreakValue(t: Tournament, id: number, tieBreak: TieBreak, rounds = t.playedRounds): number {
  switch (tieBreak) {
    case 'buchholz':
      return buchholz(t, id, 0, rounds);
    case 'buchholz-cut1':
      return buchholz(t, id, 1, rounds);
    case 'sonneborn-berger':
      return sonnebornBerger(t, id, rounds);
    case 'direct-encounter':
      return directEncounter(t, id, rounds);
    case 'wins':
      return wins(t, id, rounds);
    case 'games-won':
      return gamesWon(t, id, rounds);
  }
}

export interface Standing {
  readonly id: number;
  readonly rank: number;
  readonly score: number;
  readonly tieBreaks: readonly number[];
}

/** The final ranking: score, then each tie-break in the order given, then the pairing number. */
export function standings(t: Tournament, order: readonly TieBreak[], rounds = t.playedRounds): Standing[] {
  const rows = t.players
    .filter((p) => p.valid)
    .map((p) => ({
      id: p.id,
      score: finalScore(t, p.id, rounds),
      tieBreaks: order.map((tb) => tieBreakValue(t, p.id, tb, rounds)),
    }));
  rows.sort((a, b) => {
    if (a.score !== b.score) return b.score - a.score;
    for (let i = 0; i < order.length; i++) {
      if (a.tieBreaks[i] !== b.tieBreaks[i]) return b.tieBreaks[i]! - a.tieBreaks[i]!;
    }
    return a.id - b.id;
  });
  return rows.map((row, index) => ({ ...row, rank: index + 1 }));
}
