/**
 * Fair play's report button (issue 47) on profiles and game pages: a fold-out form that sends
 * `POST /api/report` {username, reason, text?} for one of the named players; the server merges
 * reports of one account and limits how many one player sends.
 */
import { api } from '../api.js';
import { h } from '../dom.js';
import { ensureIdentity } from '../session.js';
import { failureSentence } from '../words/errors.js';

const REASONS = [
  ['cheat', 'Computer assistance'],
  ['boost', 'Rating manipulation'],
  ['other', 'Something else'],
] as const;

/** The Report fold-out for these usernames (an empty list: nothing to show). */
export function reportPanel(usernames: readonly string[]): HTMLElement | null {
  if (usernames.length === 0) return null;
  const who = h(
    'select',
    { name: 'username', 'aria-label': 'Player to report' },
    ...usernames.map((u) => h('option', { value: u }, u)),
  );
  const reason = h(
    'select',
    { name: 'reason', 'aria-label': 'Reason' },
    ...REASONS.map(([value, label]) => h('option', { value }, label)),
  );
  const text = h('textarea', { name: 'text', maxlength: 2000, rows: 3, 'aria-label': 'What you saw (optional)' });
  const status = h('p', { class: 'report-status', role: 'status' });
  const send = h('button', { type: 'submit' }, 'Send report');
  const form = h(
    'form',
    { class: 'report-form' },
    usernames.length > 1 ? h('label', {}, 'Player ', who) : '',
    h('label', {}, 'Reason ', reason),
    h('label', {}, 'Details ', text),
    send,
    status,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send.disabled = true;
    status.textContent = 'Sending…';
    const body = {
      username: usernames.length > 1 ? who.value : (usernames[0] as string),
      reason: reason.value,
      ...(text.value.trim() === '' ? {} : { text: text.value.trim() }),
    };
    ensureIdentity()
      .then((me) => api.post('/api/report', body, me.token))
      .then(
        () => {
          status.textContent = `Thank you: ${body.username} is reported to the moderators.`;
          text.value = '';
        },
        (err: unknown) => {
          status.textContent = failureSentence(err);
        },
      )
      .finally(() => {
        send.disabled = false;
      });
  });
  return h('details', { class: 'report' }, h('summary', {}, 'Report'), form);
}
