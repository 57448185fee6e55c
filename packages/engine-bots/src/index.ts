export { analysisPlies, type PositionEvaluation } from './analysis.js';
export {
  type CommentEvaluation,
  commentEvaluations,
  type EngineComment,
  evaluationOfComment,
  parseEngineComment,
} from './engine-comment.js';
export { shouldDeclareImpasse } from './impasse.js';
export {
  ANALYSIS_JOB_ATTEMPTS,
  ANALYSIS_QUEUE,
  type AnalysisJobData,
  type AnalysisSetting,
  analysisChannel,
  analysisJobId,
  analysisSettingKey,
  ENGINE_MOVE_QUEUE,
  ENGINE_PRESENCE_TTL_MS,
  type EngineMoveJobData,
  type EngineMoveResult,
  type EnginePresence,
  enginePresenceKey,
  SCREENING_QUEUE,
  type ScreeningJobData,
  screeningJobId,
} from './jobs.js';
export { JUDGMENT_MODEL, judge, normaliseScore, UNKNOWN_MATE_PLIES, winningChances } from './judgment.js';
export {
  analysisOptions,
  type EngineResources,
  isLevel,
  LEVEL_NUMBERS,
  LEVELS,
  type Level,
  type LevelSpec,
  levelOptions,
  positionOptions,
} from './levels.js';
export {
  MATCH_ENDINGS,
  type MatchConfig,
  type MatchEnding,
  type MatchPlayer,
  type MatchResult,
  type MatchSearch,
  type MatchSearchAnswer,
  type MatchSearchRequest,
  playMatch,
} from './match.js';
export {
  POSITION_QUEUE,
  type PositionJobData,
  positionChannel,
  positionJobId,
  positionStopChannel,
} from './position-jobs.js';
export { isHopeless, RESIGNATION, shouldResign } from './resignation.js';
export { scoreOfText, scoreText } from './score-text.js';
export { formatTally, pointsOf } from './tally.js';
export { DEFAULT_TIME_USE, MIN_MOVETIME_MS, searchLimitsFor, type TimeUseOptions, timeLeftMs } from './time-use.js';
