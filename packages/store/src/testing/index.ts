export { gamesInDistinctPartitions, logPartitions, partitionOf } from './partitions.js';
export { createTestDatabase, type TestDatabase } from './test-database.js';
