export { HANDICAP_SFENS, HANDICAPS, type Handicap, isHandicap } from './handicaps.js';
export { assessImpasse, type ImpasseAssessment } from './impasse.js';
export { moveIllegality } from './legality.js';
export { generateLegal, hasLegalMove, legalMoves, MAX_MOVES } from './movegen.js';
export { type CsaExportOptions, exportCsa, parseCsa } from './notation/csa.js';
export { type CsaMoveFault, csaOfUsiMove, csaPositionLines, usiOfCsaMove } from './notation/csa-move.js';
export {
  type DecodedRecord,
  decodeRecord,
  decodeText,
  detectFormat,
  RECORD_ENCODINGS,
  RECORD_FORMATS,
  type RecordEncoding,
  type RecordFormat,
  splitRecords,
} from './notation/decode.js';
export { exportJkf, type Jkf, type JkfMove, type JkfNode, parseJkf } from './notation/jkf.js';
export { parseKi2 } from './notation/ki2.js';
export { exportKi2 } from './notation/ki2-export.js';
export { type Ki2Board, ki2Move } from './notation/ki2-move.js';
export { KIF_HANDICAPS, parseKif } from './notation/kif.js';
export { exportKif } from './notation/kif-export.js';
export {
  ENDINGS,
  type Ending,
  type EndingKind,
  type ExtraInfo,
  type GameRecord,
  handicapOf,
  INFO_KEYS,
  type InfoKey,
  RECORD_ERRORS,
  type RecordComment,
  type RecordError,
  type RecordErrorCode,
  type RecordVariation,
  type StatedResult,
} from './notation/record.js';
export {
  RECORD_WRITE_FORMATS,
  type RecordWriteFormat,
  type WriteRecordOptions,
  writeRecord,
} from './notation/write.js';
export { perft, perftBulk } from './perft.js';
export {
  isDrop,
  isPromotion,
  type Move,
  moveFrom,
  moveTo,
  Position,
  type Setup,
} from './position.js';
export {
  type MoveRejection,
  OUTCOME_STATUSES,
  type Outcome,
  type OutcomeStatus,
  PositionHistory,
  winnerOf,
} from './position-history.js';
export {
  REPLAY_STATUSES,
  type ReplayRejection,
  type ReplayResult,
  type ReplayStatus,
  replayMoves,
  replayRecord,
} from './replay.js';
export {
  parseSfen,
  parseSfenSetup,
  positionFromSetup,
  SFEN_ERRORS,
  type SfenError,
  type SfenErrorCode,
  START_SFEN,
  sideOfSfen,
  startPosition,
  toSfen,
} from './sfen.js';
export { parseSquare, squareName } from './squares.js';
export * from './types.js';
export { formatUsi, parseUsi } from './usi.js';
