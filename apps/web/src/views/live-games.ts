/**
 * The live games the lobby shows, kept current by `/api/live/ws` (a `live` frame with the
 * list, then `updates`): as mini boards with the players, their ratings ("1500?" while
 * provisional) and the spectators, and as the source of the TV (tv.ts). Listeners are told
 * after every change.
 */
import type { LiveFeedMessage, LiveGame } from '@shogi/protocol';
import { api, socketUrl } from '../api.js';
import { h } from '../dom.js';
import { reconnecting } from '../net/reconnecting.js';
import { pieceStyle } from '../session.js';
import { boardOfSfen, moveSquares } from '../shogi/model.js';
import { ratingText } from '../shogi/rating-text.js';
import { boardElement } from './board.js';
import { titledName, titledText } from './bot-badge.js';

export interface LiveGames {
  readonly games: ReadonlyMap<string, LiveGame>;
  onChange(listener: () => void): void;
  close(): void;
}

export function followLiveGames(): LiveGames {
  const games = new Map<string, LiveGame>();
  const listeners: (() => void)[] = [];
  const changed = () => {
    for (const l of listeners) l();
  };
  const feed = reconnecting({
    url: () => socketUrl('/api/live/ws'),
    onMessage(data) {
      const m = data as LiveFeedMessage;
      if (m.type === 'live') {
        games.clear();
        for (const g of m.games) games.set(g.id, g);
      } else if (m.type === 'updates') {
        for (const u of m.updates) {
          const g = games.get(u.id);
          if (!g) continue;
          games.set(u.id, {
            ...g,
            ...(u.sfen !== undefined ? { sfen: u.sfen } : {}),
            ...(u.ply !== undefined ? { ply: u.ply } : {}),
            ...(u.lastMove !== undefined ? { lastMove: u.lastMove } : {}),
            ...(u.status !== undefined ? { status: u.status } : {}),
            ...(u.spectators !== undefined ? { spectators: u.spectators } : {}),
          });
        }
      } else return;
      changed();
    },
  });
  api.live().then(
    (r) => {
      if (games.size > 0) return;
      for (const g of r.games) games.set(g.id, g);
      changed();
    },
    () => {},
  );
  return {
    games,
    onChange: (l) => listeners.push(l),
    close: () => feed.close(),
  };
}

/** A player with their rating, as the live boards caption them. */
export function playerLine(mark: string, g: LiveGame, side: 'sente' | 'gote'): HTMLElement {
  const rating = g.ratings?.[side];
  return h(
    'span',
    { class: 'live-player' },
    `${mark} `,
    ...titledName(g.players[side]),
    rating ? h('span', { class: 'rating' }, ` ${ratingText(rating)}`) : '',
  );
}

export function liveCard(g: LiveGame): HTMLElement {
  const state = boardOfSfen(g.sfen);
  const lastMove = g.lastMove ? moveSquares(g.lastMove) : null;
  const label = `${titledText(g.players.sente)} vs ${titledText(g.players.gote)}, move ${g.ply}${g.status === 'ended' ? ', ended' : ''}`;
  return h(
    'li',
    { class: 'live-card', 'data-game': g.id },
    h(
      'a',
      { href: `/games/${g.id}`, 'data-link': true, 'aria-label': `Watch ${label}` },
      state ? boardElement(state, { style: pieceStyle(), flipped: false, mini: true, lastMove }) : '',
      h(
        'span',
        { class: 'live-caption' },
        playerLine('☗', g, 'sente'),
        playerLine('☖', g, 'gote'),
        h(
          'span',
          { class: 'meta' },
          `move ${g.ply} · ${g.spectators} watching${g.status === 'ended' ? ' · ended' : ''}`,
        ),
      ),
    ),
  );
}

export function liveGrid(live: LiveGames): HTMLElement {
  const grid = h('ul', { class: 'live-grid', 'aria-label': 'Live games' });
  const render = () => {
    const list = [...live.games.values()];
    grid.replaceChildren(
      ...(list.length > 0 ? list.map(liveCard) : [h('li', { class: 'empty' }, 'No live games right now.')]),
    );
  };
  live.onChange(render);
  render();
  return grid;
}
