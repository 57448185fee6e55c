/**
 * Kept only for imports not yet moved: `Player` lives in player.ts, the game service's
 * interface in game-service.ts. Delete once nothing imports this module.
 */
export type { Player } from './player.js';
