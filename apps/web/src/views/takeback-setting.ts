/**
 * The account's takeback preference on the settings page: when the player's games allow
 * takebacks (always, in casual games only, never). It lives on the server (`/api/me/preferences`)
 * because both players' preferences decide a game's takebacks; a guest has the default and is
 * asked to sign in to choose.
 */
import type { Preferences } from '@shogi/protocol';
import { api } from '../api.js';
import { h } from '../dom.js';
import { identity } from '../session.js';
import { failureSentence } from '../words/errors.js';

type Takeback = Preferences['takeback'];

const OPTIONS: readonly (readonly [Takeback, string])[] = [
  ['always', 'Always'],
  ['casual', 'In casual games only'],
  ['never', 'Never'],
];

export function takebackSetting(saved: HTMLElement): HTMLElement {
  const legend = h('legend', {}, 'Takebacks');
  const note = h('p', { class: 'setting-note' });
  const set = h('fieldset', { class: 'setting', 'data-setting': 'takeback' }, legend, note);
  const me = identity();
  if (!me?.account) {
    note.textContent = 'Sign up or log in to choose whether your opponents may take back moves.';
    return set;
  }
  note.textContent = 'Whether your opponents may take back a move in your games:';
  const radios = OPTIONS.map(([value, label]) => {
    const input = h('input', { type: 'radio', name: 'takeback', value, id: `takeback-${value}`, disabled: true });
    set.append(h('label', {}, input, ` ${label}`));
    return input;
  });
  const show = (current: Takeback) => {
    for (const r of radios) {
      r.checked = r.value === current;
      r.disabled = false;
    }
  };
  api.authed<Preferences>('/api/me/preferences', me.token).then(
    (p) => show(p.takeback),
    (err: unknown) => {
      note.textContent = failureSentence(err);
    },
  );
  set.addEventListener('change', (e) => {
    const takeback = (e.target as HTMLInputElement).value as Takeback;
    api.post<Preferences>('/api/me/preferences', { takeback }, me.token).then(
      (p) => {
        show(p.takeback);
        saved.textContent = 'Saved: takebacks set.';
      },
      (err: unknown) => {
        saved.textContent = failureSentence(err);
      },
    );
  });
  return set;
}
