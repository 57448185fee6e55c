export {
  ACCOUNT_VERDICTS,
  type AccountFacts,
  type AccountVerdict,
  type Aggregate,
  type AssessedGame,
  aggregate,
  weightOf,
} from './aggregate.js';
export { assessGame, GAME_VERDICTS, type GameAssessment, type GameVerdict, RULES, type Rule } from './assessment.js';
export { pointsToRefund, type Refund, refundsOf, type VictimGame } from './refunds.js';
export {
  centipawnLoss,
  coefVariation,
  deviation,
  type EngineScore,
  type Flags,
  flagsOf,
  highestChunkBlurs,
  mean,
  moveTimeCv,
  type PlayerGame,
  type PlayerMove,
  type Signals,
  SPEEDS,
  type Speed,
  signalsOf,
  streakCvs,
} from './signals.js';
export * from './thresholds.js';
