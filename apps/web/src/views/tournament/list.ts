/**
 * /tournaments: the upcoming, running and finished tournaments (`GET /api/tournament`), and the
 * form that creates one (`POST /api/tournament`, an account's session).
 */
import { ApiFailure } from '../../api.js';
import { h } from '../../dom.js';
import { identity } from '../../session.js';
import { createForm } from './create-form.js';
import { clockLabel, countdownText, type Tournament, tournamentApi } from './types.js';

function row(t: Tournament, when: string): HTMLElement {
  return h(
    'tr',
    {},
    h('td', {}, h('a', { href: `/tournament/${t.id}`, 'data-link': true }, t.fullName)),
    h('td', {}, clockLabel(t.clock)),
    h('td', {}, `${t.minutes} min`),
    h('td', {}, t.rated ? 'rated' : 'casual'),
    h('td', {}, String(t.nbPlayers)),
    h('td', {}, when),
  );
}

function table(label: string, rows: HTMLElement[]): HTMLElement {
  return h(
    'section',
    { class: 'tournament-group', 'aria-label': label },
    h('h2', {}, label),
    rows.length === 0
      ? h('p', { class: 'muted' }, 'None.')
      : h(
          'table',
          { class: 'tournament-list' },
          h('thead', {}, h('tr', {}, ...['Name', 'Clock', 'Length', '', 'Players', 'When'].map((c) => h('th', {}, c)))),
          h('tbody', {}, ...rows),
        ),
  );
}

export function tournamentsPage(root: HTMLElement, navigate: (path: string) => void): () => void {
  const lists = h('div', { class: 'tournament-lists' }, h('p', { class: 'muted' }, 'Loading…'));
  const me = identity();
  const form = createForm(me?.account === true ? me.token : null, (t) => navigate(`/tournament/${t.id}`));
  root.replaceChildren(h('section', { class: 'tournaments-page' }, h('h1', {}, 'Tournaments'), lists, form));
  tournamentApi.list().then(
    ({ created, started, finished }) =>
      lists.replaceChildren(
        table(
          'Running',
          started.map((t) => row(t, `ends in ${countdownText(t.secondsToFinish ?? 0)}`)),
        ),
        table(
          'Upcoming',
          created.map((t) => row(t, `starts in ${countdownText(t.secondsToStart)}`)),
        ),
        table(
          'Finished',
          finished.map((t) => row(t, new Date(t.finishesAt).toLocaleString())),
        ),
      ),
    (err: unknown) =>
      lists.replaceChildren(h('p', { class: 'note' }, err instanceof ApiFailure ? err.message : String(err))),
  );
  return () => {};
}
