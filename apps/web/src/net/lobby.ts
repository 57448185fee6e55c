/**
 * The player's lobby socket `/api/lobby/ws?ticket=`: the open seeks, pairings, challenges,
 * rematch offers and acceptances, as they happen. Best effort like the server's notices:
 * pages that wait on one also poll the seek or challenge.
 */
import type { LobbyMessage } from '@shogi/protocol';
import { api, socketUrl } from '../api.js';
import { reconnecting } from './reconnecting.js';

/** `followSeeks`: the lobby page's socket, sent the open seeks (and counted as looking at the lobby). */
export function lobbySocket(
  token: string,
  onMessage: (m: LobbyMessage) => void,
  onStatus?: (connected: boolean) => void,
  followSeeks = false,
): { close(): void } {
  return reconnecting({
    // a one-use ticket for each connection: the token itself never goes into a URL
    url: async () => {
      const { ticket } = await api.socketTicket(token);
      return socketUrl(`/api/lobby/ws?ticket=${encodeURIComponent(ticket)}${followSeeks ? '&follow=seeks' : ''}`);
    },
    onMessage: (data) => onMessage(data as LobbyMessage),
    ...(onStatus === undefined ? {} : { onStatus }),
  });
}
