/**
 * The chat on a watch socket: the rooms the socket may read (chatRoomsFor: a player's socket
 * the players' room, and the spectators' once the game has ended; any other the spectators'),
 * each room's kept lines in a `chatHistory` frame after the socket's first frame, then a `chat`
 * frame per line. Lines are news, not the game: they never enter an `events` frame, and a line
 * missed while a socket was away is in the next history it gets.
 */
import type { WatchChat, WatchChatHistory } from '@shogi/protocol';
import { type ChatRoom, chatRoomsFor, type GameChat } from '../domain/game-chat.js';

export interface WatchChatFollower {
  /** After the socket's first frame: whether it is a player's, whether the game has ended. */
  start(player: boolean, ended: boolean): void;
  /** After a batch of the game's events: a player's socket opens the spectators' room at the end. */
  afterBatch(ended: boolean): void;
  close(): void;
}

export function followWatchChat(deps: {
  readonly chat: GameChat;
  readonly gameId: string;
  write(frame: string): void;
  readonly log: { warn(obj: object, msg: string): void };
}): WatchChatFollower {
  const { chat, gameId, write, log } = deps;
  const open = new Set<ChatRoom>();
  let player = false;
  let closed = false;
  let leave: (() => void) | null = null;

  const send = (frame: WatchChat | WatchChatHistory) => write(JSON.stringify(frame));
  const joined = chat
    .join(gameId, (line) => {
      if (open.has(line.room)) send({ type: 'chat', line });
    })
    .then((out) => {
      if (closed) out();
      else leave = out;
    })
    .catch((err: unknown) => log.warn({ err }, 'watch: chat unavailable'));
  const openRooms = (rooms: readonly ChatRoom[]) => {
    for (const room of rooms) {
      if (open.has(room)) continue;
      // subscribed and open before the read: a line written meanwhile comes live too, and the
      // client merges the two
      open.add(room);
      joined
        .then(() => chat.recent(gameId, room))
        .then(
          (lines) => {
            if (!closed) send({ type: 'chatHistory', room, lines });
          },
          (err: unknown) => log.warn({ err, room }, 'watch: chat history unavailable'),
        );
    }
  };

  return {
    start(isPlayer, ended) {
      player = isPlayer;
      openRooms(chatRoomsFor(player, ended));
    },
    afterBatch(ended) {
      if (player && ended) openRooms(chatRoomsFor(true, true));
    },
    close() {
      closed = true;
      leave?.();
    },
  };
}
