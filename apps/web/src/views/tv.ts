/**
 * The lobby's TV: the highest-rated ongoing game (tv-pick.ts) on a small live board, its
 * players with their ratings, following the live feed move by move; a click opens it.
 */
import { h } from '../dom.js';
import { pieceStyle } from '../session.js';
import { boardOfSfen, moveSquares } from '../shogi/model.js';
import { boardElement } from './board.js';
import { titledText } from './bot-badge.js';
import { type LiveGames, playerLine } from './live-games.js';
import { topRated } from './tv-pick.js';

export function tvPanel(live: LiveGames): HTMLElement {
  const screen = h('div', { class: 'tv-screen' });
  const element = h(
    'section',
    { class: 'tv', 'aria-labelledby': 'tv-title' },
    h('h2', { id: 'tv-title' }, 'Shogi TV'),
    screen,
  );
  const render = () => {
    const g = topRated(live.games.values());
    if (g === null) {
      screen.replaceChildren(h('p', { class: 'empty' }, 'Nobody is playing right now.'));
      return;
    }
    const state = boardOfSfen(g.sfen);
    screen.replaceChildren(
      h(
        'a',
        {
          href: `/games/${g.id}`,
          'data-link': true,
          'data-game': g.id,
          'aria-label': `Watch the top-rated game: ${titledText(g.players.sente)} vs ${titledText(g.players.gote)}, move ${g.ply}`,
        },
        playerLine('☖', g, 'gote'),
        state
          ? boardElement(state, {
              style: pieceStyle(),
              flipped: false,
              mini: true,
              lastMove: g.lastMove ? moveSquares(g.lastMove) : null,
            })
          : '',
        playerLine('☗', g, 'sente'),
        h('span', { class: 'meta' }, `move ${g.ply} · ${g.spectators} watching`),
      ),
    );
  };
  live.onChange(render);
  render();
  return element;
}
