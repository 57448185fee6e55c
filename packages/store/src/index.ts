export { VersionConflictError } from '@shogi/game';
export {
  type AccountCredentials,
  type CredentialRow,
  changePasswordHash,
  countActiveTokens,
  createAccount,
  deleteDeadTokens,
  findAccountById,
  findAccountByUsername,
  findCredential,
  insertToken,
  listActiveTokens,
  type NewAccount,
  type NewToken,
  resetPasswordHash,
  revokeToken,
  scanValidTokenHashes,
  usernameTaken,
} from './accounts.js';
export * from './analysis/index.js';
export { type AppendRequest, appendEvents, appendMany } from './append.js';
export { type BatcherOptions, createBatcher } from './batching.js';
export { type BotUpgrade, botAccountsAmong, isBotAccount, upgradeToBot } from './bot-accounts.js';
export { type CreateDbOptions, createDb, poolOf } from './db.js';
export { READ_ALL_LOCK_KEY, toRecorded } from './event-rows.js';
export { createPgEventStore, type PgEventStoreOptions } from './event-store.js';
export * from './explorer/index.js';
export * from './fairplay/index.js';
export {
  compareGamesWithLog,
  findOverdueClocks,
  findStalledSubmissions,
  type GameRowDifference,
  gamesFromLog,
  getGame,
  type ListGamesOptions,
  listGames,
  rebuildGamesTable,
} from './games.js';
export { applyToGameRow, type GameRowPatch, type GameRowValues } from './games-projection.js';
export * from './lobby/index.js';
export { createMigrator, migrateToLatest } from './migrate.js';
export {
  type AccountSummary,
  accountSummary,
  mainRatings,
  type PlayerCard,
  playerCards,
  type ShownRating,
} from './player-cards.js';
export {
  createPlayer,
  ensurePlayer,
  findPlayerByTokenHash,
  getPlayer,
  getPlayers,
  replaceGuestTokenHash,
} from './players.js';
export { lockQuota, type QuotaKind } from './quota-lock.js';
export * from './ratings/index.js';
export { readAll, readAllHorizon, readStream, readStreams } from './read.js';
export {
  type AccountRow,
  type AccountsTable,
  type Database,
  type Db,
  GAME_ROW_STATUSES,
  type GameEventsTable,
  type GameRow,
  type GameRowStatus,
  type GamesTable,
  type NewGameRow,
  type NewPlayerRow,
  type PlayerRow,
  type PlayersTable,
  TOKEN_ROW_KINDS,
  type TokenRow,
  type TokenRowKind,
  type TokensTable,
} from './schema.js';
export * from './stats/index.js';
export { setTakebackPreference, takebackPreferences } from './takeback-preferences.js';
export {
  pairingRowOf,
  playerRowOf,
  type TouchedRows,
  type TournamentPairingRow,
  type TournamentPlayerRow,
  type TournamentRow,
  type TournamentRows,
  touchedRows,
  tournamentRowOf,
  tournamentRowsOf,
} from './tournaments/projection.js';
export {
  activeTournamentIds,
  endedGames,
  existingGames,
  playersNamedIn,
  ratingIn,
  standingRank,
  standingRows,
  tournamentGameRows,
  tournamentOfGame,
  tournamentRow,
  tournamentsByStatus,
  tournamentsToEjectFrom,
} from './tournaments/queries.js';
export { rebuildTournaments } from './tournaments/rebuild.js';
export {
  appendTournamentEvents,
  createPgTournamentEventStore,
  readTournamentStream,
  writeTournamentRows,
} from './tournaments/tournament-events.js';
