/**
 * The lobby: bots to play at once (bot-play.ts: a guest player is created on the first click,
 * so a newcomer is playing within seconds), seeks and challenges (pairing.ts), your ongoing
 * games, and the live games as mini boards kept current by `/api/live/ws`.
 */
import type { LiveFeedMessage, LiveGame } from '@shogi/protocol';
import { api, socketUrl } from '../api.js';
import { h } from '../dom.js';
import { reconnecting } from '../net/reconnecting.js';
import { forgetIdentity, identity, pieceStyle } from '../session.js';
import { boardOfSfen, moveSquares } from '../shogi/model.js';
import { boardElement } from './board.js';
import { titledName, titledText } from './bot-badge.js';
import { botPanel } from './bot-play.js';
import { pairingPanel } from './pairing.js';

export function lobbyPage(root: HTMLElement, navigate: (path: string) => void): () => void {
  const games = new Map<string, LiveGame>();
  const liveGrid = h('ul', { class: 'live-grid', 'aria-label': 'Live games' });
  const mine = h('ul', { class: 'my-games' });
  const who = h('p', { class: 'who' });
  const nameInput = h('input', {
    id: 'guest-name',
    name: 'name',
    maxlength: 40,
    placeholder: 'Guest',
    autocomplete: 'nickname',
  });

  const renderWho = () => {
    const me = identity();
    nameInput.parentElement?.toggleAttribute('hidden', me !== null);
    if (!me) {
      who.replaceChildren('You will play as a guest; pick a name if you like.');
      return;
    }
    who.replaceChildren(
      'You play as ',
      h('strong', {}, me.name),
      '. Your player id: ',
      h('code', { class: 'my-id' }, me.id),
      ' ',
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          onclick: () => {
            forgetIdentity();
            renderWho();
            renderGames();
          },
        },
        'Start over as a new guest',
      ),
    );
  };

  const card = (g: LiveGame) => {
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
          h('span', {}, '☗ ', ...titledName(g.players.sente)),
          h('span', {}, '☖ ', ...titledName(g.players.gote)),
          h(
            'span',
            { class: 'meta' },
            `move ${g.ply} · ${g.spectators} watching${g.status === 'ended' ? ' · ended' : ''}`,
          ),
        ),
      ),
    );
  };

  const renderGames = () => {
    const list = [...games.values()];
    liveGrid.replaceChildren(
      ...(list.length > 0 ? list.map(card) : [h('li', { class: 'empty' }, 'No live games right now.')]),
    );
    const me = identity();
    const own = me
      ? list.filter((g) => g.status === 'ongoing' && (g.players.sente.id === me.id || g.players.gote.id === me.id))
      : [];
    mine.replaceChildren(
      ...own.map((g) =>
        h(
          'li',
          {},
          h(
            'a',
            { href: `/games/${g.id}`, 'data-link': true },
            ...titledName(g.players.sente),
            ' vs ',
            ...titledName(g.players.gote),
            ` (move ${g.ply})`,
          ),
        ),
      ),
    );
    mine.parentElement?.toggleAttribute('hidden', own.length === 0);
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
      renderGames();
    },
  });

  const pairing = pairingPanel(navigate, () => {
    renderWho();
    renderGames();
  });
  root.replaceChildren(
    h(
      'section',
      { class: 'lobby' },
      h(
        'div',
        { class: 'play-now' },
        h('h1', {}, 'Play shogi now'),
        who,
        h('p', { class: 'name-row' }, h('label', { for: 'guest-name' }, 'Your name '), nameInput),
        botPanel({ navigate, guestName: () => nameInput.value, onIdentity: renderWho }),
        h('div', { class: 'mine', hidden: true }, h('h2', {}, 'Your games'), mine),
        pairing.element,
      ),
      h('div', { class: 'live' }, h('h2', {}, 'Live games'), liveGrid),
    ),
  );
  renderWho();
  renderGames();
  api.live().then(
    (r) => {
      if (games.size > 0) return;
      for (const g of r.games) games.set(g.id, g);
      renderGames();
    },
    () => {},
  );
  return () => {
    feed.close();
    pairing.close();
  };
}
