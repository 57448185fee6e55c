/**
 * The lobby's panel of the next tournaments: those running, then those about to start, each a
 * link to its page. Kept small, in the first page's bundle; the tournament pages are a chunk
 * of their own.
 */
import { api } from '../api.js';
import { h } from '../dom.js';

interface Listed {
  readonly id: string;
  readonly fullName: string;
  readonly nbPlayers: number;
  readonly isStarted: boolean;
  readonly secondsToStart: number;
}

const SHOWN = 4;

export function tournamentsPanel(): HTMLElement {
  const list = h('ul', { class: 'tournaments-next' });
  const panel = h(
    'section',
    { class: 'tournaments-panel', 'aria-label': 'Tournaments' },
    h('h2', {}, h('a', { href: '/tournaments', 'data-link': true }, 'Tournaments')),
    list,
  );
  void api.get<{ created: Listed[]; started: Listed[] }>('/api/tournament').then(
    ({ created, started }) => {
      const next = [...started, ...created].slice(0, SHOWN);
      if (next.length === 0) {
        list.replaceChildren(h('li', { class: 'muted' }, 'None planned: create one.'));
        return;
      }
      list.replaceChildren(
        ...next.map((t) =>
          h(
            'li',
            {},
            h('a', { href: `/tournament/${t.id}`, 'data-link': true }, t.fullName),
            h(
              'small',
              {},
              t.isStarted
                ? ` playing · ${t.nbPlayers}`
                : ` in ${Math.ceil(t.secondsToStart / 60)} min · ${t.nbPlayers}`,
            ),
          ),
        ),
      );
    },
    () => list.replaceChildren(),
  );
  return panel;
}
