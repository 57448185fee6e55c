/**
 * The opening explorer beside the analysis board: for the position shown, the moves played
 * from it (games played here, or the imported masters' records), each with its games, how it
 * scored and its players' average rating; a click on a move plays it on the board. The
 * position goes to the server as the start and the line played (`sfen` + `play`), so the
 * opening is named by the whole line; the latest answer wins when the player steps quickly.
 */
import type { ExplorerResponse } from '@shogi/protocol';
import { api } from '../../api.js';
import { h } from '../../dom.js';
import { failureSentence } from '../../words/errors.js';

type Tree = 'games' | 'masters';

export interface ExplorerPanel {
  readonly element: HTMLElement;
  /** The position shown: asked about when it changed. */
  show(sfen: string, moves: readonly string[]): void;
}

const percent = (n: number, total: number) => (total === 0 ? 0 : Math.round((100 * n) / total));

/** The results as one bar; widths set through the style object (the page's CSP refuses style attributes). */
function bar(sente: number, draws: number, gote: number): HTMLElement {
  const n = sente + draws + gote;
  const part = (cls: string, k: number, label: boolean) => {
    const span = h('span', { class: cls }, label ? `${percent(k, n)}%` : '');
    span.style.width = `${percent(k, n)}%`;
    return span;
  };
  return h(
    'td',
    {
      class: 'explorer-bar',
      title: `sente ${percent(sente, n)}%, draws ${percent(draws, n)}%, gote ${percent(gote, n)}%`,
    },
    part('bar-sente', sente, true),
    part('bar-draw', draws, false),
    part('bar-gote', gote, true),
  );
}

export function explorerPanel(onPlay: (usi: string) => void): ExplorerPanel {
  let tree: Tree = 'games';
  let asked = '';
  let shown: [string, readonly string[]] | null = null;
  const body = h('div', { class: 'explorer-body' });
  const tabs = (['games', 'masters'] as const).map((t) =>
    h(
      'button',
      {
        type: 'button',
        class: 'explorer-tab',
        'aria-pressed': String(t === tree),
        onclick: () => {
          tree = t;
          for (const b of tabs) b.setAttribute('aria-pressed', String(b.dataset.tree === tree));
          asked = '';
          if (shown) show(...shown);
        },
        'data-tree': t,
      },
      t === 'games' ? 'Games here' : 'Masters',
    ),
  );
  const element = h(
    'section',
    { class: 'explorer', 'aria-label': 'Opening explorer' },
    h('h2', {}, 'Opening explorer'),
    h('div', { class: 'explorer-tabs', role: 'group' }, ...tabs),
    body,
  );

  function paint(r: ExplorerResponse): void {
    const total = r.sente + r.gote + r.draws;
    const rows = r.moves.map((m) => {
      const n = m.sente + m.gote + m.draws;
      return h(
        'tr',
        {
          class: 'explorer-move',
          tabindex: '0',
          'data-usi': m.usi,
          onclick: () => onPlay(m.usi),
          onkeydown: (e: Event) => {
            if ((e as KeyboardEvent).key === 'Enter') onPlay(m.usi);
          },
        },
        h('td', { class: 'explorer-notation' }, m.notation ?? m.usi),
        h('td', { class: 'explorer-games' }, String(n)),
        h('td', {}, m.averageRating === null ? '–' : String(m.averageRating)),
        bar(m.sente, m.draws, m.gote),
      );
    });
    const games = [...r.topGames, ...r.recentGames.filter((g) => !r.topGames.some((t) => t.id === g.id))];
    body.replaceChildren(
      h('p', { class: 'explorer-opening' }, r.opening ? `${r.opening.ja} · ${r.opening.name}` : ''),
      total === 0
        ? h('p', { class: 'note' }, 'No game reached this position.')
        : h(
            'table',
            { class: 'explorer-moves' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'Move'),
                h('th', {}, 'Games'),
                h('th', {}, 'Rating'),
                h('th', {}, 'Sente / draw / gote'),
              ),
            ),
            h('tbody', {}, ...rows),
          ),
      games.length === 0
        ? ''
        : h(
            'ul',
            { class: 'explorer-games-list' },
            ...games.map((g) =>
              h(
                'li',
                {},
                h(
                  'a',
                  { href: `/analysis/${encodeURIComponent(g.id)}`, 'data-link': true },
                  `${g.sente.name} – ${g.gote.name}`,
                ),
                ` ${g.event ?? g.month} · ${g.winner === null ? 'draw' : `${g.winner} won`}`,
              ),
            ),
          ),
    );
  }

  function show(sfen: string, moves: readonly string[]): void {
    shown = [sfen, moves];
    const query = `${tree}?sfen=${encodeURIComponent(sfen)}&play=${moves.join(',')}`;
    if (query === asked) return;
    asked = query;
    api.explorer(query).then(
      (r) => {
        if (asked === query) paint(r);
      },
      (err: unknown) => {
        if (asked === query) body.replaceChildren(h('p', { class: 'note' }, failureSentence(err)));
      },
    );
  }

  return { element, show };
}
