export * from './account-log.js';
export * from './addresses.js';
export * from './assessments.js';
export * from './moderation.js';
export * from './schema.js';
export * from './selection.js';
