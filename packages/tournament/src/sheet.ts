/**
 * A player's score sheet: each counted game's points in order, the total and the fire. The rules
 * are lila's and lishogi's `arena/ArenaSheet.scala` (lishogi's "V2", the one in force since
 * 2020-04-21), each constant below naming where it comes from.
 */

/** lila/lishogi `Pairing.quickDraw`: a draw in fewer plies scores nothing. */
export const QUICK_DRAW_PLIES = 20;
/** lila/lishogi `Pairing.notSoQuickFinish`: a berserk win earns its point from this many plies (7 moves each). */
export const BERSERK_MIN_PLIES = 14;
/** lishogi `Pairing.longGame`: a draw this long is never a draw streak's. */
export const LONG_GAME_PLIES = 60;

export type SheetResult = 'win' | 'draw' | 'loss';

/** One counted game as its player sees it. */
export interface SheetGame {
  readonly result: SheetResult;
  readonly plies: number;
  /** The player berserked in it. */
  readonly berserk: boolean;
}

export interface ScoringRules {
  /** Two wins in a row set a player on fire: each result counts double until a non-win. */
  readonly streakable: boolean;
  /** A berserk win of at least BERSERK_MIN_PLIES plies earns one more point. */
  readonly berserkable: boolean;
  /** The draw rules: a quick draw scores 0, and so does a short draw after a draw with no win between. */
  readonly drawRules: boolean;
}

/** lishogi's flags: `double` on fire, `streak` a win that starts or continues a streak, `null` a draw streak's draw. */
export type ScoreFlag = 'double' | 'streak' | 'normal' | 'null';

export interface SheetScore {
  readonly result: SheetResult;
  /** A draw under QUICK_DRAW_PLIES plies (lila's `ResDQ`): 0, and not a draw for the fire. */
  readonly quickDraw: boolean;
  readonly flag: ScoreFlag;
  readonly berserk: 'none' | 'valid' | 'invalid';
  readonly value: number;
}

export interface Sheet {
  /** In the order played. */
  readonly scores: readonly SheetScore[];
  readonly total: number;
  /** The last two results are wins (and the event is streakable). */
  readonly fire: boolean;
}

const isWin = (s: SheetScore | undefined): boolean => s?.result === 'win';

/** lila `isOnFire`: the last two results are wins. */
const onFire = (scores: readonly SheetScore[]): boolean =>
  isWin(scores[scores.length - 1]) && isWin(scores[scores.length - 2]);

/** lishogi `isDrawStreak`: looking back past losses, a draw comes before any win. */
function drawStreak(scores: readonly SheetScore[]): boolean {
  for (let i = scores.length - 1; i >= 0; i--) {
    const s = scores[i] as SheetScore;
    if (s.result === 'draw') return true;
    if (s.result === 'win') return false;
  }
  return false;
}

function winFlag(scores: readonly SheetScore[], next: SheetGame | undefined, rules: ScoringRules): ScoreFlag {
  if (!rules.streakable) return 'normal';
  if (onFire(scores)) return 'double';
  if (scores[scores.length - 1]?.flag === 'streak') return 'streak';
  // lila: a win starts a streak when the next game is a win too, or when it is the last so far
  return next === undefined || next.result === 'win' ? 'streak' : 'normal';
}

function scoreOf(
  game: SheetGame,
  scores: readonly SheetScore[],
  next: SheetGame | undefined,
  rules: ScoringRules,
): SheetScore {
  const berserk = !rules.berserkable || !game.berserk ? 'none' : game.plies >= BERSERK_MIN_PLIES ? 'valid' : 'invalid';
  switch (game.result) {
    case 'draw': {
      if (rules.drawRules && game.plies < QUICK_DRAW_PLIES)
        return { result: 'draw', quickDraw: true, flag: 'normal', berserk, value: 0 };
      const flag: ScoreFlag =
        rules.streakable && onFire(scores)
          ? 'double'
          : rules.drawRules && game.plies < LONG_GAME_PLIES && drawStreak(scores)
            ? 'null'
            : 'normal';
      return {
        result: 'draw',
        quickDraw: false,
        flag,
        berserk,
        value: flag === 'double' ? 2 : flag === 'null' ? 0 : 1,
      };
    }
    case 'win': {
      const flag = winFlag(scores, next, rules);
      return {
        result: 'win',
        quickDraw: false,
        flag,
        berserk,
        value: (flag === 'double' ? 4 : 2) + (berserk === 'valid' ? 1 : 0),
      };
    }
    case 'loss':
      return { result: 'loss', quickDraw: false, flag: 'normal', berserk, value: 0 };
    default:
      return game.result satisfies never;
  }
}

export function sheetOf(games: readonly SheetGame[], rules: ScoringRules): Sheet {
  const scores: SheetScore[] = [];
  let total = 0;
  for (let i = 0; i < games.length; i++) {
    const score = scoreOf(games[i] as SheetGame, scores, games[i + 1], rules);
    scores.push(score);
    total += score.value;
  }
  return { scores, total, fire: rules.streakable && onFire(scores) };
}

/** lichess's `sheet.scores` string: each game's points, the most recent first. */
export const sheetScoresString = (sheet: Sheet): string =>
  sheet.scores
    .map((s) => s.value)
    .reverse()
    .join('');
