/**
 * Following one game on the spectator socket `/api/games/:id/watch`: a snapshot first,
 * then events in seq order; after a drop it reconnects with `?since=<last seq>` and gets
 * exactly the events it missed (a `resume` frame, then the gap, then the live ones).
 * A browser that plays as someone sends a one-use socket ticket, so the game's own players
 * are not counted among its spectators; without one (or when none can be had) it watches
 * anonymously.
 */

import type { ChatLineWire, ChatRoomName, GameSnapshot, WatchAnalysis, WatchMessage, WireEvent } from '@shogi/protocol';
import { api, socketUrl } from '../api.js';
import { identity } from '../session.js';
import { errorSentence } from '../words/errors.js';
import { reconnecting } from './reconnecting.js';

export interface WatchHandlers {
  snapshot(game: GameSnapshot): void;
  events(events: WireEvent[]): void;
  spectators(count: number): void;
  status(connected: boolean): void;
  error(message: string): void;
  /** news of the game's engine analysis (the analysis board shows its progress) */
  analysis?(news: WatchAnalysis): void;
  /** a chat room's kept lines (again after a reconnect), then each new line */
  chatHistory?(room: ChatRoomName, lines: ChatLineWire[]): void;
  chat?(line: ChatLineWire): void;
}

export function watchGame(gameId: string, on: WatchHandlers): { close(): void } {
  let lastSeq: number | null = null;
  return reconnecting({
    url: async () => {
      const query = new URLSearchParams();
      if (lastSeq !== null) query.set('since', String(lastSeq));
      const me = identity();
      const ticket = me
        ? await api.socketTicket(me.token).then(
            (t) => t.ticket,
            () => null,
          )
        : null;
      if (ticket !== null) query.set('ticket', ticket);
      const q = query.toString();
      return socketUrl(`/api/games/${encodeURIComponent(gameId)}/watch${q === '' ? '' : `?${q}`}`);
    },
    onStatus: on.status,
    onMessage(data) {
      const m = data as WatchMessage;
      switch (m.type) {
        case 'snapshot':
          lastSeq = m.game.seq;
          on.snapshot(m.game);
          on.spectators(m.game.spectators);
          break;
        case 'resume':
          on.spectators(m.spectators);
          break;
        case 'events': {
          // a repeat can only come from a bug; dropping it keeps the replay exact
          const fresh = m.events.filter((e) => lastSeq === null || e.seq > lastSeq);
          const last = fresh.at(-1);
          if (last) lastSeq = last.seq;
          if (fresh.length > 0) on.events(fresh);
          break;
        }
        case 'spectators':
          on.spectators(m.count);
          break;
        case 'error':
          on.error(errorSentence(400, m.error));
          break;
        case 'analysis':
          on.analysis?.(m);
          break;
        case 'chatHistory':
          on.chatHistory?.(m.room, m.lines);
          break;
        case 'chat':
          on.chat?.(m.line);
          break;
      }
    },
  });
}
