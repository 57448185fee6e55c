export { createTestDatabase, type TestDatabase } from './test-database.js';
