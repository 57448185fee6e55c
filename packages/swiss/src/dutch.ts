// The FIDE Dutch system (C.04.3, in force from 1 July 2025) as bbpPairings computes it: every
// absolute, completion and quality criterion is a field of one edge weight, most important
// first, and a maximum-weight matching over all the players to pair picks the round. Bracket by
// bracket, decisions are then fixed one at a time (which moved-down players are paired, their
// opponents, the exchanges, each pair), each fixed by re-weighting and matching again.
// Ported from bbpPairings' src/swisssystems/dutch.cpp (Apache-2.0, see NOTICE).

import { MatchingComputer } from './matching-computer.js';
import {
  absoluteColorImbalance,
  absoluteColorPreference,
  type Color,
  eligibleForBye,
  invert,
  type Player,
  pointsFor,
  ranksBelow,
  scoreWithAcceleration,
  type Tournament,
} from './tournament.js';

export class NoValidPairingError extends Error {
  override readonly name = 'NoValidPairingError';
}

/** A pair of ids: `white` moves first (in shogi, sente). A bye has `black` null. */
export interface Pairing {
  readonly white: number;
  readonly black: number | null;
}

const FLOAT_DOWN = 0;
const FLOAT_UP = 1;
const FLOAT_NONE = 2;

const bit = (flag: boolean): bigint => (flag ? 1n : 0n);

const bitsToRepresent = (value: number): number => (value === 0 ? 0 : Math.floor(Math.log2(value)) + 1);

export const colorPreferencesAreCompatible = (a: Color, b: Color): boolean => a !== b || a === null || b === null;

function lastPlayedColors(player: Player, opponent: Player): [Color, Color] {
  const a = player.matches.filter((m) => m.played);
  const b = opponent.matches.filter((m) => m.played);
  let i = a.length - 1;
  let j = b.length - 1;
  while (i >= 0 && j >= 0 && a[i]!.color === b[j]!.color) {
    i--;
    j--;
  }
  return [i >= 0 ? a[i]!.color : null, j >= 0 ? b[j]!.color : null];
}

/** C.04.3 E.1-E.4: the colour that follows from the two players' preferences and histories. */
export function neutralColor(player: Player, opponent: Player): Color {
  if (colorPreferencesAreCompatible(player.colorPreference, opponent.colorPreference)) {
    if (player.colorPreference !== null) return player.colorPreference;
    if (opponent.colorPreference !== null) return invert(opponent.colorPreference);
    return null;
  }
  const pAbs = absoluteColorPreference(player);
  const oAbs = absoluteColorPreference(opponent);
  if (pAbs && (player.colorImbalance > opponent.colorImbalance || !oAbs)) return player.colorPreference;
  if (oAbs && (opponent.colorImbalance > player.colorImbalance || !pAbs)) return invert(opponent.colorPreference);
  if (player.strongColorPreference && !opponent.strongColorPreference) return player.colorPreference;
  if (opponent.strongColorPreference && !player.strongColorPreference) return invert(opponent.colorPreference);
  const [mine, theirs] = lastPlayedColors(player, opponent);
  return mine !== null && theirs !== null ? theirs : null;
}

/** The colour `player` gets against `opponent` (E.5: the higher-ranked player's preference). */
export function choosePlayerColor(t: Tournament, player: Player, opponent: Player): Color {
  const neutral = neutralColor(player, opponent);
  if (neutral !== null) return neutral;
  const playerIsLower = ranksBelow(t, player, opponent);
  if (player.colorPreference === null) {
    return playerIsLower
      ? opponent.rankIndex & 1
        ? t.initialColor
        : invert(t.initialColor)
      : player.rankIndex & 1
        ? invert(t.initialColor)
        : t.initialColor;
  }
  return playerIsLower ? invert(opponent.colorPreference) : player.colorPreference;
}

