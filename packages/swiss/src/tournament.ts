// The tournament as the pairing rules see it: each player's rounds, score, colour history and the
// colour preference (C.04.1 and the Dutch system's A.6) derived from it. Points are kept in
// tenths, as the TRF writes them, so that every comparison stays an integer one.

export type Color = 'w' | 'b' | null;
export type MatchScore = 'loss' | 'draw' | 'win';

export const invert = (color: Color): Color => (color === 'w' ? 'b' : color === 'b' ? 'w' : null);

/** One player's round. An unpaired round has the player's own id as opponent. */
export interface Match {
  readonly opponent: number;
  readonly color: Color;
  readonly score: MatchScore;
  /** Both players sat at the board (not a forfeit, not a bye). */
  readonly played: boolean;
  /** Paired by the system: a game (even forfeited) or the pairing-allocated bye. */
  readonly participated: boolean;
}

export const absentMatch = (id: number): Match => ({
  opponent: id,
  color: null,
  score: 'loss',
  played: false,
  participated: false,
});

export interface Player {
  /** Zero-based pairing number (the TRF's start rank minus one). */
  readonly id: number;
  readonly name: string;
  readonly rating: number;
  matches: Match[];
  /** Points in tenths before this round's acceleration. */
  score: number;
  /** Accelerations (tenths) indexed by round. */
  accelerations: number[];
  /** The pairing number among the players taking part, used for colours and ties. */
  rankIndex: number;
  valid: boolean;
  playedGames: number;
  colorImbalance: number;
  colorPreference: Color;
  /** The colour played in the last two played games when they were the same, else null. */
  repeatedColor: Color;
  strongColorPreference: boolean;
}

export interface PointSystem {
  win: number;
  draw: number;
  loss: number;
  zeroPointBye: number;
  forfeitLoss: number;
  pairingAllocatedBye: number;
}

export const defaultPoints = (): PointSystem => ({
  win: 10,
  draw: 5,
  loss: 0,
  zeroPointBye: 0,
  forfeitLoss: 0,
  pairingAllocatedBye: 10,
});

export interface Tournament {
  /** Indexed by id; a hole in the pairing numbers is an invalid player. */
  players: Player[];
  playedRounds: number;
  expectedRounds: number;
  points: PointSystem;
  /** The colour the top-ranked player had (or would have had) in round 1. */
  initialColor: Color;
  /** Pairs of ids that may never meet (TRF XXP lines). */
  forbiddenPairs: Set<number>[];
}

export const absoluteColorImbalance = (p: Player): boolean => p.colorImbalance > 1;
export const absoluteColorPreference = (p: Player): boolean => p.colorImbalance > 1 || p.repeatedColor !== null;

export function pointsFor(t: Tournament, player: Player, match: Match): number {
  const pts = t.points;
  if (match.score === 'loss') {
    return match.participated ? (match.played ? pts.loss : pts.forfeitLoss) : pts.zeroPointBye;
  }
  if (match.score === 'win') {
    return match.opponent === player.id && match.participated ? pts.pairingAllocatedBye : pts.win;
  }
  return pts.draw;
}

/** The score with acceleration as it stood `roundsBack` rounds before the round being paired. */
export function scoreWithAcceleration(t: Tournament, player: Player, roundsBack = 0): number {
  let score = player.score;
  let round = t.playedRounds;
  for (let back = roundsBack; back > 0; back--) {
    round--;
    score -= pointsFor(t, player, player.matches[round]!);
  }
  return score + (player.accelerations[round] ?? 0);
}

/** True when `a` ranks below `b`: a lower score, or the same score and a higher pairing rank. */
export function ranksBelow(t: Tournament, a: Player, b: Player): boolean {
  const sa = scoreWithAcceleration(t, a);
  const sb = scoreWithAcceleration(t, b);
  return sa < sb || (sa === sb && a.rankIndex > b.rankIndex);
}

/** A player may receive the pairing-allocated bye unless an unplayed round already scored a win. */
export function eligibleForBye(t: Tournament, player: Player): boolean {
  for (const match of player.matches) {
    if (!match.played && pointsFor(t, player, match) >= t.points.win) return false;
  }
  return true;
}

/** Colour history: imbalance, the repeated colour and the preference with its strength. */
export function computePlayerData(t: Tournament): void {
  for (const player of t.players) {
    if (!player.valid) continue;
    let white = 0;
    let black = 0;
    let consecutive = 0;
    let played = 0;
    let repeated: Color = null;
    for (const match of player.matches) {
      if (!match.played) continue;
      played++;
      if (match.color === 'w') white++;
      else black++;
      consecutive = consecutive === 0 || match.color !== repeated ? 1 : consecutive + 1;
      repeated = match.color;
    }
    const lowerColor: Color = white > black ? 'b' : 'w';
    player.playedGames = played;
    player.colorImbalance = Math.abs(white - black);
    player.colorPreference =
      player.colorImbalance > 1
        ? lowerColor
        : consecutive > 1
          ? invert(repeated)
          : player.colorImbalance > 0
            ? lowerColor
            : consecutive > 0
              ? invert(repeated)
              : null;
    player.repeatedColor = consecutive > 1 ? repeated : null;
    player.strongColorPreference = !absoluteColorPreference(player) && player.colorImbalance > 0;
  }
}

/** Valid players and their pairing ranks, as the round about to be paired sees them. */
export function updateRanks(t: Tournament): void {
  let rank = 0;
  for (const player of t.players) {
    if (player.id < 0) continue;
    player.valid = player.matches.length <= t.playedRounds || player.matches.some((m) => m.participated);
    if (player.valid) player.rankIndex = rank++;
  }
}
