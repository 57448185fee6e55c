/**
 * The statistics page: the results table with its filters, charts (results by time
 * category, game lengths, ending reasons), the opening explorer on a board, and a player's
 * record. Every number comes from the stats API (pre-aggregated counters).
 */
import type { Leaderboard, RATING_CATEGORY_NAMES, ScoreByDifference } from '@shogi/protocol';
import { moveTo, parseUsi } from '@shogi/rules';
import { api } from '../api.js';
import '../styles/charts.css';
import { h } from '../dom.js';
import { pieceStyle } from '../session.js';
import { boardOf, moveSquares, newGame } from '../shogi/model.js';
import { japaneseMove } from '../shogi/notation.js';
import { reasonText } from '../shogi/result.js';
import { failureSentence } from '../words/errors.js';
import { boardElement } from './board.js';
import { titledName } from './bot-badge.js';
import { fitted, histogram, lineChart, type Shares, sharesChart } from './charts.js';

/** The rating categories (the protocol's list, checked here; the bundle carries no schema code). */
const RATED_CATEGORIES = [
  'bullet',
  'blitz',
  'rapid',
  'classical',
  'correspondence',
] as const satisfies readonly (typeof RATING_CATEGORY_NAMES)[number][];

interface Results {
  games: number;
  senteWins: number;
  goteWins: number;
  draws: number;
  sentePct: number;
  gotePct: number;
  drawPct: number;
  noResult: number;
}
interface Endings {
  reasons: (Results & { reason: string })[];
}
interface Lengths {
  bucketSize: number;
  buckets: { from: number; games: number }[];
}
interface Openings {
  moves: string[];
  games: number;
  next: (Omit<Results, 'noResult'> & { usi: string })[];
}

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const CATEGORIES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'none'];
const pct = (n: number) => `${n.toFixed(1)} %`;

function select(id: string, label: string, options: [string, string][]): HTMLElement {
  return h(
    'label',
    { for: id },
    `${label} `,
    h('select', { id, name: id }, ...options.map(([v, t]) => h('option', { value: v }, t))),
  );
}

