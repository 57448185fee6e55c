/** The chat text rule: what is stored and shown, and what is refused. */
import { describe, expect, test } from 'vitest';
import { CHAT_MAX_LENGTH, checkChatText } from '../src/domain/chat-text.js';

describe('chat text', () => {
  test.each([
    ['hello', 'hello'],
    ['  hello   there  ', 'hello there'],
    ['good\nluck\r\n\tall', 'good luck all'],
    // bidi overrides and isolates would reorder what is shown after them
    ['abc\u202edcba', 'abcdcba'],
    ['a\u2066b\u2069c', 'abc'],
    // controls, NUL included, show nothing
    ['a\u0000b\u0007c', 'abc'],
    // emoji sequences keep their zero-width joiner; Japanese as typed
    ['👨\u200d👩\u200d👧 よろしくお願いします', '👨\u200d👩\u200d👧 よろしくお願いします'],
    ['Ｆｕｌｌ', 'Ｆｕｌｌ'],
  ])('%j is stored as %j', (raw, text) => {
    expect(checkChatText(raw)).toEqual({ ok: true, text });
  });

  test.each([[''], ['   '], ['\n\t'], ['\u202e'], ['\u0000']])('%j is refused as empty', (raw) => {
    expect(checkChatText(raw)).toEqual({ ok: false, reason: 'the text is empty' });
  });

  test('at most 140 code points, as lishogi: astral characters count once', () => {
    expect(CHAT_MAX_LENGTH).toBe(140);
    expect(checkChatText('x'.repeat(140)).ok).toBe(true);
    expect(checkChatText('🙂'.repeat(140)).ok).toBe(true);
    expect(checkChatText('x'.repeat(141))).toEqual({ ok: false, reason: 'the text is 141 characters: at most 140' });
  });
});
