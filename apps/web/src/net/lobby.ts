/**
 * The player's lobby socket `/api/lobby/ws?token=`: pairings, challenges, rematch offers and
 * acceptances, as they happen. Best effort like the server's notices: pages that wait on one
 * also poll the seek or challenge.
 */
import type { LobbyMessage } from '@shogi/protocol';
import { socketUrl } from '../api.js';
import { reconnecting } from './reconnecting.js';

export function lobbySocket(token: string, onMessage: (m: LobbyMessage) => void): { close(): void } {
  return reconnecting({
    url: () => socketUrl(`/api/lobby/ws?token=${encodeURIComponent(token)}`),
    onMessage: (data) => onMessage(data as LobbyMessage),
  });
}
