/** Builders of realistic events and commands for tests. */
import { START_SFEN } from '@shogi/rules';
import type { GameCreated, MoveSubmitted, PlayerRef } from '../events.js';

export const SENTE: PlayerRef = { id: 'p-sente', name: 'Sente' };
export const GOTE: PlayerRef = { id: 'p-gote', name: 'Gote' };
export const T0 = new Date('2026-01-01T00:00:00.000Z');

export const gameCreated = (gameId: string, overrides: Partial<GameCreated['data']> = {}): GameCreated => ({
  type: 'GameCreated',
  data: {
    gameId,
    sente: SENTE,
    gote: GOTE,
    ruleset: 'default',
    handicap: null,
    initialSfen: START_SFEN,
    timeControl: { kind: 'unlimited' },
    rated: false,
    createdAt: T0.toISOString(),
    ...overrides,
  },
});

export const moveSubmitted = (
  usi: string,
  ply: number,
  player: PlayerRef = ply % 2 === 0 ? SENTE : GOTE,
): MoveSubmitted => ({
  type: 'MoveSubmitted',
  data: {
    playerId: player.id,
    color: player.id === GOTE.id ? 'gote' : 'sente',
    usi,
    ply,
    receivedAt: T0.toISOString(),
  },
});
