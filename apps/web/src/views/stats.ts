/**
 * The statistics page: the results table with its filters, charts (results by time
 * category, game lengths, ending reasons), the opening explorer on a board, and a player's
 * record. Every number comes from the stats API (pre-aggregated counters).
 */
import { ApiFailure, api } from '../api.js';
import { h } from '../dom.js';
import { pieceStyle } from '../session.js';
import { boardOf, moveSquares, newGame } from '../shogi/model.js';
import { reasonText } from '../shogi/result.js';
import { boardElement } from './board.js';
import { histogram, type Shares, sharesChart } from './charts.js';

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
  const profile = h('div', { class: 'profile' });
  const note = h('p', { class: 'note', role: 'alert' });
  let line: string[] = [];

  const form = h(
    'form',
    {
      class: 'filters',
      onchange: () => void refresh(),
      onsubmit: (e: Event) => {
        e.preventDefault();
        void refresh();
      },
    },
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
      charts.replaceChildren(
        h(
          'figure',
          {},
          h('figcaption', {}, 'Results by time category'),
          sharesChart('Results by time category', byCategory),
        ),
        h(
          'figure',
          {},
          h('figcaption', {}, `Game lengths (plies, buckets of ${lengths.bucketSize})`),
          histogram(
            'Game lengths',
            lengths.buckets.map((b) => ({ label: String(b.from), value: b.games })),
          ),
        ),
        h(
          'figure',
          {},
          h('figcaption', {}, 'Ending reasons'),
          sharesChart(
            'Ending reasons',
            endings.reasons.map((r) => ({ ...r, label: reasonText(r.reason) })),
          ),
        ),
      );
    } catch (err) {
      note.textContent = err instanceof ApiFailure ? err.message : String(err);
    }
  };

  const go = (next: string[]) => {
    line = next;
    void explore();
  };
  const explore = async () => {
    try {
      const o = await api.get<Openings>(`/api/stats/openings?moves=${line.join(',')}`);
      const game = newGame(START, 'default');
      for (const m of line) game.playUsi(m);
      const last = line.at(-1);
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
                    h('button', { type: 'button', class: 'link', onclick: () => go([...line, n.usi]) }, n.usi),
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
      );
    } catch (err) {
      note.textContent = err instanceof ApiFailure ? err.message : String(err);
    }
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
      profile,
    ),
  );
  void refresh();
  void explore();
  return () => {};
}

/** A player's record: results by colour and by ending, streaks. */
export function playerPage(root: HTMLElement, playerId: string): () => void {
  interface Rec {
    wins: number;
    losses: number;
    draws: number;
    noResult: number;
  }
  interface PlayerStats {
    playerId: string;
    streaks: { current: { outcome: string; games: number } | null; bestWin: number };
    total: Rec;
    byColor: { sente: Rec; gote: Rec };
    byReason: (Rec & { reason: string })[];
  }
  const row = (label: string, r: Rec) =>
    h('tr', {}, h('th', { scope: 'row' }, label), ...[r.wins, r.losses, r.draws].map((n) => h('td', {}, String(n))));
  root.replaceChildren(h('p', {}, 'Loading…'));
  api.get<PlayerStats>(`/api/stats/players/${encodeURIComponent(playerId)}`).then(
    (p) =>
      root.replaceChildren(
        h(
          'section',
          { class: 'player' },
          h('h1', {}, `Player ${p.playerId}`),
          h(
            'p',
            {},
            p.streaks.current
              ? `Current streak: ${p.streaks.current.games} ${p.streaks.current.outcome}${p.streaks.current.games > 1 ? 's' : ''}. `
              : '',
            `Best winning streak: ${p.streaks.bestWin}.`,
          ),
          h(
            'table',
            { class: 'results' },
            h(
              'thead',
              {},
              h('tr', {}, h('th', {}, ''), h('th', {}, 'wins'), h('th', {}, 'losses'), h('th', {}, 'draws')),
            ),
            h(
              'tbody',
              {},
              row('All games', p.total),
              row('☗ as sente', p.byColor.sente),
              row('☖ as gote', p.byColor.gote),
              ...p.byReason.map((r) => row(reasonText(r.reason), r)),
            ),
          ),
        ),
      ),
    (err: unknown) =>
      root.replaceChildren(h('p', { class: 'note' }, err instanceof ApiFailure ? err.message : String(err))),
  );
  return () => {};
}
