/**
 * The lobby's ways to find a game and who you are: quick seeks by time control (paired at
 * once with a compatible open seek, else waiting for one), the open seeks to accept,
 * challenges (sent by player id or name, with a clock, rated or not, and a colour; incoming
 * ones to accept or decline), and sign up /
 * log in / log out. Pairings arrive on the lobby socket; a seek is also polled.
 */
import type { ChallengeList, ChallengeView, SeekList, SeekView, SessionResponse, TimeControl } from '@shogi/protocol';
import { ApiFailure, api } from '../api.js';
import { h } from '../dom.js';
import { lobbySocket } from '../net/lobby.js';
import { ensureIdentity, forgetIdentity, identity, saveIdentity, withIdentity } from '../session.js';
import { timeControlText } from '../shogi/clock.js';
import {
  CLOCK_KINDS,
  type ClockFields,
  type ClockKind,
  clockChoice,
  DEFAULT_FIELDS,
  FIELDS_OF,
} from '../shogi/clock-choice.js';
import { CLOCK_PRESETS, presetLabel } from '../shogi/clock-presets.js';
import { titledName } from './bot-badge.js';

export interface PairingPanel {
  readonly element: HTMLElement;
  close(): void;
}

export function pairingPanel(navigate: (path: string) => void, onIdentity: () => void): PairingPanel {
  const note = h('p', { class: 'note', role: 'alert' });
  const waiting = h('div', { class: 'waiting', role: 'status' });
  const seeksList = h('ul', { class: 'seeks', 'aria-label': 'Open seeks' });
  const incoming = h('ul', { class: 'challenges', 'aria-label': 'Challenges to you' });
  const account = h('div', { class: 'account' });
  const opponentInput = h('input', { id: 'challenge-opponent', placeholder: 'player id or name', autocomplete: 'off' });
  const clock = termsForm('challenge');
  const seekTerms = termsForm('seek');
  let mySeek: string | null = null;
  let socket: { close(): void } | null = null;
  let poll: ReturnType<typeof setInterval> | undefined;
  const fail = (err: unknown) => {
    note.textContent = err instanceof ApiFailure ? err.message : String(err);
  };

  const listen = () => {
    socket?.close();
    const me = identity();
    socket = me
      ? lobbySocket(me.token, (m) => {
          if (m.type === 'paired' || m.type === 'accepted') navigate(`/games/${m.gameId}`);
          else if (m.type === 'challenge' || m.type === 'rematch') void refreshChallenges();
          else if (m.type === 'declined') note.textContent = 'Your challenge was declined.';
        })
      : null;
  };

  const seek = async (tc: TimeControl, color: 'sente' | 'gote' | 'random' = 'random', rated = false) => {
    note.textContent = '';
    try {
      const s = await withIdentity((me) =>
        api.post<SeekView>('/api/seeks', { timeControl: tc, rated, color }, me.token),
      );
      onIdentity();
      if (!socket) listen();
      if (s.status === 'paired' && s.gameId) return navigate(`/games/${s.gameId}`);
      mySeek = s.id;
      waiting.replaceChildren(
        `Looking for an opponent (${timeControlText(tc)}${rated ? ', rated' : ''})… `,
        h('button', { type: 'button', onclick: () => void cancelSeek() }, 'Cancel'),
      );
      clearInterval(poll);
      poll = setInterval(async () => {
        if (!mySeek) return;
        const now = await api.get<SeekView>(`/api/seeks/${mySeek}`).catch(() => null);
        if (now?.status === 'paired' && now.gameId) navigate(`/games/${now.gameId}`);
        else if (now && now.status !== 'open') {
          mySeek = null;
          waiting.textContent = `Your seek is ${now.status}.`;
        }
      }, 2000);
    } catch (err) {
      fail(err);
    }
  };

  const cancelSeek = async () => {
    const me = identity();
    if (!mySeek || !me) return;
    await api.del(`/api/seeks/${mySeek}`, me.token).catch(() => {});
    mySeek = null;
    clearInterval(poll);
    waiting.textContent = '';
  };

  const refreshSeeks = async () => {
    const { seeks } = await api.get<SeekList>('/api/seeks').catch(() => ({ seeks: [] as SeekView[] }));
    const me = identity();
    const others = seeks.filter((s) => s.player.id !== me?.id);
    seeksList.replaceChildren(
      ...(others.length === 0
        ? [h('li', { class: 'empty' }, 'No open seeks: start one above.')]
        : others.map((s) =>
            h(
              'li',
              {},
              `${s.player.name} (${s.rating}) · ${timeControlText(s.timeControl)}${s.rated ? ' · rated' : ''} `,
              h(
                'button',
                {
                  type: 'button',
                  // the same terms, rated flag included: only those pair with it
                  onclick: () =>
                    void seek(
                      s.timeControl,
                      s.color === 'sente' ? 'gote' : s.color === 'gote' ? 'sente' : 'random',
                      s.rated,
                    ),
                },
                'Play',
              ),
            ),
          )),
    );
  };

  const refreshChallenges = async () => {
    const me = identity();
    if (!me) return incoming.replaceChildren();
    const list = await api.authed<ChallengeList>('/api/challenges', me.token).catch(() => null);
    const pending = (list?.incoming ?? []).filter((c) => c.status === 'pending');
    const answer = async (c: ChallengeView, verb: 'accept' | 'decline') => {
      try {
        const done = await api.post<ChallengeView>(`/api/challenges/${c.id}/${verb}`, {}, me.token);
        if (done.gameId) navigate(`/games/${done.gameId}`);
        else void refreshChallenges();
      } catch (err) {
        fail(err);
      }
    };
    incoming.replaceChildren(
      ...pending.map((c) =>
        h(
          'li',
          {},
          ...titledName(c.challenger),
          ` ${c.rematchOf ? 'offers a rematch' : 'challenges you'} · ${timeControlText(c.timeControl)} `,
          h('button', { type: 'button', class: 'primary', onclick: () => void answer(c, 'accept') }, 'Accept'),
          h('button', { type: 'button', onclick: () => void answer(c, 'decline') }, 'Decline'),
        ),
      ),
    );
  };

  const challenge = async () => {
    note.textContent = '';
    const opponent = opponentInput.value.trim();
    if (opponent === '') {
      note.textContent = 'Enter a player id or name.';
      return;
    }
    const terms = clock.terms();
    if (!terms.ok) {
      note.textContent = terms.error;
      return;
    }
    try {
      const me = await ensureIdentity();
      onIdentity();
      if (!socket) listen();
      const { timeControl, rated, color } = terms;
      const c = await api.post<ChallengeView>('/api/challenges', { opponent, timeControl, rated, color }, me.token);
      waiting.replaceChildren(
        'Challenge sent to ',
        ...titledName(c.opponent),
        ` (${timeControlText(c.timeControl)}${c.rated ? ', rated' : ''}); the game opens when they accept.`,
      );
    } catch (err) {
      fail(err);
    }
  };

  const renderAccount = () => {
    const me = identity();
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
        onIdentity();
        listen();
        renderAccount();
      } catch (err) {
        fail(err);
      }
    };
    if (me?.account) {
      account.replaceChildren(
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            onclick: async () => {
              await api.del('/api/session', me.token).catch(() => {});
              forgetIdentity();
              socket?.close();
              socket = null;
              onIdentity();
              renderAccount();
            },
          },
          'Log out',
        ),
      );
      return;
    }
    account.replaceChildren(
      h(
        'details',
        {},
        h('summary', {}, 'Sign up or log in (keeps your games and rating)'),
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
      ),
    );
  };

  const element = h(
    'div',
    { class: 'pairing' },
    h('h2', {}, 'Find an opponent'),
    h(
      'div',
      { class: 'buttons' },
      // written as players write clocks; the title spells it out
      ...CLOCK_PRESETS.map((tc) =>
        h('button', { type: 'button', title: timeControlText(tc), onclick: () => void seek(tc) }, presetLabel(tc)),
      ),
    ),
    // any clock the server takes, not only the quick ones: paired with an open seek of the same terms
    h(
      'form',
      {
        class: 'custom-seek',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const terms = seekTerms.terms();
          if (!terms.ok) note.textContent = terms.error;
          else void seek(terms.timeControl, terms.color, terms.rated);
        },
      },
      h('span', {}, 'Or seek: '),
      seekTerms.element,
      h('button', { type: 'submit' }, 'Seek'),
    ),
    waiting,
    h('h3', {}, 'Open seeks'),
    seeksList,
    h('h3', {}, 'Challenges'),
    incoming,
    h(
      'form',
      {
        class: 'friend',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void challenge();
        },
      },
      h('label', { for: 'challenge-opponent' }, 'Challenge: '),
      opponentInput,
      clock.element,
      h('button', { type: 'submit' }, 'Send'),
    ),
    note,
    account,
  );
  renderAccount();
  listen();
  void refreshSeeks();
  void refreshChallenges();
  const timer = setInterval(() => void refreshSeeks(), 5000);
  return {
    element,
    close() {
      clearInterval(timer);
      clearInterval(poll);
      socket?.close();
    },
  };
}

