export * from './check.js';
export {
  choosePlayerColor,
  NoValidPairingError,
  neutralColor,
  type Pairing,
  pairDutch,
  playersToPair,
} from './dutch.js';
export { maxWeightMatching } from './matching.js';
export { MatchingComputer } from './matching-computer.js';
export * from './tiebreaks.js';
export * from './tournament.js';
export * from './trf.js';
