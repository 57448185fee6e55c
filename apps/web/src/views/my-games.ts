/**
 * Your games in progress (`GET /api/account/playing`, lishogi's "now playing"): a small
 * board from your side, the opponent, and whether it is your move, your turn first. Shown
 * only while you have some.
 */
import { api } from '../api.js';
import { h } from '../dom.js';
import { identity, pieceStyle } from '../session.js';
import { boardOfSfen, moveSquares } from '../shogi/model.js';
import { boardElement } from './board.js';
import { titledName } from './bot-badge.js';

interface NowPlaying {
  readonly gameId: string;
  readonly color: 'sente' | 'gote';
  readonly sfen: string;
  readonly isMyTurn: boolean;
  readonly lastMove: string;
  readonly opponent: { readonly id: string; readonly username: string; readonly rating: number };
}

const REFRESH_MS = 10_000;

/**
 * `isBot`: whether an opponent is known to be a bot account (lishogi's list names them by
 * username and id, without their title), for the BOT title beside the name.
 */
export function myGames(isBot: (opponent: { id: string; username: string }) => boolean): {
  element: HTMLElement;
  refresh(): void;
  /** draws the games again (more bots became known) */
  render(): void;
  close(): void;
} {
  const list = h('ul', { class: 'my-games' });
  const element = h('section', { class: 'mine', hidden: true }, h('h2', {}, 'Your games in progress'), list);
  let games: NowPlaying[] = [];
  const refresh = async () => {
    const me = identity();
    games = me
      ? await api.authed<{ nowPlaying: NowPlaying[] }>('/api/account/playing?nb=12', me.token).then(
          (r) => r.nowPlaying,
          () => [] as NowPlaying[],
        )
      : [];
    render();
  };
  const render = () => {
    element.hidden = games.length === 0;
    list.replaceChildren(
      ...games.map((g) => {
        const state = boardOfSfen(g.sfen);
        const opponent = { name: g.opponent.username, title: isBot(g.opponent) ? ('BOT' as const) : null };
        return h(
          'li',
          { class: `my-game${g.isMyTurn ? ' my-turn' : ''}`, 'data-game': g.gameId },
          h(
            'a',
            { href: `/games/${g.gameId}`, 'data-link': true },
            state
              ? boardElement(state, {
                  style: pieceStyle(),
                  flipped: g.color === 'gote',
                  mini: true,
                  lastMove: g.lastMove ? moveSquares(g.lastMove) : null,
                })
              : '',
            h(
              'span',
              { class: 'live-caption' },
              h('span', {}, 'vs ', ...titledName(opponent)),
              h('span', { class: g.isMyTurn ? 'turn' : 'meta' }, g.isMyTurn ? 'Your move' : 'Their move'),
            ),
          ),
        );
      }),
    );
  };
  void refresh();
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  return { element, refresh: () => void refresh(), render, close: () => clearInterval(timer) };
}
