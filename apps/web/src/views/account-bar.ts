/**
 * Who this browser plays as: a guest (a name to pick before the first game, "Start over as
 * a new guest" afterwards) or a logged-in account (its name, linked to its profile, and Log
 * out: an account is never offered to start over as a guest). Sign up and log in fold out.
 */
import type { SessionResponse } from '@shogi/protocol';
import { api } from '../api.js';
import { h } from '../dom.js';
import { forgetIdentity, identity, saveIdentity } from '../session.js';
import { failureSentence } from '../words/errors.js';

export interface AccountBar {
  readonly element: HTMLElement;
  /** the name a new guest takes */
  guestName(): string;
  render(): void;
}

export function accountBar(onChange: () => void): AccountBar {
  const element = h('div', { class: 'account-bar' });
  const note = h('p', { class: 'note', role: 'alert' });
  const nameInput = h('input', {
    id: 'guest-name',
    name: 'name',
    maxlength: 40,
    placeholder: 'Guest',
    autocomplete: 'nickname',
  });
  const changed = () => {
    render();
    onChange();
  };

  const loginForm = () => {
    const user = h('input', {
      id: 'username',
      name: 'username',
      autocomplete: 'username',
      minlength: 3,
      maxlength: 24,
    });
    const pass = h('input', {
      id: 'password',
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      minlength: 8,
    });
    const login = async (signUp: boolean) => {
      note.textContent = '';
      try {
        const body = { username: user.value.trim(), password: pass.value };
        if (signUp) await api.post('/api/accounts', body);
        const s = await api.post<SessionResponse>('/api/session', body);
        saveIdentity({ id: s.player.id, name: s.player.name, token: s.token, account: true });
        changed();
      } catch (err) {
        note.textContent = failureSentence(err);
      }
    };
    return h(
      'details',
      { class: 'login-box' },
      h('summary', {}, 'Sign up or log in'),
      h(
        'form',
        {
          class: 'login',
          onsubmit: (e: Event) => {
            e.preventDefault();
            void login(false);
          },
        },
        h('label', { for: 'username' }, 'Username ', user),
        h('label', { for: 'password' }, 'Password ', pass),
        h('button', { type: 'submit', class: 'primary' }, 'Log in'),
        h('button', { type: 'button', onclick: () => void login(true) }, 'Sign up'),
      ),
    );
  };

  const render = () => {
    const me = identity();
    if (me === null) {
      element.replaceChildren(
        h('p', { class: 'who' }, h('label', { for: 'guest-name' }, 'Play as a guest named '), nameInput),
        loginForm(),
        note,
      );
      return;
    }
    const name = h('a', { href: `/players/${me.id}`, 'data-link': true, class: 'me' }, me.name);
    if (me.account) {
      element.replaceChildren(
        h(
          'p',
          { class: 'who' },
          'Logged in as ',
          name,
          ' ',
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              onclick: async () => {
                await api.del('/api/session', me.token).catch(() => {});
                forgetIdentity();
                changed();
              },
            },
            'Log out',
          ),
        ),
        note,
      );
      return;
    }
    element.replaceChildren(
      h(
        'p',
        { class: 'who' },
        'You play as ',
        name,
        ' (guest) · ',
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            onclick: () => {
              forgetIdentity();
              changed();
            },
          },
          'Start over as a new guest',
        ),
      ),
      loginForm(),
      note,
    );
  };
  render();
  return { element, guestName: () => nameInput.value, render };
}