interface Context {
  readonly t: Tournament;
  readonly forbidden: Set<number>[];
  readonly score: Int32Array;
  /** floats[roundsBack - 1][id] */
  readonly floats: Uint8Array[];
  readonly byeEligible: Uint8Array;
  readonly scoreGroupSizeBits: number;
  readonly scoreGroupsShift: number;
  readonly scoreGroupShifts: Map<number, number>;
  readonly scoreGroupSizeBitsBig: bigint;
  readonly scoreGroupsShiftBig: bigint;
  readonly scoreGroupShiftsBig: Map<number, bigint>;
  byeAssigneeScore: number;
  isSingleDownfloaterTheByeAssignee: boolean;
  unplayedGameRanks: Map<number, number>;
}

function getFloat(t: Tournament, player: Player, roundsBack: number): number {
  const match = player.matches[t.playedRounds - roundsBack]!;
  if (!match.played) return pointsFor(t, player, match) > t.points.loss ? FLOAT_DOWN : FLOAT_NONE;
  const mine = scoreWithAcceleration(t, player, roundsBack);
  const theirs = scoreWithAcceleration(t, t.players[match.opponent]!, roundsBack);
  return mine > theirs ? FLOAT_DOWN : mine < theirs ? FLOAT_UP : FLOAT_NONE;
}

function compatible(ctx: Context, a: Player, b: Player): boolean {
  const t = ctx.t;
  if (ctx.forbidden[a.id]!.has(b.id)) return false;
  if (!absoluteColorPreference(a) || !absoluteColorPreference(b) || a.colorPreference !== b.colorPreference) {
    return true;
  }
  // Topscorers in the last round may meet despite equal absolute preferences (C.04.3 A.7).
  const topScoreThreshold = (t.playedRounds * Math.max(t.points.win, t.points.draw)) >> 1;
  return (
    t.playedRounds >= t.expectedRounds - 1 &&
    (ctx.score[a.id]! > topScoreThreshold || ctx.score[b.id]! > topScoreThreshold)
  );
}

const isByeCandidate = (ctx: Context, p: Player): boolean =>
  ctx.byeEligible[p.id] === 1 && ctx.score[p.id]! <= ctx.byeAssigneeScore;

