export * from './accounts.js';
export * from './bots.js';
export * from './errors.js';
export * from './http.js';
export * from './lobby.js';
export * from './players.js';
export * from './spectate.js';
export * from './ws.js';
