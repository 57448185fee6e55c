export {
  type ExplorerGameInfo,
  explorerStats,
  gamesByRef,
  gamesOfRefs,
  PLAYER_EXPLORER_GAMES,
  playerExplorer,
  positionEntries,
} from './query.js';
export { type ExplorerReader, explorerReader } from './reader.js';
export {
  DERIVED_EXPLORER_TABLES,
  EXPLORER_SOURCES,
  type ExplorerSource,
  type ExplorerTables,
  MAX_RUNS,
} from './schema.js';
export { compactAll, compactBuckets, EXPLORER_PLIES, type ExplorerMode, explorerGame, writeExplorer } from './write.js';
