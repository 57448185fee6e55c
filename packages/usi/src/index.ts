export { type Side, searchBudgetMs, searchDeadlineMs, sideToMove } from './budget.js';
export {
  type BestmoveCheck,
  checkBestmove,
  checkPosition,
  type PositionCheck,
  type PositionProblem,
} from './check.js';
export {
  type CommandError,
  type CommandErrorCode,
  formatCommand,
  type GameResult,
  type OptionValue,
  type PositionSpec,
  type SearchLimits,
  type UsiCommand,
} from './commands.js';
export { UsiEngine } from './engine.js';
export {
  DEFAULT_MAX_LINE_LENGTH,
  DEFAULT_TIMEOUTS,
  type EngineConfig,
  type EngineTimeouts,
  engineConfigProblem,
  type SearchRequest,
} from './engine-config.js';
export { isUsiError, USI_ERRORS, UsiError, type UsiErrorCode } from './errors.js';
export { formatInfo, formatScore, parseInfoLine, type ScoreBound, type UsiInfo, type UsiScore } from './info.js';
export { LineSplitter, type SplitLine } from './line-splitter.js';
export { type Bestmove, type EngineMessage, formatEngineMessage, parseEngineLine } from './messages.js';
export {
  formatOption,
  OPTION_TYPES,
  type OptionType,
  optionValueProblem,
  parseOptionLine,
  type UsiOption,
} from './options.js';
export {
  EnginePool,
  type EnginePoolConfig,
  type EngineTask,
  type PoolStats,
  PRIORITY,
  type RunOptions,
  type TaskContext,
} from './pool.js';
export { PriorityQueue } from './queue.js';
export type { SearchHooks, SearchResult } from './search-run.js';
