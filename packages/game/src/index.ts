export {
  applyMove,
  CLOCK_RULES,
  type Clock,
  type ClockResult,
  type ClockRules,
  type ClockSnapshot,
  deadline,
  flagDueAt,
  foldClock,
  isFlagged,
  LAG_ALLOWANCE_MS,
  remaining,
  type SideClock,
  startClock,
  type TimedMove,
} from './clock.js';
export {
  CommandHandler,
  type CommandHandlerOptions,
  type CommandRequest,
  type Handled,
  type Start,
  TooManyConflictsError,
} from './command-handler.js';
export type {
  Abort,
  AnswerTakeback,
  Berserk,
  CheckClock,
  CreateGame,
  DeclareImpasse,
  GameCommand,
  ProposeTakeback,
  Resign,
  SubmitMove,
  ValidatePending,
} from './commands.js';
export { csaSecondsUsed } from './csa-clock.js';
export { type Decision, decide } from './decide.js';
export { type Decider, type GameDecider, gameDecider } from './decider.js';
export {
  type AppendResult,
  type EventStore,
  isVersionConflict,
  VersionConflictError,
} from './event-store.js';
export {
  type Berserked,
  END_REASONS,
  type EndReason,
  GAME_EVENT_TYPES,
  type GameCreated,
  type GameEnded,
  type GameEvent,
  type GameEventType,
  type ImpasseDeclared,
  isGameEventType,
  type MoveAccepted,
  type MoveRejected,
  type MoveSubmitted,
  type PlayerRef,
  type RecordedClock,
  type RecordedEvent,
  type RecordNotes,
  type Resigned,
  type TakebackAccepted,
  type TakebackDeclined,
  type TakebackProposed,
  VERDICT_REJECTIONS,
  type VerdictRejection,
} from './events.js';
export { evolve, fold } from './evolve.js';
export {
  advanceClockView,
  CLOCK_START_PLY,
  type ClockStop,
  type ClockView,
  clockAfterMove,
  clockOfRecord,
  clockRuns,
  clockStarted,
  clockView,
  clockViewOfRecord,
  FIRST_MOVE_MS,
  type Flag,
  firstMoveLimitMs,
  flagAt,
  lagOf,
  type MoveTiming,
  newGameClock,
  recordClock,
  stopClockView,
  turnDeadline,
  turnFlagDueAt,
} from './game-clock.js';
export { recordOfEvents } from './game-record.js';
export { type CaughtUp, GameStates, type GameStatesOptions } from './game-states.js';
export { abortBeforeBothMoved, beforeBothMoved, PLIES_BEFORE_RESULT } from './ply-rule.js';
export { RecentStates } from './recent-states.js';
export { isRejectionCode, REJECTION_CODES, type Rejection, type RejectionCode, rejection } from './rejections.js';
export {
  colorIndex,
  colorName,
  colorOfPlayer,
  type GameInfo,
  type GameResult,
  type GameState,
  type GameStatus,
  initialState,
  movesOf,
  opponentOf,
  type PendingMove,
  sideOfSfen,
} from './state.js';
export {
  DEFAULT_TAKEBACK_PREFERENCE,
  preferenceAllows,
  TAKEBACK_PREFERENCES,
  type TakebackPreference,
  takebackPlies,
} from './takeback.js';
export {
  type ByoyomiTimeControl,
  byoyomi,
  type CorrespondenceTimeControl,
  correspondence,
  type FischerTimeControl,
  fischer,
  TIME_CONTROL_ERROR_CODES,
  TIME_CONTROL_KINDS,
  TIME_CONTROL_LIMITS,
  type TimeControl,
  type TimeControlError,
  type TimeControlErrorCode,
  type TimeControlKind,
  UNLIMITED,
  type UnlimitedTimeControl,
  validateTimeControl,
} from './time-control.js';
export { upcastEventData } from './upcast.js';
