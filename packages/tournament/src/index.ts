/** The tournament aggregate (arena and round-robin) and its pairers: pure, no I/O. */
export {
  ARENA_RULES,
  arenaPairer,
  bestPairings,
  pairingGraph,
  pairingsClosed,
  pairingsClosedSeconds,
  type Ranked,
  waitSeconds,
  waveIsDue,
} from './arena-pairer.js';
export {
  ARRANGEMENT_TOLERANCE_MS,
  type Arrangement,
  absentOf,
  arrangedPairer,
  arrangementOf,
  arrangementsOf,
  dueArrangements,
  isArranged,
  proposeTime,
} from './arrangements.js';
export {
  TournamentCommandHandler,
  type TournamentCommandHandlerOptions,
  type TournamentCommandRequest,
  TournamentConflictsError,
  type TournamentHandled,
} from './command-handler.js';
export type {
  Berserk,
  CreateTournament,
  EjectPlayer,
  FinishTournament,
  ForfeitArrangements,
  ForfeitGame,
  ImportSwiss,
  JoinTournament,
  PairPlayers,
  ProposeArrangementTime,
  ScoreGame,
  StartTournament,
  TerminateTournament,
  TournamentCommand,
  WithdrawFromTournament,
} from './commands.js';
export { decideTournament, type TournamentDecision } from './decide.js';
export { type TournamentDecider, tournamentDecider } from './decider.js';
export {
  InMemoryTournamentEventStore,
  isTournamentVersionConflict,
  type RecordedTournamentEvent,
  type TournamentEventStore,
  TournamentVersionConflictError,
} from './event-store.js';
export {
  type ArrangementTimeProposed,
  type Entrant,
  type GameScored,
  type ImportedCell,
  isTournamentEventType,
  type Pairing,
  type PlayerBerserked,
  type PlayerEjected,
  type PlayerJoined,
  type PlayerPaused,
  type PlayersPaired,
  type PlayerWithdrew,
  type SwissImported,
  TOURNAMENT_EVENT_TYPES,
  type TournamentCreated,
  type TournamentEvent,
  type TournamentEventType,
  type TournamentFinished,
  type TournamentStarted,
  type TournamentTerminated,
} from './events.js';
export { evolveTournament, foldTournament } from './evolve.js';
export type { Pairer, PairingRequest, ProposedPairing } from './pairer.js';
export { PAIRERS } from './pairers.js';
export { nextPauseCount, PAUSE_RULES, pauseDelaySeconds, remainingPauseSeconds } from './pause.js';
export { PersistentMap } from './persistent-map.js';
export {
  isTournamentRejectionCode,
  TOURNAMENT_REJECTION_CODES,
  type TournamentRejection,
  type TournamentRejectionCode,
  tournamentRejection,
} from './rejections.js';
export {
  bergerRound,
  bergerTable,
  currentRobinRound,
  robinPairer,
  robinRoundDeadline,
  robinRounds,
  robinSeeds,
} from './robin-pairer.js';
export {
  BERSERK_MIN_PLIES,
  LONG_GAME_PLIES,
  QUICK_DRAW_PLIES,
  type ScoreFlag,
  type ScoringRules,
  type Sheet,
  type SheetGame,
  type SheetResult,
  type SheetScore,
  sheetOf,
  sheetScoresString,
} from './sheet.js';
export {
  compareStandings,
  PERFORMANCE_SPREAD,
  ranksOf,
  type Standing,
  scoringRulesOf,
  standingsOf,
  tiebreakOf,
  type Unranked,
  unrankedStandingOf,
} from './standings.js';
export {
  type ArrangementTimes,
  colorOf,
  forfeitsEjected,
  initialTournamentState,
  type PairingEntry,
  type PlayerEntry,
  type SwissImport,
  type TournamentState,
  type TournamentStatus,
  waitingPlayers,
} from './state.js';
export { readSwissTrf, type TrfImport, type TrfImportCell, type TrfImportRead } from './swiss-import.js';
export { pairSwissRound, swissPairer } from './swiss-pairer.js';
export { byeRequested, currentSwissRound, lastRoundOverAt, nextSwissRoundAt } from './swiss-rounds.js';
export { SWISS_TIE_BREAKS, type SwissStanding, swissStandingsOf } from './swiss-standings.js';
export { type SwissTrf, swissSeeds, swissTrf } from './swiss-trf.js';
export {
  estimatedGameSeconds,
  finishesAt,
  MIN_GAMES_PER_ARENA,
  type SwissTerms,
  TERMS_LIMITS,
  TOURNAMENT_FORMATS,
  type TournamentClock,
  type TournamentConditions,
  type TournamentFormat,
  type TournamentTerms,
  validateTerms,
} from './terms.js';
