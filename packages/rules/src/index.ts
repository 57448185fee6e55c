export * from './types.js';
export { squareName, parseSquare } from './squares.js';
export {
  Position,
  type Move,
  type Setup,
  isDrop,
  isPromotion,
  moveFrom,
  moveTo,
} from './position.js';
export { generateLegal, legalMoves, hasLegalMove, MAX_MOVES } from './movegen.js';
export { moveIllegality } from './legality.js';
export {
  parseSfen,
  parseSfenSetup,
  positionFromSetup,
  toSfen,
  startPosition,
  START_SFEN,
  SFEN_ERRORS,
  type SfenError,
  type SfenErrorCode,
} from './sfen.js';
export { parseUsi, formatUsi } from './usi.js';
export { perft, perftBulk } from './perft.js';
export { assessImpasse, type ImpasseAssessment } from './impasse.js';
export { HANDICAPS, HANDICAP_SFENS, isHandicap, type Handicap } from './handicaps.js';
export { Game, GAME_STATUSES, type GameStatus, type Outcome, type MoveRejection, winnerOf } from './game.js';
