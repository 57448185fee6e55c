/**
 * The lobby's open seeks as a table: player (with the BOT title), rating, clock, rated or
 * casual, the colour you would get, the handicap, and a Play button that answers the seek
 * on its terms. The column headers sort it (seek-order.ts). Live while the lobby socket is
 * open (its `seeks` messages); read every few seconds otherwise (a visitor who has no player
 * yet has no socket).
 */
import type { SeekList, SeekView } from '@shogi/protocol';
import { api } from '../api.js';
import { h } from '../dom.js';
import { identity } from '../session.js';
import { clockSpelledOut, timeControlText } from '../shogi/clock.js';
import { HANDICAP_NAMES } from '../shogi/handicap-names.js';
import { titledName } from './bot-badge.js';
import { nextOrder, type SeekKey, type SeekOrder, sortSeeks } from './seek-order.js';

const REFRESH_MS = 4000;

const modeText = (s: SeekView) =>
  `${s.rated ? 'rated' : 'casual'}${s.handicap ? ` · ${HANDICAP_NAMES[s.handicap]}` : ''}`;
const colourText = (s: SeekView) => (s.color === 'sente' ? '☖ gote' : s.color === 'gote' ? '☗ sente' : 'random');

export interface SeekListView {
  readonly element: HTMLElement;
  refresh(): void;
  /** the open seeks as the lobby socket sends them */
  show(seeks: readonly SeekView[]): void;
  /** whether the lobby socket is open: no reads while it is, it sends every change */
  live(connected: boolean): void;
  close(): void;
}

export function seekList(answer: (seek: SeekView) => void): SeekListView {
  let seeks: readonly SeekView[] = [];
  let live = false;
  let order: SeekOrder = { key: 'rating', descending: true };
  const body = h('tbody');
  const header = (key: SeekKey | null, label: string) => {
    if (key === null) return h('th', { scope: 'col' }, label);
    const sorted = order.key === key;
    return h(
      'th',
      { scope: 'col', 'aria-sort': sorted ? (order.descending ? 'descending' : 'ascending') : null },
      h(
        'button',
        {
          type: 'button',
          class: 'sort',
          'data-sort': key,
          onclick: () => {
            order = nextOrder(order, key);
            render();
          },
        },
        label,
        sorted ? (order.descending ? ' ▼' : ' ▲') : '',
      ),
    );
  };
  const head = h('thead');
  const table = h(
    'table',
    { class: 'seek-table' },
    h('caption', { class: 'visually-hidden' }, 'Open seeks'),
    head,
    body,
  );
  const empty = h('p', { class: 'empty' }, 'No open seeks: create one, and it shows here for everyone.');

  const render = () => {
    head.replaceChildren(
      h(
        'tr',
        {},
        header('player', 'Player'),
        header('rating', 'Rating'),
        header('clock', 'Clock'),
        h('th', { scope: 'col', class: 'wide-only' }, 'Mode'),
        h('th', { scope: 'col', class: 'wide-only' }, 'You play'),
        header(null, ''),
      ),
    );
    const me = identity();
    const others = sortSeeks(
      seeks.filter((s) => s.player.id !== me?.id),
      order,
    );
    table.hidden = others.length === 0;
    empty.hidden = others.length > 0;
    body.replaceChildren(
      ...others.map((s) =>
        h(
          'tr',
          { 'data-seek': s.id },
          h('td', { class: 'player' }, ...titledName(s.player)),
          h('td', { class: 'rating' }, String(s.rating)),
          h(
            'td',
            { title: clockSpelledOut(s.timeControl) },
            timeControlText(s.timeControl),
            // a phone has no room for the mode and colour columns: they go under the clock
            h('small', { class: 'seek-terms', 'aria-hidden': 'true' }, `${modeText(s)} · ${colourText(s)}`),
          ),
          h('td', { class: 'wide-only' }, modeText(s)),
          h('td', { class: 'wide-only' }, colourText(s)),
          h('td', {}, h('button', { type: 'button', class: 'primary', onclick: () => answer(s) }, 'Play')),
        ),
      ),
    );
  };

  const show = (list: readonly SeekView[]) => {
    seeks = list.filter((s) => s.status === 'open');
    render();
  };
  const refresh = async () => {
    const list = await api.get<SeekList>('/api/seeks').catch(() => null);
    if (list !== null) show(list.seeks);
  };
  render();
  void refresh();
  const timer = setInterval(() => {
    if (!live) void refresh();
  }, REFRESH_MS);
  return {
    element: h('div', { class: 'seek-list' }, table, empty),
    refresh: () => void refresh(),
    show,
    live: (connected) => {
      live = connected;
    },
    close: () => clearInterval(timer),
  };
}