function computeEdgeWeight(
  ctx: Context,
  higher: Player,
  lower: Player,
  lowerInCurrentBracket: boolean,
  lowerInNextBracket: boolean,
): bigint {
  if (!compatible(ctx, higher, lower)) return 0n;
  const t = ctx.t;
  const s = ctx.scoreGroupSizeBitsBig;
  const g = ctx.scoreGroupsShiftBig;
  const sh = ctx.score[higher.id]!;
  const sl = ctx.score[lower.id]!;
  const shiftOf = ctx.scoreGroupShiftsBig;

  // Completion (C.04.3 C.4) and the bye's eligibility.
  let w = 1n + bit(!isByeCandidate(ctx, higher)) + bit(!isByeCandidate(ctx, lower));
  // C.6: the number of pairs in the bracket; C.7: the scores paired in it.
  w = (w << s) + bit(lowerInCurrentBracket);
  w <<= g;
  if (lowerInCurrentBracket) w += 1n << shiftOf.get(sh)!;
  // The same for the next bracket (C.8).
  w = (w << s) + bit(lowerInNextBracket);
  w <<= g;
  if (lowerInNextBracket) w += 1n << shiftOf.get(sh)!;
  // C.9: the fewest unplayed games for the bye's assignee.
  w <<= 2n * s;
  if (ctx.isSingleDownfloaterTheByeAssignee) {
    if (sh === ctx.byeAssigneeScore) w += BigInt(ctx.unplayedGameRanks.get(higher.playedGames)!);
    if (sl === ctx.byeAssigneeScore) w += BigInt(ctx.unplayedGameRanks.get(lower.playedGames)!);
  }
  // C.10-C.13: colour preferences (player = lower, opponent = higher).
  const mask = lowerInCurrentBracket;
  const p = lower;
  const o = higher;
  w =
    (w << s) +
    bit(mask && (!absoluteColorImbalance(p) || !absoluteColorImbalance(o) || p.colorPreference !== o.colorPreference));
  w =
    (w << s) +
    bit(
      mask &&
        (!absoluteColorPreference(p) ||
          !absoluteColorPreference(o) ||
          p.colorPreference !== o.colorPreference ||
          (p.colorImbalance === o.colorImbalance
            ? p.repeatedColor === null || p.repeatedColor !== o.repeatedColor
            : (p.colorImbalance > o.colorImbalance ? o : p).repeatedColor !== invert(p.colorPreference))),
    );
  w = (w << s) + bit(mask && colorPreferencesAreCompatible(p.colorPreference, o.colorPreference));
  w =
    (w << s) +
    bit(
      mask &&
        ((!p.strongColorPreference && !absoluteColorPreference(p)) ||
          (!o.strongColorPreference && !absoluteColorPreference(o)) ||
          (absoluteColorPreference(p) && absoluteColorPreference(o)) ||
          p.colorPreference !== o.colorPreference),
    );
  // C.14-C.17: floaters repeated from one and two rounds before.
  for (let back = 1; back <= 2; back++) {
    if (t.playedRounds < back) break;
    w <<= s;
    if (lowerInCurrentBracket) {
      w += bit(ctx.floats[back - 1]![lower.id]! === FLOAT_DOWN);
      w += bit(sh <= sl && ctx.floats[back - 1]![higher.id]! === FLOAT_DOWN);
    }
    w <<= s;
    if (lowerInCurrentBracket) w += bit(!(sh > sl && ctx.floats[back - 1]![lower.id]! === FLOAT_UP));
  }
  // C.18-C.21: the scores of those floaters.
  for (let back = 1; back <= 2; back++) {
    if (t.playedRounds < back) break;
    w <<= g;
    if (lowerInCurrentBracket) {
      w += bit(ctx.floats[back - 1]![lower.id]! === FLOAT_DOWN) << shiftOf.get(sl)!;
      w += bit(ctx.floats[back - 1]![higher.id]! === FLOAT_DOWN) << shiftOf.get(sh)!;
    }
    w <<= g;
    if (lowerInCurrentBracket && !(ctx.floats[back - 1]![lower.id]! === FLOAT_UP && sh > sl))
      w += 1n << shiftOf.get(sh)!;
  }
  // Room for the order of pairing within heterogeneous and homogeneous brackets.
  return w << (3n * s + 1n);
}

// bbpPairings gives the settled pair the heaviest weight and drops every other edge at its two
// players: the pair is in every maximum matching, so it leaves the graph instead.
const finalizePair = (mc: MatchingComputer, v0: number, v1: number): void => mc.fixPair(v0, v1);

// A player's choice of opponent: its edges gain increasing addends, the highest for the
// opponent it should take, and a maximum matching is found again. When the last maximum
// matching can hand the player that opponent at no loss of weight (the opponent's partner
// takes the player's), that matching is the new maximum and no search is needed: under the
// old weights it is as heavy as any, and it alone gets the highest addend.
interface Choice {
  readonly player: number;
  /** The player's partner in the last maximum matching, and that edge's weight then. */
  readonly mate: number;
  readonly weightToMate: bigint;
  top: number;
  topAddend: bigint;
  /** The weight of the edge to `top` before its addend. */
  weightToTop: bigint;
}

const startChoice = (mc: MatchingComputer, stable: number[], player: number): Choice => {
  const mate = stable[player]!;
  return {
    player,
    mate,
    weightToMate: mate === player ? 0n : mc.edgeWeight(player, mate),
    top: -1,
    topAddend: 0n,
    weightToTop: 0n,
  };
};

/** Records an opponent offered before its edge is re-weighted; the last one offered is the top. */
function offer(choice: Choice, mc: MatchingComputer, opponent: number, addend: bigint): void {
  choice.top = opponent;
  choice.topAddend = addend;
  choice.weightToTop = mc.edgeWeight(choice.player, opponent);
}

