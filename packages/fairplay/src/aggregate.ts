/**
 * An account's verdict over its assessed rated games, as lishogi's PlayerAggregateAssessment
 * decides its action: markable (lila's Engine), reportable (reportVariousReasons) or fine
 * (Nothing). Unlike lishogi, which only reports, a markable account here is queued for a
 * moderator as markable; nothing marks an account but a moderator.
 */
import type { GameVerdict } from './assessment.js';
import type { Speed } from './signals.js';
import { deviation, mean } from './signals.js';
import { AGGREGATE as A, FLAT_TIMES_WEIGHT, TC_FACTOR } from './thresholds.js';

export const ACCOUNT_VERDICTS = ['markable', 'reportable', 'fine'] as const;
export type AccountVerdict = (typeof ACCOUNT_VERDICTS)[number];

/** What the aggregate reads of one game's assessment. */
export interface AssessedGame {
  readonly verdict: GameVerdict;
  readonly speed: Speed;
  readonly acpl: number;
  readonly blurPercent: number;
  readonly highlyConsistentMoveTimes: boolean;
  readonly meanMoveTimeMs: number | null;
  readonly moveTimeSdMs: number | null;
}

export interface AccountFacts {
  /** rated games played (all categories) */
  readonly ratedGames: number;
  /** the best rating over its categories; null when it has none */
  readonly bestRating: number | null;
}

export interface Aggregate {
  readonly verdict: AccountVerdict;
  readonly games: number;
  readonly cheating: number;
  readonly likelyCheating: number;
  readonly weightedCheating: number;
  readonly weightedLikelyCheating: number;
  /** markable but not actionable (the confidence groups disagree): reported instead */
  readonly actionable: boolean;
}

/** lila's weightedAssessmentValue: each game of that verdict by its speed's factor, times 1.6 with flat times. */
export const weightOf = (game: AssessedGame): number =>
  TC_FACTOR[game.speed] * (game.highlyConsistentMoveTimes ? FLAT_TIMES_WEIGHT : 1);

type Interval = { readonly avg: number; readonly low: number; readonly high: number };

/** lila's sfAvgGiven: the mean ACPL of the games that pass, with its 95 % interval; null under two games. */
function acplGiven(games: readonly AssessedGame[], pass: (g: AssessedGame) => boolean): Interval | null {
  const acpls = games.filter(pass).map((g) => g.acpl);
  if (acpls.length < 2) return null;
  const avg = mean(acpls);
  const width = (deviation(acpls) / Math.sqrt(acpls.length - 1)) * A.z;
  return { avg: Math.trunc(avg), low: Math.trunc(avg - width), high: Math.trunc(avg + width) };
}

/** lila's sigDif: the second group's mean above the first's by more than `dif`; null when a group is missing. */
const sigDif = (dif: number, a: Interval | null, b: Interval | null): boolean | null =>
  a === null || b === null ? null : b.avg - a.avg > dif;

const lowVariance = (g: AssessedGame): boolean =>
  g.meanMoveTimeMs !== null &&
  g.moveTimeSdMs !== null &&
  g.meanMoveTimeMs > 0 &&
  g.moveTimeSdMs / g.meanMoveTimeMs < A.lowVariance;

export function aggregate(games: readonly AssessedGame[], account: AccountFacts): Aggregate {
  const count = Math.max(1, games.length);
  const cheating = games.filter((g) => g.verdict === 'cheating');
  const likely = games.filter((g) => g.verdict === 'likely_cheating');
  const sum = (gs: readonly AssessedGame[]) => gs.reduce((a, g) => a + weightOf(g), 0);
  const wC = sum(cheating);
  const wL = sum(likely);
  const isGreat = (account.bestRating ?? 0) > A.greatRating && account.ratedGames >= A.greatGames;
  const isNew = account.ratedGames < A.newRatedGames;
  const worthLooking = account.ratedGames >= A.worthLookingAtGames;
  const m = A.markable;
  const r = A.reportable;
  const markable =
    !isGreat &&
    worthLooking &&
    (wC >= m.weightedCheating || wC + wL >= m.weightedCheatingOrLikely) &&
    (wC / count >= m.cheatingPercent / 100 || (wC + wL) / count >= m.likelyPercent / 100);
  const reportable =
    worthLooking &&
    (cheating.length >= r.cheating ||
      cheating.length + likely.length >= (isNew ? r.cheatingOrLikelyNew : r.cheatingOrLikely)) &&
    (wC / count >= r.cheatingPercent / 100 || (wC + wL) / count >= r.likelyPercent / 100);
  // blur and move-time groups (lila's hold group has no counterpart here)
  const difs = [
    sigDif(
      A.sigDifCp,
      acplGiven(games, (g) => g.blurPercent > 70),
      acplGiven(games, (g) => g.blurPercent <= 70),
    ),
    sigDif(
      A.sigDifCp,
      acplGiven(games, lowVariance),
      acplGiven(games, (g) => !lowVariance(g)),
    ),
  ];
  const actionable = difs.every((d) => d === null) || difs.some((d) => d === true) || count < A.actionableGames;
  const verdict: AccountVerdict = markable
    ? actionable
      ? 'markable'
      : 'reportable'
    : reportable
      ? 'reportable'
      : 'fine';
  return {
    verdict,
    games: games.length,
    cheating: cheating.length,
    likelyCheating: likely.length,
    weightedCheating: wC,
    weightedLikelyCheating: wL,
    actionable,
  };
}
