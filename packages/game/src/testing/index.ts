export { given, type Then } from './decider-specification.js';
export { type EventStoreUnderTest, eventStoreContract } from './event-store-contract.js';
export { GOTE, gameCreated, moveSubmitted, SENTE, T0 } from './fixtures.js';
export { createInMemoryEventStore, type InMemoryEventStoreOptions } from './in-memory-event-store.js';
export { findPlayout, type Playout, randomMove, randomPlayout, seededRandom } from './random-game.js';
