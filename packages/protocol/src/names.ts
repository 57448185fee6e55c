/**
 * The rule for the names people choose (guest players, personal tokens): a name is shown to
 * other people exactly as stored, so it must look like what it is. Pure: the gateway applies
 * it to every name it accepts, and a client may apply it before sending.
 */

/** Longest name, in code points once normalized (a compatibility character can expand to many). */
export const NAME_MAX_LENGTH = 40;

export type NameCheck = { readonly ok: true; readonly name: string } | { readonly ok: false; readonly reason: string };

// Cc: controls (tab, newline, NUL...); Cf: format characters, invisible by design (zero-width
// spaces and joiners U+200B-U+200D, the marks U+200E/U+200F, bidi embeddings and overrides
// U+202A-U+202E and isolates U+2066-U+2069 that reorder the text shown after them, U+FEFF);
// Zl/Zp: line and paragraph separators; Cs: lone surrogates; Co: private use, whose glyph
// depends on the font; Cn: unassigned, which may become anything
const REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/u;
// characters every renderer is told to draw as nothing (Hangul fillers, the combining
// grapheme joiner...); variation selectors are kept, as emoji need them
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const VARIATION_SELECTOR = /\p{Variation_Selector}/u;
// a name must show something: a letter, a digit, punctuation or a symbol other than the
// blank braille pattern U+2800, which looks like a space
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const BLANK_SYMBOL = /\u2800/gu;
const SPACES = /\p{Zs}+/gu;

const firstRefused = (text: string): string | undefined => {
  for (const c of text) if (REFUSED.test(c) || (IGNORABLE.test(c) && !VARIATION_SELECTOR.test(c))) return c;
  return undefined;
};

const codePoint = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The name as it is to be stored, or why it is refused: NFKC-normalized (full-width letters,
 * ligatures and compatibility spaces become their plain forms), every run of spaces made one
 * space, trimmed; refused when it holds an invisible, format or control character, shows
 * nothing, or is longer than NAME_MAX_LENGTH code points.
 */
export function checkPlayerName(raw: string): NameCheck {
  const normalized = raw.normalize('NFKC');
  // the text as sent first, so the reason names the character the client wrote
  const refused = firstRefused(raw) ?? firstRefused(normalized);
  if (refused !== undefined)
    return { ok: false, reason: `the name holds ${codePoint(refused)}, an invisible, format or control character` };
  const name = normalized.replace(SPACES, ' ').trim();
  if (!VISIBLE.test(name.replace(BLANK_SYMBOL, '')))
    return { ok: false, reason: 'the name shows nothing: give a letter, a digit or a symbol' };
  const length = [...name].length;
  if (length > NAME_MAX_LENGTH)
    return { ok: false, reason: `the name is ${length} characters once normalized: at most ${NAME_MAX_LENGTH}` };
  return { ok: true, name };
}

/**
 * What two names are compared by: NFKC, then case-folded. `ＡＬＩＣＥ`, `Alice` and `alice`
 * have one key, so a guest cannot take an account's username in another case or width.
 * Letters of other scripts that merely look alike (Cyrillic а, Latin a) keep apart.
 */
export const nameKey = (name: string): string => name.normalize('NFKC').toLowerCase().normalize('NFKC');
