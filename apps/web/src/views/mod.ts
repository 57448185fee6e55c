/**
 * The moderators' page (/mod, issue 47): the fair-play queue (`GET /api/mod/queue`) with each
 * account's evidence (its aggregate, its screened games, the reports, the accounts seen from
 * the same address), and Mark and Unmark, each with the moderator's reason
 * (`POST`/`DELETE /api/mod/{username}/engine`). It takes a token with the `mod` scope, minted by
 * the operator (`npm run admin:token -- USERNAME --scope mod`), kept for this tab only.
 */
import { api } from '../api.js';
import { h } from '../dom.js';
import { failureSentence } from '../words/errors.js';

const TOKEN_KEY = 'shogi.modToken';

interface QueueGame {
  readonly gameId: string;
  readonly color: string;
  readonly verdict: string;
  readonly rule: string | null;
  readonly speed: string;
}
interface QueueEntry {
  readonly username: string;
  readonly playerId: string;
  readonly verdict: string;
  readonly evidence: {
    readonly aggregate: { readonly games?: number } | null;
    readonly games: readonly QueueGame[];
    readonly reports: readonly { reporter: string; reason: string; text: string | null; at: string }[];
    readonly relatedAccounts: readonly string[];
  };
}
interface MarkAnswer {
  readonly username: string;
  readonly marked: boolean;
  readonly changed: boolean;
  readonly refunds: number;
  readonly tournaments: number;
}

const words = (verdict: string) => verdict.replaceAll('_', ' ');

export function modPage(root: HTMLElement): () => void {
  let left = false;
  const status = h('p', { class: 'mod-status', role: 'status' });
  const list = h('div', { class: 'mod-queue' });
  const tokenField = h('input', {
    type: 'password',
    name: 'token',
    autocomplete: 'off',
    'aria-label': 'Moderator token',
  });
  tokenField.value = sessionStorage.getItem(TOKEN_KEY) ?? '';
  const token = () => tokenField.value.trim();

  const mark = async (username: string, reason: string, undo: boolean) => {
    const path = `/api/mod/${encodeURIComponent(username)}/engine`;
    const body = { reason: reason.trim() === '' ? (undo ? 'unmarked' : 'engine use') : reason.trim() };
    const answer = undo
      ? await api.del<MarkAnswer>(path, token(), body)
      : await api.post<MarkAnswer>(path, body, token());
    status.textContent = answer.marked
      ? `${answer.username} is marked${answer.changed ? `: ${answer.refunds} victims refunded, out of ${answer.tournaments} tournaments` : ' (already)'}.`
      : `${answer.username} is unmarked${answer.changed ? '' : ' (was not marked)'}.`;
  };

  const entryElement = (e: QueueEntry) => {
    const tally = new Map<string, number>();
    for (const g of e.evidence.games) tally.set(g.verdict, (tally.get(g.verdict) ?? 0) + 1);
    const reason = h('input', { name: 'reason', 'aria-label': `Reason for ${e.username}`, placeholder: 'reason' });
    const markButton = h('button', { type: 'button', class: 'mark' }, 'Mark as engine user');
    markButton.addEventListener('click', () => {
      markButton.disabled = true;
      mark(e.username, reason.value, false).then(load, (err: unknown) => {
        status.textContent = failureSentence(err);
        markButton.disabled = false;
      });
    });
    return h(
      'article',
      { class: 'mod-entry', 'data-username': e.username, 'data-verdict': e.verdict },
      h('h2', {}, h('a', { href: `/players/${e.playerId}`, 'data-link': true }, e.username), ` · ${e.verdict}`),
      h(
        'p',
        { class: 'games' },
        `${e.evidence.games.length} screened games`,
        tally.size === 0 ? '' : `: ${[...tally].map(([v, n]) => `${n} ${words(v)}`).join(', ')}`,
      ),
      e.evidence.games.length === 0
        ? ''
        : h(
            'ul',
            { class: 'mod-games' },
            ...e.evidence.games
              .slice(0, 10)
              .map((g) =>
                h(
                  'li',
                  {},
                  h('a', { href: `/games/${g.gameId}`, 'data-link': true }, g.gameId),
                  ` ${g.color}, ${g.speed}: ${words(g.verdict)}${g.rule === null ? '' : ` (${g.rule})`}`,
                ),
              ),
          ),
      h(
        'p',
        { class: 'reports' },
        `${e.evidence.reports.length} reports`,
        ...e.evidence.reports
          .slice(0, 5)
          .map((r) => ` · ${r.reporter}: ${r.reason}${r.text === null ? '' : ` “${r.text}”`}`),
      ),
      h(
        'p',
        { class: 'related' },
        'Same address: ',
        e.evidence.relatedAccounts.length === 0 ? 'none' : e.evidence.relatedAccounts.join(', '),
      ),
      h('p', { class: 'mod-actions' }, reason, ' ', markButton),
    );
  };

  function load(): void {
    if (token() === '') {
      list.replaceChildren(h('p', {}, 'A token with the mod scope opens the queue.'));
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token());
    api.authed<{ entries: QueueEntry[] }>('/api/mod/queue', token()).then(
      ({ entries }) => {
        if (left) return;
        list.replaceChildren(
          entries.length === 0 ? h('p', {}, 'Nobody to look at.') : '',
          ...entries.map(entryElement),
        );
      },
      (err: unknown) => {
        if (!left) list.replaceChildren(h('p', { class: 'error' }, failureSentence(err)));
      },
    );
  }

  const open = h(
    'form',
    { class: 'mod-token' },
    h('label', {}, 'Moderator token ', tokenField),
    h('button', { type: 'submit' }, 'Open the queue'),
  );
  open.addEventListener('submit', (e) => {
    e.preventDefault();
    load();
  });
  const unmarkName = h('input', { name: 'username', 'aria-label': 'Username to unmark', placeholder: 'username' });
  const unmarkReason = h('input', { name: 'reason', 'aria-label': 'Reason to unmark', placeholder: 'reason' });
  const unmark = h(
    'form',
    { class: 'mod-unmark' },
    unmarkName,
    ' ',
    unmarkReason,
    ' ',
    h('button', { type: 'submit' }, 'Unmark'),
  );
  unmark.addEventListener('submit', (e) => {
    e.preventDefault();
    mark(unmarkName.value.trim(), unmarkReason.value, true).then(load, (err: unknown) => {
      status.textContent = failureSentence(err);
    });
  });
  root.replaceChildren(
    h(
      'section',
      { class: 'mod' },
      h('h1', {}, 'Fair play: the moderators’ queue'),
      open,
      status,
      list,
      h('h2', {}, 'Unmark an account'),
      unmark,
    ),
  );
  load();
  return () => {
    left = true;
  };
}
