import { describe, expect, test } from 'vitest';
import { checkPlayerName, NAME_MAX_LENGTH, nameKey } from '../src/index.js';

describe('checkPlayerName', () => {
  test.each([
    ['alice', 'alice'],
    ['  Bob  ', 'Bob'],
    ['羽生 善治', '羽生 善治'],
    // compatibility forms become plain ones: full-width letters, ligatures, odd spaces
    ['ＡＬＩＣＥ', 'ALICE'],
    ['ﬁsh', 'fish'],
    ['a\u3000b', 'a b'],
    ['a\u00a0\u2003 b', 'a b'],
    ['a    b', 'a b'],
    ['Ａ\u0301', 'Á'],
    // emoji, with the variation selector they need
    ['♟\ufe0f player', '♟\ufe0f player'],
    ['☗', '☗'],
    ['x'.repeat(NAME_MAX_LENGTH), 'x'.repeat(NAME_MAX_LENGTH)],
  ])('accepts %j as %j', (raw, name) => {
    expect(checkPlayerName(raw)).toEqual({ ok: true, name });
  });

  test.each([
    // format characters: zero-width, direction marks, bidi embeddings, overrides and isolates, BOM
    ['alice\u200b', 'U+200B'],
    ['ali\u200cce', 'U+200C'],
    ['ali\u200dce', 'U+200D'],
    ['\u200ealice', 'U+200E'],
    ['alice\u200f', 'U+200F'],
    ['\u202aalice', 'U+202A'],
    ['\u202dalice', 'U+202D'],
    ['\u202egnp.exe', 'U+202E'],
    ['\u2066alice\u2069', 'U+2066'],
    ['alice\u2069', 'U+2069'],
    ['\ufeffalice', 'U+FEFF'],
    ['a\u00adb', 'U+00AD'],
    ['a\u2060b', 'U+2060'],
    // controls and separators
    ['a\tb', 'U+0009'],
    ['a\nb', 'U+000A'],
    ['a\u0085b', 'U+0085'],
    ['a\u2028b', 'U+2028'],
    ['a\u2029b', 'U+2029'],
    // drawn as nothing though they are letters, private use, unassigned
    ['\u3164', 'U+3164'],
    ['a\u115fb', 'U+115F'],
    ['a\u034fb', 'U+034F'],
    ['a\ue000b', 'U+E000'],
    ['a\uffffb', 'U+FFFF'],
  ])('refuses %j, naming %s', (raw, code) => {
    const checked = checkPlayerName(raw);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toContain(code);
  });

  test.each([[''], [' '], ['   '], ['\u3000'], ['\u2003\u2002'], ['\u2800'], ['\u0301'], [' \u2800 ']])(
    'refuses %j: it shows nothing',
    (raw) => {
      expect(checkPlayerName(raw)).toEqual({
        ok: false,
        reason: 'the name shows nothing: give a letter, a digit or a symbol',
      });
    },
  );

  test('counts the length once normalized, in code points', () => {
    // one character that NFKC spells out in 18
    expect(checkPlayerName('\ufdfa'.repeat(3))).toEqual({
      ok: false,
      reason: `the name is 54 characters once normalized: at most ${NAME_MAX_LENGTH}`,
    });
    expect(checkPlayerName('🐉'.repeat(NAME_MAX_LENGTH))).toMatchObject({ ok: true });
  });

  test('a normalized name is its own normal form', () => {
    for (const raw of ['ＡＬＩＣＥ', ' a\u3000 b ', 'ﬁsh', 'Ａ\u0301'])
      if (checkPlayerName(raw).ok) {
        const once = checkPlayerName(raw) as { name: string };
        expect(checkPlayerName(once.name)).toEqual(once);
      }
  });
});

describe('nameKey', () => {
  test('folds case and width, not scripts', () => {
    expect(nameKey('ＡＬＩＣＥ')).toBe('alice');
    expect(nameKey('Alice')).toBe(nameKey('aLiCe'));
    expect(nameKey('\u212aelvin')).toBe('kelvin');
    // Cyrillic а is another letter
    expect(nameKey('\u0430lice')).not.toBe('alice');
  });
});