/** The last maximum matching with the player handed its top opponent, or null if that loses weight. */
function takeTop(choice: Choice, mc: MatchingComputer, stable: number[]): number[] | null {
  const { player, mate, top } = choice;
  // The top opponent must beat every other edge of the player, untouched ones included.
  if (top < 0 || choice.topAddend === 0n || mate === player || choice.weightToTop === 0n) return null;
  if (mate === top) return stable;
  const other = stable[top]!;
  if (other === top) {
    if (choice.weightToTop !== choice.weightToMate) return null;
    stable[mate] = mate;
  } else {
    const swapped = mc.edgeWeight(mate, other);
    if (swapped === 0n || choice.weightToTop + swapped !== choice.weightToMate + mc.edgeWeight(top, other)) {
      return null;
    }
    stable[mate] = other;
    stable[other] = mate;
  }
  stable[player] = top;
  stable[top] = player;
  return stable;
}

function matchingIsComplete(ctx: Context, matching: number[], sorted: Player[]): boolean {
  let unmatched = false;
  for (let v = 0; v < matching.length; v++) {
    if (matching[v] !== v) continue;
    if (unmatched || ctx.byeEligible[sorted[v]!.id] !== 1) return false;
    unmatched = true;
  }
  return true;
}

/** The players the round pairs: valid, present (no bye requested for it). */
export function playersToPair(t: Tournament): Player[] {
  return t.players.filter((p) => p.valid && p.matches.length <= t.playedRounds);
}

/**
 * Pairs the next round of `t`. Returns the pairs (white first) and the pairing-allocated bye, in
 * the order of the players' ranks. Throws NoValidPairingError when no pairing satisfies the
 * absolute criteria.
 */
