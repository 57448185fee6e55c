/**
 * A player's profile: the name (with the BOT title for a bot account), results by time
 * control (each rated category: rating, "1500?" while provisional, games, W/L/D) with a
 * rating-history chart each, results by colour and by ending (`/api/stats/players/:id`),
 * streaks, and the latest games linked to their pages.
 */
import type { PlayerProfile, RatingHistory } from '@shogi/protocol';
import { ApiFailure, api } from '../api.js';
import { h } from '../dom.js';
import '../styles/player.css';
import { identity } from '../session.js';
import { ratingText } from '../shogi/rating-text.js';
import { reasonText } from '../shogi/result.js';
import { titledName } from './bot-badge.js';
import { fitted, lineChart } from './charts.js';
import { reportPanel } from './report.js';
import '../styles/charts.css';
import { failureSentence } from '../words/errors.js';

interface Tally {
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly noResult: number;
}
interface PlayerStats {
  readonly streaks: { current: { outcome: string; games: number } | null; bestWin: number };
  readonly total: Tally;
  readonly byColor: { sente: Tally; gote: Tally };
  readonly byReason: (Tally & { reason: string })[];
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** the share of points (draws ½) of decided games, as a percentage */
const score = (r: Tally) => {
  const played = r.wins + r.losses + r.draws;
  return played === 0 ? '–' : `${Math.round(((r.wins + r.draws / 2) / played) * 100)} %`;
};
const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const gamesText = (n: number) => counted(n, 'game');
const cells = (...values: (string | number)[]) => values.map((v) => h('td', {}, String(v)));
const table = (caption: string, columns: string[], rows: HTMLElement[]) =>
  h(
    'table',
    { class: 'results' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows),
  );

export function playerPage(root: HTMLElement, playerId: string): () => void {
  root.replaceChildren(h('p', {}, 'Loading…'));
  const id = encodeURIComponent(playerId);
  Promise.all([
    api.get<PlayerProfile>(`/api/players/${id}`),
    api.get<PlayerStats>(`/api/stats/players/${id}`).catch(() => null),
  ]).then(
    async ([p, stats]) => {
      document.title = `${p.name} · Shogi`;
      const histories = await Promise.all(
        p.ratings.map((r) =>
          api.get<RatingHistory>(`/api/players/${id}/ratings/${r.category}/history`).catch(() => null),
        ),
      );
      const byColour = stats?.byColor ?? { sente: { ...p.results.sente }, gote: { ...p.results.gote } };
      const streak = stats?.streaks.current;
      root.replaceChildren(
        h(
          'section',
          { class: 'player' },
          // a bot account is marked as lishogi marks one
          h('h1', {}, ...titledName(p)),
          // anyone but the player and a bot (it plays with an engine by declaration) may report
          reportPanel(p.title === null && identity()?.id !== p.id ? [p.name] : []),
          stats
            ? h(
                'p',
                { class: 'summary' },
                gamesText(stats.total.wins + stats.total.losses + stats.total.draws + stats.total.noResult),
                ' · ',
                [
                  counted(stats.total.wins, 'win'),
                  counted(stats.total.losses, 'loss', 'losses'),
                  counted(stats.total.draws, 'draw'),
                ].join(', '),
                streak ? ` · current streak: ${streak.games} ${streak.outcome}${streak.games > 1 ? 's' : ''}` : '',
                ` · best winning streak: ${stats.streaks.bestWin}`,
              )
            : '',
          h(
            'div',
            { class: 'player-grid' },
            h(
              'div',
              {},
              h('h2', {}, 'Results by time control'),
              p.ratings.length === 0
                ? h('p', {}, 'No rated games yet: a new player counts as 1500?.')
                : table(
                    'Rated games by category',
                    ['', 'rating', 'games', 'W', 'L', 'D', 'score'],
                    p.ratings.map((r) =>
                      h(
                        'tr',
                        { 'data-category': r.category },
                        h('th', { scope: 'row' }, r.category),
                        h(
                          'td',
                          { class: 'rating', title: r.provisional ? `provisional (RD ${r.rd})` : `RD ${r.rd}` },
                          ratingText(r),
                        ),
                        ...cells(r.games, r.wins, r.losses, r.draws, score({ ...r, noResult: 0 })),
                      ),
                    ),
                  ),
              h('h2', {}, 'Results by colour'),
              table(
                'All games, by colour',
                ['', 'W', 'L', 'D', 'no result', 'score'],
                (['sente', 'gote'] as const).map((side) =>
                  h(
                    'tr',
                    { 'data-color': side },
                    h('th', { scope: 'row' }, side === 'sente' ? '☗ as sente' : '☖ as gote'),
                    ...cells(
                      byColour[side].wins,
                      byColour[side].losses,
                      byColour[side].draws,
                      byColour[side].noResult,
                      score(byColour[side]),
                    ),
                  ),
                ),
              ),
              stats && stats.byReason.length > 0
                ? table(
                    'How games ended',
                    ['', 'W', 'L', 'D', 'no result'],
                    stats.byReason.map((r) =>
                      h(
                        'tr',
                        {},
                        h('th', { scope: 'row' }, reasonText(r.reason)),
                        ...cells(r.wins, r.losses, r.draws, r.noResult),
                      ),
                    ),
                  )
                : '',
            ),
            h(
              'div',
              {},
              ...histories.flatMap((hist) =>
                hist && hist.points.length > 0
                  ? [
                      h(
                        'figure',
                        { class: 'rating-history' },
                        h('figcaption', {}, `Rating history: ${hist.category}`),
                        fitted((w) =>
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
                            w,
                          ),
                        ),
                      ),
                    ]
                  : [],
              ),
            ),
          ),
          h('h2', {}, 'Latest games'),
          p.recentGames.length === 0
            ? h('p', {}, 'No finished games yet.')
            : h(
                'ul',
                { class: 'recent' },
                ...p.recentGames.map((g) =>
                  h(
                    'li',
                    {},
                    h(
                      'a',
                      { href: `/games/${g.gameId}`, 'data-link': true },
                      `${g.outcome === 'none' ? 'no result' : g.outcome} as ${g.color} vs `,
                      ...titledName(g.opponent),
                    ),
                    ` · ${reasonText(g.reason)} · ${g.plies} plies`,
                    g.rated && g.ratingAfter !== null ? ` · rating ${g.ratingAfter}` : ' · casual',
                  ),
                ),
              ),
        ),
      );
    },
    (err: unknown) => {
      const heading = err instanceof ApiFailure && err.status === 404 ? 'No such player' : 'Profile unavailable';
      document.title = `${heading} · Shogi`;
      root.replaceChildren(
        h(
          'section',
          { class: 'not-found' },
          h('h1', {}, heading),
          h('p', { class: 'note' }, failureSentence(err)),
          h('p', {}, h('a', { href: '/', 'data-link': true }, 'Back to the lobby')),
        ),
      );
    },
  );
  return () => {};
}
