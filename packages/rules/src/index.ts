export { GAME_STATUSES, Game, type GameStatus, type MoveRejection, type Outcome, winnerOf } from './game.js';
export { HANDICAP_SFENS, HANDICAPS, type Handicap, isHandicap } from './handicaps.js';
export { assessImpasse, type ImpasseAssessment } from './impasse.js';
export { moveIllegality } from './legality.js';
export { generateLegal, hasLegalMove, legalMoves, MAX_MOVES } from './movegen.js';
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
  parseSfen,
  parseSfenSetup,
  positionFromSetup,
  SFEN_ERRORS,
  type SfenError,
  type SfenErrorCode,
  START_SFEN,
  startPosition,
  toSfen,
} from './sfen.js';
export { parseSquare, squareName } from './squares.js';
export * from './types.js';
export { formatUsi, parseUsi } from './usi.js';
