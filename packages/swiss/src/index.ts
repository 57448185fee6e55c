export { NoValidPairingError, type Pairing, pairDutch, playersToPair } from './dutch.js';
export { MatchingComputer, maxWeightMatching } from './matching.js';
export * from './trf.js';
export * from './tournament.js';
