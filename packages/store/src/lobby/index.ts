export * from './challenges.js';
export * from './ratings.js';
export * from './schema.js';
export * from './seeks.js';