type ChallengeTerms =
  | { ok: true; timeControl: TimeControl; rated: boolean; color: 'sente' | 'gote' | 'random' }
  | { ok: false; error: string };

/**
 * The challenge's terms: the clock (its kind, then only the fields that kind uses), rated or
 * casual, and the challenger's colour.
 */
function termsForm(prefix: 'challenge' | 'seek'): { element: HTMLElement; terms(): ChallengeTerms } {
  const kind = h(
    'select',
    { id: `${prefix}-clock`, name: 'clock' },
    ...CLOCK_KINDS.map((k) => h('option', { value: k.kind, selected: k.kind === DEFAULT_FIELDS.kind }, k.label)),
  );
  const number = (name: keyof ClockFields, label: string, min: number, max: number) => {
    const input = h('input', {
      id: `${prefix}-${name}`,
      name,
      type: 'number',
      inputmode: 'numeric',
      min,
      max,
      step: 1,
      value: DEFAULT_FIELDS[name],
    });
    return { input, label: h('label', { class: 'clock-field', 'data-field': name }, `${label} `, input) };
  };
  const inputs = {
    minutes: number('minutes', 'Main (min)', 0, 180),
    byoyomi: number('byoyomi', 'Byoyomi (s)', 0, 600),
    periods: number('periods', 'Periods', 1, 5),
    increment: number('increment', 'Increment (s)', 0, 180),
    days: number('days', 'Days per move', 1, 14),
  };
  const rated = h('input', { id: `${prefix}-rated`, name: 'rated', type: 'checkbox' });
  const color = h(
    'select',
    { id: `${prefix}-color`, name: 'color', 'aria-label': 'Your colour' },
    h('option', { value: 'random' }, 'Random colour'),
    h('option', { value: 'sente' }, 'I play sente ☗'),
    h('option', { value: 'gote' }, 'I play gote ☖'),
  );
  // only the fields of the chosen kind show
  const showFields = () => {
    const used = FIELDS_OF[kind.value as ClockKind];
    for (const [name, field] of Object.entries(inputs)) field.label.hidden = !used.includes(name as keyof ClockFields);
  };
  kind.addEventListener('change', showFields);
  showFields();
  const element = h(
    'fieldset',
    { class: 'challenge-terms' },
    h('legend', { class: 'visually-hidden' }, prefix === 'seek' ? 'Seek terms' : 'Challenge terms'),
    h('label', { for: `${prefix}-clock` }, 'Clock '),
    kind,
    ...Object.values(inputs).map((f) => f.label),
    h('label', { for: `${prefix}-rated` }, rated, ' Rated'),
    color,
  );
  return {
    element,
    terms() {
      const fields: ClockFields = {
        kind: kind.value as ClockKind,
        minutes: inputs.minutes.input.value,
        byoyomi: inputs.byoyomi.input.value,
        periods: inputs.periods.input.value,
        increment: inputs.increment.input.value,
        days: inputs.days.input.value,
      };
      const choice = clockChoice(fields, rated.checked);
      if (!choice.ok) return choice;
      return {
        ok: true,
        timeControl: choice.timeControl,
        rated: rated.checked,
        color: color.value as 'sente' | 'gote' | 'random',
      };
    },
  };
}