export function statsPage(root: HTMLElement): () => void {
  const table = h('div', { class: 'results-table' });
  const charts = h('div', { class: 'charts' });
  const explorer = h('div', { class: 'explorer' });
  const note = h('p', { class: 'note', role: 'alert' });
  let line: string[] = [];

  const form = h(
    'form',
    {
      class: 'filters',
      onchange: () => {
        void refresh();
        // the explorer counts the games of the chosen source too
        void explore();
      },
      onsubmit: (e: Event) => {
        e.preventDefault();
        void refresh();
      },
    },
    // the server counts the games played here unless asked for imported records too
    select('source', 'Games', [
      ['', 'played here'],
      ['imported', 'imported'],
      ['all', 'all'],
    ]),
    select('ruleset', 'Ruleset', [
      ['', 'any'],
      ['default', 'default'],
      ['jsa', 'JSA'],
    ]),
    select('handicap', 'Handicap', [
      ['', 'any'],
      ['even', 'even games'],
      ['lance', 'lance'],
      ['bishop', 'bishop'],
      ['rook', 'rook'],
      ['two_piece', 'two pieces'],
      ['four_piece', 'four pieces'],
      ['six_piece', 'six pieces'],
    ]),
    select('rated', 'Rated', [
      ['', 'any'],
      ['true', 'rated'],
      ['false', 'casual'],
    ]),
    select('timeCategory', 'Time', [
      ['', 'any'],
      ...CATEGORIES.map((c): [string, string] => [c, c === 'none' ? 'no clock' : c]),
    ]),
    h('label', { for: 'from' }, 'From ', h('input', { id: 'from', name: 'from', type: 'date' })),
    h('label', { for: 'to' }, 'To ', h('input', { id: 'to', name: 'to', type: 'date' })),
  );

  const query = (extra: Record<string, string> = {}) => {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v !== '') params.set(k, v);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    const q = params.toString();
    return q === '' ? '' : `?${q}`;
  };

  const refresh = async () => {
    note.textContent = '';
    try {
      const [results, endings, lengths] = await Promise.all([
        api.get<Results>(`/api/stats/results${query()}`),
        api.get<Endings>(`/api/stats/endings${query()}`),
        api.get<Lengths>(`/api/stats/lengths${query()}`),
      ]);
      table.replaceChildren(
        h(
          'table',
          { class: 'results' },
          h('caption', {}, `Results of ${results.games} games`),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, ''),
              h('th', { scope: 'col' }, 'games'),
              h('th', { scope: 'col' }, 'share'),
            ),
          ),
          h(
            'tbody',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, '☗ Sente wins'),
              h('td', {}, String(results.senteWins)),
              h('td', {}, pct(results.sentePct)),
            ),
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, '☖ Gote wins'),
              h('td', {}, String(results.goteWins)),
              h('td', {}, pct(results.gotePct)),
            ),
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, 'Draws'),
              h('td', {}, String(results.draws)),
              h('td', {}, pct(results.drawPct)),
            ),
            h('tr', {}, h('th', { scope: 'row' }, 'No result'), h('td', {}, String(results.noResult)), h('td', {}, '')),
          ),
        ),
      );
      const byCategory = await Promise.all(
        CATEGORIES.map(async (c): Promise<Shares> => {
          const r = await api.get<Results>(`/api/stats/results${query({ timeCategory: c })}`);
          return { label: c === 'none' ? 'no clock' : c, ...r };
        }),
      );
      const category = (new FormData(form).get('timeCategory') as string | null) ?? '';
      const rated = (RATED_CATEGORIES as readonly string[]).includes(category);
      const byDiff = await api
        .get<ScoreByDifference>(`/api/stats/score-by-rating-difference${rated ? `?category=${category}` : ''}`)
        .catch(() => null);
      const diffPoints = (byDiff?.buckets ?? []).filter((b) => b.games > 0);
      charts.replaceChildren(
        h(
          'figure',
          {},
          h('figcaption', {}, 'Results by time category'),
          fitted((w) => sharesChart('Results by time category', byCategory, w)),
        ),
        h(
          'figure',
          {},
          h('figcaption', {}, `Game lengths (plies, buckets of ${lengths.bucketSize})`),
          fitted((w) =>
            histogram(
              'Game lengths',
              lengths.buckets.map((b) => ({ label: String(b.from), value: b.games })),
              w,
              { x: 'plies', y: 'games' },
            ),
          ),
        ),
        h(
          'figure',
          {},
          h('figcaption', {}, 'Ending reasons'),
          fitted((w) =>
            sharesChart(
              'Ending reasons',
              endings.reasons.map((r) => ({ ...r, label: reasonText(r.reason) })),
              w,
            ),
          ),
        ),
        h(
          'figure',
          {},
          h('figcaption', {}, 'Score of the higher-rated player by rating difference (rated games)'),
          diffPoints.length === 0
            ? h('p', {}, 'No rated games yet.')
            : fitted((w) =>
                lineChart(
                  'Score by rating difference',
                  [
                    {
                      name: 'score',
                      color: '#b3261e',
                      points: diffPoints.map((b) => ({ x: b.from, y: b.score * 100 })),
                    },
                    {
                      name: 'expected (Glicko-2)',
                      color: '#2b2b2b',
                      points: diffPoints.map((b) => ({ x: b.from, y: b.expected * 100 })),
                    },
                  ],
                  { x: (v) => `+${v}`, y: (v) => `${Math.round(v)} %` },
                  w,
                ),
              ),
        ),
      );
    } catch (err) {
      note.textContent = failureSentence(err);
    }
  };

  const go = (next: string[]) => {
    line = next;
    void explore();
  };
  const explore = async () => {
    try {
      const source = new FormData(form).get('source');
      const o = await api.get<Openings>(
        `/api/stats/openings?moves=${line.join(',')}${typeof source === 'string' && source !== '' ? `&source=${source}` : ''}`,
      );
      const game = newGame(START, 'default');
      for (const m of line) game.playUsi(m);
      const last = line.at(-1);
      // japaneseMove compares engine squares (同 when the move lands where the last one did)
      const lastTo = last === undefined ? null : moveTo(parseUsi(last));
      explorer.replaceChildren(
        h(
          'div',
          { class: 'explorer-board' },
          boardElement(boardOf(game), {
            style: pieceStyle(),
            flipped: false,
            lastMove: last ? moveSquares(last) : null,
          }),
        ),
        h(
          'div',
          {},
          h('p', {}, line.length === 0 ? 'Start position' : `Line: ${line.join(' ')}`, ` · ${o.games} games`),
          line.length > 0
            ? h('button', { type: 'button', class: 'link', onclick: () => go(line.slice(0, -1)) }, '← back')
            : '',
          h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { class: 'openings' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  h('th', {}, 'move'),
                  h('th', {}, 'games'),
                  h('th', {}, 'sente'),
                  h('th', {}, 'draw'),
                  h('th', {}, 'gote'),
                ),
              ),
              h(
                'tbody',
                {},
                ...o.next.map((n) =>
                  h(
                    'tr',
                    {},
                    h(
                      'td',
                      {},
                      h(
                        'button',
                        { type: 'button', class: 'link', onclick: () => go([...line, n.usi]) },
                        `${japaneseMove(game, n.usi, lastTo)} ${n.usi}`,
                      ),
                    ),
                    h('td', {}, String(n.games)),
                    h('td', {}, pct(n.sentePct)),
                    h('td', {}, pct(n.drawPct)),
                    h('td', {}, pct(n.gotePct)),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    } catch (err) {
      note.textContent = failureSentence(err);
    }
  };

  const board = h('div', { class: 'leaderboard' });
  const boardCategory = h(
    'select',
    { id: 'leaderboard-category', onchange: () => void leaders() },
    ...RATED_CATEGORIES.map((c) => h('option', { value: c, selected: c === 'blitz' }, c)),
  );
  const leaders = async () => {
    const l = await api.get<Leaderboard>(`/api/leaderboards/${boardCategory.value}?limit=20`).catch(() => null);
    board.replaceChildren(
      !l || l.players.length === 0
        ? h('p', {}, 'Nobody on this leaderboard yet (provisional ratings are left off).')
        : h(
            'ol',
            {},
            ...l.players.map((p) =>
              h(
                'li',
                {},
                h('a', { href: `/players/${p.playerId}`, 'data-link': true }, ...titledName(p)),
                ` ${p.rating} (${p.games} games)`,
              ),
            ),
          ),
    );
  };
  root.replaceChildren(
    h(
      'section',
      { class: 'stats' },
      h('h1', {}, 'Statistics'),
      form,
      note,
      table,
      charts,
      h('h2', {}, 'Opening explorer'),
      explorer,
      h('h2', {}, 'Leaderboard'),
      h('label', { for: 'leaderboard-category' }, 'Category ', boardCategory),
      board,
    ),
  );
  void refresh();
  void explore();
  void leaders();
  return () => {};
}
