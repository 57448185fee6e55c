export * from './check.js';
export {
  choosePlayerColor,
  NoValidPairingError,
  neutralColor,
  type Pairing,
  pairDutch,
  playersToPair,
} from './dutch.js';
export { MatchingComputer, maxWeightMatching } from './matching.js';
export * from './tiebreaks.js';
export * from './tournament.js';
export * from './trf.js';
