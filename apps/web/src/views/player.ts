/**
 * A player's profile: ratings by category with a rating-history chart each, results by
 * colour, and the latest games (linked to their pages).
 */
import type { PlayerProfile, RatingHistory } from '@shogi/protocol';
import { ApiFailure, api } from '../api.js';
import { h } from '../dom.js';
import { reasonText } from '../shogi/result.js';
import { titledName } from './bot-badge.js';
import { lineChart } from './charts.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function playerPage(root: HTMLElement, playerId: string): () => void {
  root.replaceChildren(h('p', {}, 'Loading…'));
  const id = encodeURIComponent(playerId);
  api.get<PlayerProfile>(`/api/players/${id}`).then(
    async (p) => {
      const histories = await Promise.all(
        p.ratings.map((r) =>
          api.get<RatingHistory>(`/api/players/${id}/ratings/${r.category}/history`).catch(() => null),
        ),
      );
      const record = (label: string, r: { wins: number; losses: number; draws: number }) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, label),
          ...[r.wins, r.losses, r.draws].map((n) => h('td', {}, String(n))),
        );
      root.replaceChildren(
        h(
          'section',
          { class: 'player' },
          // a bot account is marked as lishogi marks one
          h('h1', {}, ...titledName(p)),
          h('h2', {}, 'Ratings'),
          p.ratings.length === 0
            ? h('p', {}, 'No rated games yet.')
            : h(
                'table',
                { class: 'results' },
                h(
                  'thead',
                  {},
                  h(
                    'tr',
                    {},
                    ...['category', 'rating', 'RD', 'games', 'W', 'L', 'D'].map((t) => h('th', { scope: 'col' }, t)),
                  ),
                ),
                h(
                  'tbody',
                  {},
                  ...p.ratings.map((r) =>
                    h(
                      'tr',
                      {},
                      h('th', { scope: 'row' }, r.category),
                      h('td', { class: 'rating' }, `${r.rating}${r.provisional ? '?' : ''}`),
                      ...[r.rd, r.games, r.wins, r.losses, r.draws].map((n) => h('td', {}, String(n))),
                    ),
                  ),
                ),
              ),
          ...histories.flatMap((hist) =>
            hist && hist.points.length > 0
              ? [
                  h(
                    'figure',
                    { class: 'rating-history' },
                    h('figcaption', {}, `Rating history: ${hist.category}`),
                    lineChart(
                      `${hist.category} rating history`,
                      [
                        {
                          name: hist.category,
                          color: '#b3261e',
                          points: hist.points.map((pt) => ({ x: Date.parse(pt.at), y: pt.rating })),
                        },
                      ],
                      { x: day, y: (v) => String(Math.round(v)) },
                    ),
                  ),
                ]
              : [],
          ),
          h('h2', {}, 'Results'),
          h(
            'table',
            { class: 'results' },
            h(
              'thead',
              {},
              h('tr', {}, h('th', {}, ''), h('th', {}, 'wins'), h('th', {}, 'losses'), h('th', {}, 'draws')),
            ),
            h('tbody', {}, record('☗ as sente', p.results.sente), record('☖ as gote', p.results.gote)),
          ),
          h('h2', {}, 'Latest games'),
          h(
            'ul',
            { class: 'recent' },
            ...p.recentGames.map((g) =>
              h(
                'li',
                {},
                h(
                  'a',
                  { href: `/games/${g.gameId}`, 'data-link': true },
                  `${g.outcome} as ${g.color} vs ${g.opponent.name}`,
                ),
                ` · ${reasonText(g.reason)} · ${g.plies} plies${g.rated && g.ratingAfter !== null ? ` · rating ${g.ratingAfter}` : ''}`,
              ),
            ),
          ),
        ),
      );
    },
    (err: unknown) =>
      root.replaceChildren(h('p', { class: 'note' }, err instanceof ApiFailure ? err.message : String(err))),
  );
  return () => {};
}
