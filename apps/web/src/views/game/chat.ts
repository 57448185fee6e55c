/**
 * The game page's chat panel: the rooms the reader may see as tabs (a player the players'
 * room, and the spectators' once the game has ended; a spectator the spectators'), the lines
 * in a list that scrolls inside itself, *Mute opponent*, and a one-line form (Enter sends).
 * Every line is set as text (textContent), never parsed as markup. Folded on a phone, so it
 * never pushes the board and the clocks away; the summary counts the lines that came meanwhile.
 */
import type { ChatLineWire, ChatRoomName } from '@shogi/protocol';
import { api } from '../../api.js';
import { h } from '../../dom.js';
import { opponentMuted, setOpponentMuted } from '../../prefs/chat.js';
import { chatFailureSentence } from '../../words/errors.js';
import { CHAT_MAX, inTimeOrder, mergeLines, ROOM_LABELS, type ShownLine, visibleLines } from './chat-lines.js';

/** Who reads: the rooms open to them, the room they write in (null: none), the opponent to mute. */
export interface ChatSeat {
  readonly rooms: readonly ChatRoomName[];
  readonly writeIn: ChatRoomName | null;
  readonly opponentId: string | null;
  /** why the form is closed, when it is */
  readonly closedWhy: string;
}

export interface ChatPanel {
  readonly element: HTMLElement;
  seat(seat: ChatSeat): void;
  history(room: ChatRoomName, lines: readonly ChatLineWire[]): void;
  line(line: ChatLineWire): void;
  /** a line of the page's own (a takeback, the result), in the reader's own room */
  system(text: string): void;
}

const PHONE = '(max-width: 720px)';

export function chatPanel(gameId: string, token: () => string | null): ChatPanel {
  const people = new Map<ChatRoomName, ChatLineWire[]>();
  const systems: ShownLine[] = [];
  let seat: ChatSeat = { rooms: [], writeIn: null, opponentId: null, closedWhy: '' };
  let shown: ChatRoomName | null = null;
  let muted = opponentMuted();
  let unread = 0;

  const count = h('span', { class: 'chat-unread' });
  const summary = h('summary', {}, 'Chat ', count);
  const tabs = h('div', { class: 'chat-tabs', role: 'tablist', 'aria-label': 'Chat rooms' });
  const list = h('ol', { class: 'chat-lines', 'aria-label': 'Chat', 'aria-live': 'polite' });
  const mute = h('button', { type: 'button', class: 'chat-mute', 'aria-pressed': String(muted) }, 'Mute opponent');
  const input = h('input', {
    type: 'text',
    maxlength: CHAT_MAX,
    autocomplete: 'off',
    'aria-label': 'Chat message',
    placeholder: 'Say something',
  });
  const send = h('button', { type: 'submit' }, 'Send');
  const note = h('p', { class: 'chat-note', role: 'alert' });
  const form = h('form', { class: 'chat-form' }, input, send);
  const element = h(
    'details',
    { class: 'chat' },
    summary,
    tabs,
    list,
    h('div', { class: 'chat-tools' }, mute),
    form,
    note,
  );
  (element as HTMLDetailsElement).open = !matchMedia(PHONE).matches;

  const render = () => {
    tabs.replaceChildren(
      ...seat.rooms.map((room) =>
        h(
          'button',
          { type: 'button', role: 'tab', 'aria-selected': String(room === shown), onclick: () => pick(room) },
          ROOM_LABELS[room],
        ),
      ),
    );
    tabs.hidden = seat.rooms.length < 2;
    mute.hidden = seat.opponentId === null;
    mute.setAttribute('aria-pressed', String(muted));
    const lines: ShownLine[] = [];
    if (shown !== null) {
      for (const line of people.get(shown) ?? []) lines.push({ kind: 'person', line });
      for (const s of systems) if (s.kind === 'system' && s.room === shown) lines.push(s);
    }
    list.replaceChildren(...visibleLines(inTimeOrder(lines), muted ? seat.opponentId : null).map(lineItem));
    // the list scrolls inside its own box, never the page
    list.scrollTop = list.scrollHeight;
    const open = seat.writeIn !== null && shown === seat.writeIn;
    input.disabled = !open;
    send.disabled = !open;
    input.placeholder = open ? 'Say something' : seat.closedWhy;
  };
  const pick = (room: ChatRoomName) => {
    shown = room;
    render();
  };
  const arrived = () => {
    if ((element as HTMLDetailsElement).open) return;
    unread += 1;
    count.textContent = `(${unread})`;
  };
  element.addEventListener('toggle', () => {
    if (!(element as HTMLDetailsElement).open) return;
    unread = 0;
    count.textContent = '';
    list.scrollTop = list.scrollHeight;
  });
  mute.addEventListener('click', () => {
    muted = !muted;
    setOpponentMuted(muted);
    render();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    const who = token();
    const room = seat.writeIn;
    if (text === '' || who === null || room === null) return;
    note.textContent = '';
    // the field is free for the next line at once; a line refused comes back to it, to be sent again
    input.value = '';
    api
      .post<ChatLineWire>(`/api/games/${encodeURIComponent(gameId)}/chat`, { room, text }, who)
      .then(add, (err: unknown) => {
        note.textContent = chatFailureSentence(err);
        if (input.value === '') input.value = text;
      });
  });
  const add = (line: ChatLineWire) => {
    people.set(line.room, mergeLines(people.get(line.room) ?? [], [line]));
    render();
  };

  return {
    element,
    seat(next) {
      seat = next;
      if (shown === null || !seat.rooms.includes(shown)) shown = seat.writeIn ?? seat.rooms[0] ?? null;
      render();
    },
    history(room, lines) {
      people.set(room, mergeLines(people.get(room) ?? [], lines));
      render();
    },
    line(line) {
      add(line);
      arrived();
    },
    system(text) {
      const room = seat.writeIn ?? seat.rooms[0] ?? 'player';
      systems.push({ kind: 'system', text, room, at: new Date().toISOString() });
      render();
      arrived();
    },
  };
}

function lineItem(l: ShownLine): HTMLElement {
  if (l.kind === 'system') {
    const item = h('li', { class: 'system' });
    item.textContent = l.text;
    return item;
  }
  // text only: a line is set with textContent, so markup in it shows as the characters typed
  const author = h('span', { class: 'chat-author' });
  author.textContent = l.line.username;
  const text = h('span', { class: 'chat-text' });
  text.textContent = l.line.text;
  return h('li', {}, author, ' ', text);
}
