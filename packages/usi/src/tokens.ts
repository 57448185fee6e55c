/** Whitespace-separated words of an engine line, with where each starts (for "to the end of the line" fields). */
export interface Token {
  readonly text: string;
  readonly index: number;
}

const WORD = /\S+/g;

export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  for (const m of line.matchAll(WORD)) tokens.push({ text: m[0], index: m.index });
  return tokens;
}

/** The line from token `i` to its end, trailing whitespace dropped; '' past the last token. */
export function restOf(line: string, tokens: readonly Token[], i: number): string {
  const token = tokens[i];
  return token === undefined ? '' : line.slice(token.index).trimEnd();
}

const INTEGER = /^-?\d{1,16}$/;

/** An integer token, or null: no exponents, no fractions, nothing beyond the safe range. */
export function integerOf(text: string | undefined, min = Number.MIN_SAFE_INTEGER): number | null {
  if (text === undefined || !INTEGER.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min ? n : null;
}
