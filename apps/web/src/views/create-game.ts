/**
 * The "Create a game" dialog: who against (anyone, a friend by name, or an engine level
 * from `GET /api/bots`), the clock, rated or casual, your colour and a handicap. One dialog
 * for seeks, challenges and engine games, as lishogi's; what it asks for is read by
 * create-terms.ts and carried out by the lobby (lobby-play.ts).
 */
import type { BotRef, EngineStatus } from '@shogi/protocol';
import { HANDICAPS } from '@shogi/rules';
import { h } from '../dom.js';
import { HANDICAP_NAMES } from '../shogi/handicap-names.js';
import { type Colour, engineLevels, levelLabel, NO_ENGINE } from './bot-terms.js';
import { clockFields } from './clock-fields.js';
import { type CreateRequest, createRequest, type Opponent } from './create-terms.js';

export interface CreateGameDialog {
  readonly element: HTMLDialogElement;
  /** opens the dialog, with an opponent picked (the lobby's buttons) */
  open(opponent?: Opponent, friend?: string): void;
  /** fills the engine levels once the bots are listed; without an engine running, says the levels play built-in moves */
  offerBots(bots: readonly BotRef[], engine?: EngineStatus): void;
}

/** `create` carries the request out; it resolves with an error to show, or null once done. */
export function createGameDialog(create: (request: CreateRequest) => Promise<string | null>): CreateGameDialog {
  const note = h('p', { class: 'note', role: 'alert' });
  const radio = (value: Opponent, label: string) =>
    h(
      'label',
      { class: 'opponent-choice' },
      h('input', {
        type: 'radio',
        name: 'opponent',
        value,
        id: `create-opponent-${value}`,
        checked: value === 'anyone',
      }),
      ` ${label}`,
    );
  const anyone = radio('anyone', 'Anyone (a seek in the lobby)');
  const friendChoice = radio('friend', 'A friend');
  const engineChoice = radio('engine', 'The computer');
  const friend = h('input', {
    id: 'create-friend',
    name: 'friend',
    placeholder: 'name or player id',
    autocomplete: 'off',
    maxlength: 64,
  });
  const level = h('select', { id: 'create-level', name: 'level' });
  const clock = clockFields('create');
  const rated = h('input', { id: 'create-rated', name: 'rated', type: 'checkbox' });
  const color = h(
    'select',
    { id: 'create-color', name: 'color' },
    h('option', { value: 'random' }, 'Random'),
    h('option', { value: 'sente' }, 'Sente ☗'),
    h('option', { value: 'gote' }, 'Gote ☖'),
  );
  const handicap = h(
    'select',
    { id: 'create-handicap', name: 'handicap', 'aria-describedby': 'create-handicap-help' },
    h('option', { value: '' }, 'Even game'),
    ...HANDICAPS.map((name) => h('option', { value: name }, HANDICAP_NAMES[name])),
  );
  const friendRow = h('label', { class: 'row', for: 'create-friend' }, 'Friend ', friend);
  const levelRow = h('label', { class: 'row', for: 'create-level' }, 'Level ', level);
  // GET /api/bots says whether an engine runs; without one every level plays the same simple moves
  const noEngine = h('p', { class: 'engine-note', id: 'create-no-engine', hidden: true }, NO_ENGINE);
  let engineRunning = true;
  const ratedRow = h('label', { class: 'row', for: 'create-rated' }, rated, ' Rated');
  const submit = h('button', { type: 'submit', class: 'primary', id: 'create-submit' }, 'Create');

  const opponent = (): Opponent =>
    (element.querySelector<HTMLInputElement>('input[name="opponent"]:checked')?.value as Opponent) ?? 'anyone';
  // only what the chosen opponent uses shows; an engine game is never rated
  const showRows = () => {
    const who = opponent();
    friendRow.hidden = who !== 'friend';
    levelRow.hidden = who !== 'engine';
    noEngine.hidden = who !== 'engine' || engineRunning;
    rated.disabled = who === 'engine';
    if (who === 'engine') rated.checked = false;
    submit.textContent = who === 'anyone' ? 'Create a seek' : who === 'friend' ? 'Send the challenge' : 'Play';
  };

  const form = h(
    'form',
    {
      method: 'dialog',
      onchange: showRows,
      onsubmit: async (e: Event) => {
        e.preventDefault();
        note.textContent = '';
        const request = createRequest({
          opponent: opponent(),
          friend: friend.value,
          engineId: level.value,
          clock: clock.fields(),
          rated: rated.checked,
          color: color.value as Colour,
          handicap: handicap.value,
        });
        if (!request.ok) {
          note.textContent = request.error;
          return;
        }
        submit.disabled = true;
        const error = await create(request).finally(() => {
          submit.disabled = false;
        });
        if (error === null) element.close();
        else note.textContent = error;
      },
    },
    h('h2', { id: 'create-title' }, 'Create a game'),
    h('fieldset', { class: 'opponents' }, h('legend', {}, 'Opponent'), anyone, friendChoice, engineChoice),
    friendRow,
    levelRow,
    noEngine,
    clock.element,
    h(
      'div',
      { class: 'row-group' },
      ratedRow,
      h('label', { class: 'row', for: 'create-color' }, 'Your colour ', color),
    ),
    h('label', { class: 'row', for: 'create-handicap' }, 'Handicap ', handicap),
    h('small', { id: 'create-handicap-help' }, 'In a handicap game the giver plays gote ☖ and moves first.'),
    note,
    h(
      'div',
      { class: 'dialog-buttons' },
      h('button', { type: 'button', onclick: () => element.close() }, 'Cancel'),
      submit,
    ),
  );
  const element = h('dialog', { class: 'create-game', 'aria-labelledby': 'create-title' }, form);
  showRows();
  return {
    element,
    open(who = 'anyone', name) {
      const input = element.querySelector<HTMLInputElement>(`input[value="${who}"]`);
      if (input) input.checked = true;
      if (name !== undefined) friend.value = name;
      note.textContent = '';
      showRows();
      element.showModal();
      (who === 'friend' ? friend : who === 'engine' ? level : anyone.querySelector('input'))?.focus();
    },
    offerBots(bots, engine) {
      engineRunning = engine?.running !== false;
      const levels = engineLevels(bots);
      level.replaceChildren(...levels.map((l) => h('option', { value: l.id }, levelLabel(l.level, levels))));
      engineChoice.hidden = levels.length === 0;
      showRows();
    },
  };
}
