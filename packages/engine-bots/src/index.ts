export { shouldDeclareImpasse } from './impasse.js';
export {
  analysisOptions,
  type EngineResources,
  isLevel,
  LEVEL_NUMBERS,
  LEVELS,
  type Level,
  type LevelSpec,
  levelOptions,
} from './levels.js';
export { isHopeless, RESIGNATION, shouldResign } from './resignation.js';
export { DEFAULT_TIME_USE, MIN_MOVETIME_MS, searchLimitsFor, type TimeUseOptions } from './time-use.js';
