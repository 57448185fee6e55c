export type { CreateGame, DeclareImpasse, GameCommand, Resign, SubmitMove, ValidatePending } from './commands.js';
export { type Decision, decide } from './decide.js';
export { type Decider, type GameDecider, gameDecider } from './decider.js';
export {
  type AppendResult,
  type EventStore,
  isVersionConflict,
  VersionConflictError,
} from './event-store.js';
export {
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
  type RecordedEvent,
  type Resigned,
  VERDICT_REJECTIONS,
  type VerdictRejection,
} from './events.js';
export { evolve, fold } from './evolve.js';
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
} from './state.js';
