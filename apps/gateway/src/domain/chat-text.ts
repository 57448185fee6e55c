/**
 * The rule for a chat line's text: what people type is shown to others as it is stored, so
 * nothing in it may hide or reorder what follows. Pure.
 */
import { CHAT_TEXT_MAX } from '@shogi/protocol';

/** Longest line, in code points: lishogi's limit, which its clients keep to. */
export const CHAT_MAX_LENGTH = CHAT_TEXT_MAX;

export type ChatTextCheck =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

// bidi embeddings, overrides and isolates reorder the text shown after them (a line could
// show another player's words); controls and lone surrogates show nothing or break JSON
// readers. Format characters that are not bidi controls stay: emoji sequences need U+200D.
const HIDDEN = /[\u202a-\u202e\u2066-\u2069\p{Cc}\p{Cs}]/gu;
const SPACES = /[\s\u00a0]+/gu;

/**
 * The text as it is to be stored: line breaks, tabs and runs of spaces made one space, the
 * characters above removed, trimmed; refused when nothing is left or it is longer than
 * CHAT_MAX_LENGTH code points.
 */
export function checkChatText(raw: string): ChatTextCheck {
  const text = raw.replace(SPACES, ' ').replace(HIDDEN, '').replace(SPACES, ' ').trim();
  if (text === '') return { ok: false, reason: 'the text is empty' };
  const length = [...text].length;
  if (length > CHAT_MAX_LENGTH)
    return { ok: false, reason: `the text is ${length} characters: at most ${CHAT_MAX_LENGTH}` };
  return { ok: true, text };
}
