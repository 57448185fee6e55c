/**
 * What the game page's chat holds and shows, without the DOM: the lines of each room merged
 * from the watch socket's `chatHistory` and `chat` frames (a line can come both ways: it is
 * kept once), the page's own system lines (a takeback, the result), and which lines a reader
 * who muted the opponent still sees. Pure: checked in unit tests.
 */
import type { ChatLineWire, ChatRoomName, WireEvent } from '@shogi/protocol';
import { resultText } from '../../shogi/result.js';
import type { Names, Result } from './wording.js';

/** Longest line, in code points: the server's CHAT_TEXT_MAX (@shogi/protocol), which the bundle does not import. */
export const CHAT_MAX = 140;

/** A line as the panel shows it: a person's, or one the page writes itself (`system`). */
export type ShownLine =
  | { readonly kind: 'person'; readonly line: ChatLineWire }
  | { readonly kind: 'system'; readonly text: string; readonly room: ChatRoomName; readonly at: string };

const timeOf = (l: ShownLine): string => (l.kind === 'person' ? l.line.at : l.at);

/** People's lines and the page's own in the order they came (ISO 8601 times sort as text; the sort is stable). */
export const inTimeOrder = (lines: readonly ShownLine[]): ShownLine[] =>
  [...lines].sort((a, b) => (timeOf(a) < timeOf(b) ? -1 : timeOf(a) > timeOf(b) ? 1 : 0));

const keyOf = (l: ChatLineWire): string => `${l.at}\u0000${l.username}\u0000${l.text}`;

/** `lines` merged with `more`, each line once, in the order they were written. */
export function mergeLines(lines: readonly ChatLineWire[], more: readonly ChatLineWire[]): ChatLineWire[] {
  const seen = new Set(lines.map(keyOf));
  const merged = [...lines];
  for (const l of more) {
    const key = keyOf(l);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(l);
  }
  return merged.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** The lines a reader sees: all, or all but the opponent's when muted (the page's own lines stay). */
export function visibleLines(lines: readonly ShownLine[], mutedId: string | null): ShownLine[] {
  if (mutedId === null) return [...lines];
  return lines.filter((l) => l.kind === 'system' || l.line.playerId !== mutedId);
}

/** The system lines a batch of events gives, in the page's words; `result` is the game's after the batch. */
export function systemLines(events: readonly WireEvent[], names: Names, result: Result | null): string[] {
  const out: string[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'TakebackProposed':
        out.push(`${e.payload.color === 'gote' ? names.gote : names.sente} proposes a takeback.`);
        break;
      case 'TakebackDeclined':
        out.push('Takeback declined.');
        break;
      case 'TakebackAccepted':
        out.push('Takeback accepted.');
        break;
      case 'GameEnded':
        if (result) out.push(`${resultText(result, names)}.`);
        break;
      default:
        break;
    }
  }
  return out;
}

/** The rooms' names on their tabs. */
export const ROOM_LABELS: Readonly<Record<ChatRoomName, string>> = {
  player: 'Players',
  spectator: 'Spectators',
};

/**
 * The rooms a reader sees and the one they write in, as the server allows (its chatRoomsFor):
 * a player the players' room, and the spectators' once the game has ended, writing in the
 * players'; anyone else the spectators' room, writing there when this browser has a player.
 */
export function chatSeatOf(
  seat: { readonly player: boolean; readonly ended: boolean; readonly signedIn: boolean },
  opponentId: string | null,
): { rooms: ChatRoomName[]; writeIn: ChatRoomName | null; opponentId: string | null; closedWhy: string } {
  if (seat.player)
    return {
      rooms: seat.ended ? ['player', 'spectator'] : ['player'],
      writeIn: 'player',
      opponentId,
      closedWhy: 'Only the spectators write here',
    };
  return {
    rooms: ['spectator'],
    writeIn: seat.signedIn ? 'spectator' : null,
    opponentId: null,
    closedWhy: 'Play a game or pick a name in the lobby to chat',
  };
}
