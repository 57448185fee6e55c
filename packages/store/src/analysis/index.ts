export * from './analyses.js';
export * from './schema.js';
