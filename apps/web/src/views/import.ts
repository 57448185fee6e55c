/**
 * "Import a game": paste a KIF, KI2, CSA or JKF record, or choose a file, and POST /api/import as this
 * browser's player (a guest is made on first use, as for play). A game imported, or already
 * there, opens its page; a refused record shows the server's line, ply and reason.
 */
import type { ErrorBody, ImportDuplicate, ImportRefusal, ImportResponse } from '@shogi/protocol';
import { h } from '../dom.js';
import { ensureIdentity } from '../session.js';
import './import.css';
import { failureSentence } from '../words/errors.js';

/** The server's refusal in words: which record, where, and why. */
export function refusalText(body: ImportRefusal): string {
  if (body.code !== 'INVALID_RECORD' || body.reason === undefined) return body.detail ?? body.message;
  const where = [
    body.records !== undefined && body.records > 1 ? `record ${body.record} of ${body.records}` : null,
    body.line ? `line ${body.line}` : null,
    body.ply ? `ply ${body.ply}` : null,
  ].filter((part): part is string => part !== null);
  return `${where.length === 0 ? '' : `${where.join(', ')}: `}${body.reason}`;
}

async function send(body: FormData | string, token: string): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  // a file goes as it is (its encoding detected by the server); pasted text as JSON
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  return fetch('/api/import', {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? JSON.stringify({ record: body }) : body,
  });
}

export function importPage(root: HTMLElement, navigate: (path: string) => void): () => void {
  let left = false;
  const text = h('textarea', {
    id: 'import-text',
    name: 'record',
    rows: 14,
    spellcheck: 'false',
    placeholder: 'Paste a KIF, KI2, CSA or JKF record here',
  });
  const file = h('input', { id: 'import-file', type: 'file', accept: '.kif,.kifu,.csa,.ki2,.jkf,text/plain' });
  const error = h('p', { class: 'import-error', role: 'alert' });
  const button = h('button', { type: 'submit' }, 'Import');

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    error.textContent = '';
    const chosen = file.files?.[0];
    if (chosen === undefined && text.value.trim() === '') {
      error.textContent = 'Paste a record or choose a file first.';
      return;
    }
    button.disabled = true;
    try {
      const who = await ensureIdentity();
      let body: FormData | string = text.value;
      if (chosen !== undefined) {
        body = new FormData();
        body.append('file', chosen, chosen.name);
      }
      const res = await send(body, who.token);
      const answer = (await res.json()) as ImportResponse | ImportDuplicate | ImportRefusal | ErrorBody;
      if (left) return;
      if ('gameId' in answer && answer.gameId !== undefined) {
        navigate(`/games/${encodeURIComponent(answer.gameId)}`);
        return;
      }
      error.textContent = `Not imported: ${refusalText(answer as ImportRefusal)}`;
    } catch (err) {
      if (!left) error.textContent = `Not imported: ${failureSentence(err)}`;
    } finally {
      button.disabled = false;
    }
  }

  root.replaceChildren(
    h(
      'section',
      { class: 'import' },
      h('h1', {}, 'Import a game'),
      h(
        'form',
        { onsubmit: (e: Event) => void submit(e) },
        h('label', { for: 'import-text' }, 'Record (KIF, KI2, CSA or JKF)'),
        text,
        h('label', { for: 'import-file' }, 'or a file'),
        file,
        button,
        error,
      ),
    ),
  );
  return () => {
    left = true;
  };
}
