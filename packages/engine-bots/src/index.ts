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
