export {
  addInto,
  type BucketEntry,
  compareEntries,
  DEFAULT_PLIES,
  type Entry,
  type ExplorerGame,
  type ExplorerResult,
  entriesOfGame,
  mergeEntries,
} from './entries.js';
export { BUCKET_BITS, BUCKETS, keyOf, keyText, type PositionKey } from './keys.js';
export { moveCode, usiOfCode } from './moves.js';
export { OPENING_LINES, type Opening, openingAt, openingOf } from './openings.js';
export { forEachEntry, packEntries, unpackEntries } from './pack.js';
export {
  type ExplorerFilter,
  type GameRef,
  type Limits,
  type MoveStats,
  matches,
  NO_FILTER,
  type PositionStats,
  summarize,
} from './query.js';
export {
  type ExplorerQueryText,
  type ExplorerRequest,
  LIMITS,
  notationOf,
  type Parsed,
  parseExplorerRequest,
  type Refusal,
} from './request.js';
export {
  bandIndex,
  isSpeed,
  MONTH_ZERO_YEAR,
  monthIndexOf,
  monthText,
  parseMonth,
  RATING_BANDS,
  type RatingBand,
  SPEEDS,
  type Speed,
  speedIndex,
  speedOfCategory,
  UNRATED_BAND,
} from './vocab.js';
