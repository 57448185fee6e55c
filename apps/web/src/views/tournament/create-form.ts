/**
 * The form that creates a tournament: name, clock (Fischer or byoyomi with its periods),
 * length, start, rated, berserk, streaks, arena or round-robin, a password. Only an account's
 * session creates one; a guest is told so.
 */
import { ApiFailure } from '../../api.js';
import { h } from '../../dom.js';
import { type TournamentPage, tournamentApi } from './types.js';

const field = (label: string, input: HTMLElement) => h('label', { class: 'field' }, h('span', {}, label), input);
const check = (label: string, input: HTMLInputElement) => h('label', { class: 'check' }, input, ` ${label}`);

export function createForm(token: string | null, created: (t: TournamentPage) => void): HTMLElement {
  if (token === null)
    return h(
      'section',
      { class: 'tournament-create' },
      h('h2', {}, 'Create a tournament'),
      h(
        'p',
        { class: 'muted', id: 'tournament-guest' },
        'Log in with an account to create or join a tournament: a guest cannot.',
      ),
    );
  const name = h('input', { name: 'name', required: true, minlength: 2, maxlength: 30, value: 'Arena' });
  const kind = h(
    'select',
    { name: 'clockKind' },
    h('option', { value: 'fischer' }, 'Increment'),
    h('option', { value: 'byoyomi' }, 'Byoyomi'),
  );
  const clockTime = h('input', { name: 'clockTime', type: 'number', min: 0, max: 60, step: 0.25, value: 3 });
  const increment = h('input', { name: 'clockIncrement', type: 'number', min: 0, max: 60, value: 2 });
  const byoyomi = h('input', { name: 'clockByoyomi', type: 'number', min: 1, max: 120, value: 10 });
  const periods = h('input', { name: 'periods', type: 'number', min: 1, max: 5, value: 1 });
  const minutes = h('input', { name: 'minutes', type: 'number', min: 1, max: 720, value: 45 });
  const start = h('input', { name: 'start', type: 'datetime-local' });
  const waitMinutes = h('input', { name: 'waitMinutes', type: 'number', min: 0, max: 1440, step: 'any', value: 5 });
  const rated = h('input', { name: 'rated', type: 'checkbox', checked: true });
  const berserkable = h('input', { name: 'berserkable', type: 'checkbox', checked: true });
  const streakable = h('input', { name: 'streakable', type: 'checkbox', checked: true });
  const format = h(
    'select',
    { name: 'format' },
    h('option', { value: 'arena' }, 'Arena'),
    h('option', { value: 'robin' }, 'Round-robin'),
  );
  const password = h('input', { name: 'password', type: 'text', autocomplete: 'off', maxlength: 100 });
  const note = h('p', { class: 'note', role: 'alert' });
  const fischerFields = h('span', { class: 'fields' }, field('Increment (s)', increment));
  const byoyomiFields = h(
    'span',
    { class: 'fields', hidden: true },
    field('Byoyomi (s)', byoyomi),
    field('Periods', periods),
  );
  kind.addEventListener('change', () => {
    fischerFields.hidden = kind.value !== 'fischer';
    byoyomiFields.hidden = kind.value !== 'byoyomi';
  });

  const body = (): Record<string, unknown> => {
    const b: Record<string, unknown> = {
      name: name.value.trim(),
      clockTime: Number(clockTime.value),
      minutes: Number(minutes.value),
      rated: rated.checked,
      berserkable: berserkable.checked,
      streakable: streakable.checked,
      format: format.value,
    };
    if (kind.value === 'byoyomi') {
      b.clockIncrement = 0;
      b.clockByoyomi = Number(byoyomi.value);
      b.periods = Number(periods.value);
    } else b.clockIncrement = Number(increment.value);
    // a start chosen on the calendar wins over the wait
    if (start.value !== '') b.startDate = new Date(start.value).getTime();
    else b.waitMinutes = Number(waitMinutes.value);
    if (password.value !== '') b.password = password.value;
    return b;
  };

  const form = h(
    'form',
    { class: 'tournament-create', id: 'tournament-create' },
    h('h2', {}, 'Create a tournament'),
    field('Name', name),
    h(
      'div',
      { class: 'clock-row' },
      field('Clock', kind),
      field('Main time (min)', clockTime),
      fischerFields,
      byoyomiFields,
    ),
    h(
      'div',
      { class: 'clock-row' },
      field('Length (min)', minutes),
      field('Starts in (min)', waitMinutes),
      field('or at', start),
    ),
    field('Format', format),
    h(
      'div',
      { class: 'checks' },
      check('Rated', rated),
      check('Berserk allowed', berserkable),
      check('Streaks (fire)', streakable),
    ),
    field('Password (optional)', password),
    h('button', { type: 'submit', class: 'primary' }, 'Create'),
    note,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    note.textContent = '';
    tournamentApi.create(token, body()).then(created, (err: unknown) => {
      note.textContent = err instanceof ApiFailure ? err.message : String(err);
    });
  });
  return form;
}