export function pairDutch(t: Tournament): Pairing[] {
  const forbidden = t.forbiddenPairs.map((set) => new Set(set));
  const sorted: Player[] = [];
  for (const player of t.players) {
    if (!player.valid) continue;
    if (player.matches.length <= t.playedRounds) sorted.push(player);
    for (const match of player.matches) if (match.played) forbidden[player.id]!.add(match.opponent);
  }
  if (sorted.length === 0) return [];
  const score = new Int32Array(t.players.length);
  for (const player of t.players) if (player.valid) score[player.id] = scoreWithAcceleration(t, player);
  sorted.sort((a, b) => score[b.id]! - score[a.id]! || a.rankIndex - b.rankIndex);

  const floats = [1, 2].map((back) => {
    const row = new Uint8Array(t.players.length).fill(FLOAT_NONE);
    if (t.playedRounds >= back) for (const p of sorted) row[p.id] = getFloat(t, p, back);
    return row;
  });
  const byeEligible = new Uint8Array(t.players.length);
  for (const p of sorted) byeEligible[p.id] = eligibleForBye(t, p) ? 1 : 0;

  // Bits to weigh each score group's pairs apart from the others.
  let scoreGroupsShift = 0;
  const scoreGroupShifts = new Map<number, number>();
  let maxScoreGroupSize = 0;
  let repeated = 0;
  for (let i = sorted.length - 1; i >= 0; i--) {
    repeated++;
    const current = score[sorted[i]!.id]!;
    if (i === 0 || current < score[sorted[i - 1]!.id]!) {
      scoreGroupShifts.set(current, scoreGroupsShift);
      maxScoreGroupSize = Math.max(maxScoreGroupSize, repeated);
      scoreGroupsShift += bitsToRepresent(repeated);
      repeated = 0;
    }
  }
  const ctx: Context = {
    t,
    forbidden,
    score,
    floats,
    byeEligible,
    scoreGroupSizeBits: bitsToRepresent(maxScoreGroupSize),
    scoreGroupsShift,
    scoreGroupShifts,
    scoreGroupSizeBitsBig: BigInt(bitsToRepresent(maxScoreGroupSize)),
    scoreGroupsShiftBig: BigInt(scoreGroupsShift),
    scoreGroupShiftsBig: new Map([...scoreGroupShifts].map(([score, shift]) => [score, BigInt(shift)])),
    byeAssigneeScore: 0,
    isSingleDownfloaterTheByeAssignee: false,
    unplayedGameRanks: new Map(),
  };
  const n = sorted.length;
  const mc = new MatchingComputer(n);
  const odd = (n & 1) === 1;
  const topScore = score[sorted[0]!.id]!;
  const sgsb = BigInt(ctx.scoreGroupSizeBits);

  // First, the completion alone: is any pairing possible, and who can take the bye?
  for (let pi = 0; pi < n; pi++) {
    const player = sorted[pi]!;
    for (let oi = 0; oi < pi; oi++) {
      const opponent = sorted[oi]!;
      if (odd) {
        let w = 0n;
        if (compatible(ctx, player, opponent)) {
          w = 1n + (byeEligible[player.id] ? 0n : 1n) + (byeEligible[opponent.id] ? 0n : 1n);
          w <<= BigInt(scoreGroupsShift);
          w |= BigInt(scoreGroupShifts.get(score[player.id]!)! + scoreGroupShifts.get(score[opponent.id]!)!);
          w <<= sgsb;
          w |= score[player.id]! >= topScore ? 1n : 0n;
        }
        mc.setEdgeWeight(pi, oi, w);
      } else {
        mc.setEdgeWeight(pi, oi, computeEdgeWeight(ctx, opponent, player, false, false));
      }
    }
  }
  {
    const matching = mc.computeMatching();
    if (!matchingIsComplete(ctx, matching, sorted)) {
      throw new NoValidPairingError(
        'The players could not be simultaneously matched while satisfying all absolute criteria.',
      );
    }
    if (odd) {
      for (let v = 0; v < n; v++) {
        if (matching[v] === v) {
          ctx.byeAssigneeScore = score[sorted[v]!.id]!;
          break;
        }
      }
      if (ctx.byeAssigneeScore >= topScore) {
        ctx.isSingleDownfloaterTheByeAssignee = true;
        for (let v = 0; v < n; v++) {
          if (score[sorted[v]!.id]! < topScore) break;
          if (score[sorted[matching[v]!]!.id]! < topScore) {
            ctx.isSingleDownfloaterTheByeAssignee = false;
            break;
          }
        }
      }
      const playedCounts = sorted
        .filter((p) => score[p.id] === ctx.byeAssigneeScore)
        .map((p) => p.playedGames)
        .sort((a, b) => b - a);
      // Equal counts share the last rank given to them, as bbpPairings' map assignment leaves it.
      playedCounts.forEach((count, rank) => {
        ctx.unplayedGameRanks.set(count, rank);
      });
      for (let pi = 0; pi < n; pi++) {
        for (let oi = 0; oi < pi; oi++) {
          mc.setEdgeWeight(pi, oi, computeEdgeWeight(ctx, sorted[oi]!, sorted[pi]!, false, false));
        }
      }
    }
  }

  const matchingById = new Int32Array(t.players.length).fill(-1);
  let playersByIndex: Player[] = [];
  let vertexIndices: number[] = [];
  let next = 0;
  while (next < n && score[sorted[next]!.id]! >= topScore) {
    playersByIndex.push(sorted[next]!);
    vertexIndices.push(vertexIndices.length);
    next++;
  }
  const matched = new Uint8Array(n);
  let scoreGroupBegin = 0;
  let scoreGroupBeginVertex = 0;

  while (playersByIndex.length > 1 || next < n) {
    const nextScoreGroupBegin = playersByIndex.length;
    const nextScoreGroupBeginVertex = scoreGroupBeginVertex + (nextScoreGroupBegin - scoreGroupBegin);
    const scoreGroupStart = next;
    while (next < n && score[sorted[next]!.id]! >= score[sorted[scoreGroupStart]!.id]!) {
      playersByIndex.push(sorted[next]!);
      vertexIndices.push(vertexIndices[vertexIndices.length - 1]! + 1);
      next++;
    }

    // base[larger][smaller]
    const base: bigint[][] = playersByIndex.map(() => []);
    for (let larger = scoreGroupBegin; larger < playersByIndex.length; larger++) {
      const row = base[larger]!;
      for (let smaller = 0; smaller < larger; smaller++) {
        row.push(
          computeEdgeWeight(
            ctx,
            playersByIndex[smaller]!,
            playersByIndex[larger]!,
            larger < nextScoreGroupBegin,
            larger >= nextScoreGroupBegin,
          ),
        );
      }
    }
    for (let larger = 0; larger < base.length; larger++) {
      const row = base[larger]!;
      for (let smaller = 0; smaller < row.length; smaller++) {
        mc.setEdgeWeight(vertexIndices[larger]!, vertexIndices[smaller]!, row[smaller]!);
      }
    }

    const weightFor = (
      smaller: number,
      larger: number,
      smallerRemainderIndex: number,
      remainderPairs: number,
    ): bigint => {
      const result = base[larger]![smaller]!;
      if (result === 0n) return result;
      // Fewest exchanges, then the smallest difference of the exchanged numbers (C.04.3 B.3).
      let addend = smallerRemainderIndex < remainderPairs ? 1n : 0n;
      addend <<= 2n * sgsb;
      addend -= BigInt(smallerRemainderIndex);
      addend <<= 1n;
      return result + addend;
    };

    let stable = mc.computeMatching();
    const inBracket = (vertex: number): boolean =>
      stable[vertex]! >= scoreGroupBeginVertex && stable[vertex]! < nextScoreGroupBeginVertex;

    // Which moved-down players are paired in this bracket.
    let movedDownScore = 0;
    let remainingMovedDown = 0;
    let remainingMatchedMovedDown = 0;
    for (let pi = 0; pi < scoreGroupBegin; pi++) {
      const playerScore = score[playersByIndex[pi]!.id]!;
      if (pi === 0 || playerScore < movedDownScore) {
        movedDownScore = playerScore;
        remainingMatchedMovedDown = 0;
        remainingMovedDown = 0;
        for (let mi = pi; score[playersByIndex[mi]!.id]! >= movedDownScore; mi++) {
          remainingMovedDown++;
          if (inBracket(vertexIndices[mi]!)) remainingMatchedMovedDown++;
        }
      }
      if (remainingMatchedMovedDown === 0) continue;
      const playerVertex = vertexIndices[pi]!;
      if (remainingMovedDown <= remainingMatchedMovedDown) {
        matched[playerVertex] = 1;
        continue;
      }
      remainingMovedDown--;
      if (!inBracket(playerVertex)) {
        for (let oi = scoreGroupBegin; oi < nextScoreGroupBegin; oi++) {
          const w = base[oi]![pi]!;
          if (w !== 0n) mc.setEdgeWeight(playerVertex, vertexIndices[oi]!, w | 1n);
        }
        stable = mc.computeMatching();
      }
      if (inBracket(playerVertex)) {
        matched[playerVertex] = 1;
        remainingMatchedMovedDown--;
        for (let oi = scoreGroupBegin; oi < nextScoreGroupBegin; oi++) {
          const w = base[oi]![pi]!;
          if (w !== 0n) {
            mc.setEdgeWeight(
              playerVertex,
              vertexIndices[oi]!,
              (w | BigInt(nextScoreGroupBegin - scoreGroupBegin)) + 1n,
            );
          }
        }
      }
    }

    // Their opponents.
    for (let pi = 0; pi < scoreGroupBegin; pi++) {
      const playerVertex = vertexIndices[pi]!;
      if (!matched[playerVertex]) continue;
      let addend = BigInt(playersByIndex.length);
      const choice = startChoice(mc, stable, playerVertex);
      for (let oi = nextScoreGroupBegin - 1; oi >= scoreGroupBegin; oi--) {
        const opponentVertex = vertexIndices[oi]!;
        if (matched[opponentVertex]) continue;
        const w = base[oi]![pi]!;
        if (w !== 0n) {
          offer(choice, mc, opponentVertex, addend);
          mc.setEdgeWeight(playerVertex, opponentVertex, w + addend);
          addend++;
        }
      }
      stable = takeTop(choice, mc, stable) ?? mc.computeMatching();
      const matchVertex = stable[playerVertex]!;
      matched[matchVertex] = 1;
      finalizePair(mc, playerVertex, matchVertex);
    }

    // The remainder: the resident players not paired with moved-down players.
    const remainder: number[] = [];
    let remainderPairs = 0;
    for (let pi = scoreGroupBegin; pi < nextScoreGroupBegin; pi++) {
      const playerVertex = vertexIndices[pi]!;
      if (stable[playerVertex]! < scoreGroupBeginVertex) continue;
      remainder.push(pi);
      if (stable[playerVertex]! < playerVertex) remainderPairs++;
    }
    const firstGroupEnd = remainderPairs;

    for (let ri = 0; ri < remainder.length; ri++) {
      const oi = remainder[ri]!;
      const opponentVertex = vertexIndices[oi]!;
      for (let rj = 0; rj < remainder.length; rj++) {
        const pi = remainder[rj]!;
        if (oi <= pi) break;
        mc.setEdgeWeight(vertexIndices[pi]!, opponentVertex, weightFor(pi, oi, rj, remainderPairs));
      }
    }
    stable = mc.computeMatching();

    const isExchanged = (vertex: number): boolean =>
      stable[vertex]! <= vertex || stable[vertex]! >= nextScoreGroupBeginVertex;
    const pairsDownward = (vertex: number): boolean =>
      stable[vertex]! > vertex && stable[vertex]! < nextScoreGroupBeginVertex;

    let exchangeCount = 0;
    for (let ri = 0; ri < firstGroupEnd && ri < remainder.length; ri++) {
      if (isExchanged(vertexIndices[remainder[ri]!]!)) exchangeCount++;
    }

    // Exchange the lowest players of the first group where possible.
    let exchangesRemaining = exchangeCount;
    for (let ri = firstGroupEnd; ri > 0 && exchangesRemaining > 0; ) {
      ri--;
      const pi = remainder[ri]!;
      const playerVertex = vertexIndices[pi]!;
      if (pairsDownward(playerVertex)) {
        for (let rj = ri + 1; rj < remainder.length; rj++) {
          const w = weightFor(pi, remainder[rj]!, ri, remainderPairs);
          if (w !== 0n) mc.setEdgeWeight(playerVertex, vertexIndices[remainder[rj]!]!, w - 1n);
        }
        stable = mc.computeMatching();
      }
      const exchange = isExchanged(playerVertex);
      if (exchange) exchangesRemaining--;
      for (let rj = ri + 1; rj < remainder.length; rj++) {
        if (exchange) base[remainder[rj]!]![pi] = 0n;
        mc.setEdgeWeight(
          playerVertex,
          vertexIndices[remainder[rj]!]!,
          weightFor(pi, remainder[rj]!, ri, remainderPairs),
        );
      }
    }

    // Exchange the highest players of the second group where possible.
    exchangesRemaining = exchangeCount;
    for (let ri = firstGroupEnd; ri < remainder.length && exchangesRemaining > 1; ri++) {
      const pi = remainder[ri]!;
      const playerVertex = vertexIndices[pi]!;
      const alreadyExchanged = pairsDownward(playerVertex);
      if (!alreadyExchanged) {
        for (let rj = ri + 1; rj < remainder.length; rj++) {
          const w = weightFor(pi, remainder[rj]!, ri, remainderPairs);
          if (w !== 0n) mc.setEdgeWeight(playerVertex, vertexIndices[remainder[rj]!]!, w + 1n);
        }
        stable = mc.computeMatching();
      }
      if (pairsDownward(playerVertex)) {
        exchangesRemaining--;
        for (let rj = 0; rj < ri; rj++) {
          base[pi]![remainder[rj]!] = 0n;
          mc.setEdgeWeight(playerVertex, vertexIndices[remainder[rj]!]!, 0n);
        }
        for (let oi = nextScoreGroupBegin; oi < playersByIndex.length; oi++) {
          base[oi]![pi] = 0n;
          mc.setEdgeWeight(playerVertex, vertexIndices[oi]!, 0n);
        }
      }
      if (!alreadyExchanged) {
        for (let rj = ri + 1; rj < remainder.length; rj++) {
          mc.setEdgeWeight(
            playerVertex,
            vertexIndices[remainder[rj]!]!,
            weightFor(pi, remainder[rj]!, ri, remainderPairs),
          );
        }
      }
    }

    // Fix who is in which group, and drop the exchange bits.
    for (let ri = 0; ri < remainder.length; ri++) {
      const pi = remainder[ri]!;
      const playerVertex = vertexIndices[pi]!;
      for (let rj = ri + 1; rj < remainder.length; rj++) {
        const oi = remainder[rj]!;
        const opponentVertex = vertexIndices[oi]!;
        if (isExchanged(playerVertex) || pairsDownward(opponentVertex)) base[oi]![pi] = 0n;
        mc.setEdgeWeight(playerVertex, opponentVertex, base[oi]![pi]!);
      }
    }

    // Each player of the first group takes the highest opponent it can.
    for (const pi of remainder) {
      const playerVertex = vertexIndices[pi]!;
      if (!pairsDownward(playerVertex)) continue;
      let addend = 0n;
      const choice = startChoice(mc, stable, playerVertex);
      for (let rj = remainder.length - 1; rj >= 0; rj--) {
        const oi = remainder[rj]!;
        const opponentVertex = vertexIndices[oi]!;
        if (oi <= pi || matched[opponentVertex]) continue;
        const w = base[oi]![pi]!;
        if (w !== 0n) {
          offer(choice, mc, opponentVertex, addend);
          mc.setEdgeWeight(playerVertex, opponentVertex, w + addend);
        }
        addend++;
      }
      stable = takeTop(choice, mc, stable) ?? mc.computeMatching();
      const matchVertex = stable[playerVertex]!;
      matched[playerVertex] = 1;
      matched[matchVertex] = 1;
      finalizePair(mc, playerVertex, matchVertex);
    }

    // The next bracket: the unpaired players move down.
    const newPlayers: Player[] = [];
    const newVertices: number[] = [];
    scoreGroupBegin = 0;
    const groupScore = scoreGroupStart < n ? score[sorted[scoreGroupStart]!.id]! : 0;
    ctx.isSingleDownfloaterTheByeAssignee = odd && scoreGroupStart < n && ctx.byeAssigneeScore >= groupScore;
    for (let pi = 0; pi < playersByIndex.length; pi++) {
      const playerVertex = vertexIndices[pi]!;
      const player = playersByIndex[pi]!;
      if (pi < nextScoreGroupBegin && matched[playerVertex]) {
        const mate = sorted[stable[playerVertex]!]!;
        matchingById[player.id] = mate.id;
        matchingById[mate.id] = player.id;
      } else {
        newPlayers.push(player);
        newVertices.push(playerVertex);
        if (pi < nextScoreGroupBegin) scoreGroupBegin++;
        if (ctx.isSingleDownfloaterTheByeAssignee && score[sorted[stable[playerVertex]!]!.id]! < groupScore) {
          ctx.isSingleDownfloaterTheByeAssignee = false;
        }
      }
    }
    playersByIndex = newPlayers;
    vertexIndices = newVertices;
    scoreGroupBeginVertex = nextScoreGroupBeginVertex;
  }

  const result: Pairing[] = [];
  for (const player of sorted) {
    const mate = matchingById[player.id]!;
    if (mate < 0) {
      result.push({ white: player.id, black: null });
    } else if (player.id < mate) {
      const opponent = t.players[mate]!;
      const color = choosePlayerColor(t, player, opponent);
      result.push(color === 'w' ? { white: player.id, black: mate } : { white: mate, black: player.id });
    }
  }
  return result;
}
