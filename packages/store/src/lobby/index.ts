export * from './challenges.js';
export * from './players.js';
export * from './ratings.js';
export * from './schema.js';
export * from './seeks.js';
