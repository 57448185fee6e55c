/**
 * Engine options: reading the `option` lines an engine lists after `usi`, writing them
 * back (for fakes and round-trip tests), and checking a value before it is set, so a
 * typo in a name or an out-of-range value is the caller's error, not an engine's silence.
 */
import type { OptionValue } from './commands.js';
import { integerOf, restOf, type Token, tokenize } from './tokens.js';

export const OPTION_TYPES = ['check', 'spin', 'combo', 'button', 'string', 'filename'] as const;
export type OptionType = (typeof OPTION_TYPES)[number];

export type UsiOption =
  | { readonly name: string; readonly type: 'check'; readonly default?: boolean }
  | {
      readonly name: string;
      readonly type: 'spin';
      readonly default?: number;
      readonly min?: number;
      readonly max?: number;
    }
  | { readonly name: string; readonly type: 'combo'; readonly default?: string; readonly vars: readonly string[] }
  | { readonly name: string; readonly type: 'button' }
  | { readonly name: string; readonly type: 'string' | 'filename'; readonly default?: string };

const KEYWORDS: ReadonlySet<string> = new Set(['default', 'min', 'max', 'var']);
const isOptionType = (t: string): t is OptionType => (OPTION_TYPES as readonly string[]).includes(t);
const EMPTY = '<empty>';

/** Keyword fields after `type X`: each value runs to the next keyword. */
function fieldsOf(tokens: readonly Token[], from: number): Array<[string, string]> | null {
  const fields: Array<[string, string]> = [];
  let key: string | null = null;
  let words: string[] = [];
  for (let i = from; i < tokens.length; i++) {
    const text = (tokens[i] as Token).text;
    if (KEYWORDS.has(text)) {
      if (key !== null) fields.push([key, words.join(' ')]);
      key = text;
      words = [];
    } else if (key === null) return null;
    else words.push(text);
  }
  if (key !== null) fields.push([key, words.join(' ')]);
  return fields;
}

function spinOf(name: string, fields: ReadonlyArray<[string, string]>): UsiOption | string {
  const spin: { name: string; type: 'spin'; default?: number; min?: number; max?: number } = { name, type: 'spin' };
  for (const [key, value] of fields) {
    const n = integerOf(value);
    if (n === null || key === 'var') return `spin ${key} "${value.slice(0, 40)}" is not an integer`;
    spin[key as 'default' | 'min' | 'max'] = n;
  }
  return spin;
}

/** Parses the words after `option`; a string is the reason the line is malformed. */
export function parseOptionLine(line: string, tokens: readonly Token[] = tokenize(line)): UsiOption | string {
  if (tokens[1]?.text !== 'name') return 'expected "option name"';
  const typeAt = tokens.findIndex((t, i) => i > 2 && t.text === 'type');
  if (typeAt < 0) return 'expected a name then "type"';
  const name = tokens
    .slice(2, typeAt)
    .map((t) => t.text)
    .join(' ');
  const type = tokens[typeAt + 1]?.text ?? '';
  if (!isOptionType(type)) return `unknown option type "${type.slice(0, 40)}"`;
  if (type === 'string' || type === 'filename') {
    // a string's default may hold spaces or keywords: it is the rest of the line
    if (tokens[typeAt + 2] === undefined) return { name, type };
    if (tokens[typeAt + 2]?.text !== 'default') return 'expected "default" after a string type';
    const value = restOf(line, tokens, typeAt + 3);
    return { name, type, default: value === EMPTY ? '' : value };
  }
  const fields = fieldsOf(tokens, typeAt + 2);
  if (fields === null) return 'expected default, min, max or var after the type';
  if (type === 'button') return { name, type };
  if (type === 'spin') return spinOf(name, fields);
  const defaults = fields.filter(([key]) => key === 'default').map(([, value]) => value);
  if (type === 'check') {
    const value = defaults.at(-1);
    if (value === undefined) return { name, type };
    return value === 'true' || value === 'false'
      ? { name, type, default: value === 'true' }
      : 'check default is true or false';
  }
  const vars = fields.filter(([key]) => key === 'var').map(([, value]) => value);
  const value = defaults.at(-1);
  return value === undefined ? { name, type, vars } : { name, type, default: value, vars };
}

export function formatOption(option: UsiOption): string {
  const head = `option name ${option.name} type ${option.type}`;
  switch (option.type) {
    case 'button':
      return head;
    case 'check':
      return option.default === undefined ? head : `${head} default ${option.default}`;
    case 'spin': {
      const parts = [head];
      if (option.default !== undefined) parts.push(`default ${option.default}`);
      if (option.min !== undefined) parts.push(`min ${option.min}`);
      if (option.max !== undefined) parts.push(`max ${option.max}`);
      return parts.join(' ');
    }
    case 'combo': {
      const parts = [head];
      if (option.default !== undefined) parts.push(`default ${option.default}`);
      for (const v of option.vars) parts.push(`var ${v}`);
      return parts.join(' ');
    }
    default:
      return option.default === undefined ? head : `${head} default ${option.default === '' ? EMPTY : option.default}`;
  }
}

/** Why `value` cannot be set on `option`, or null when it can. */
export function optionValueProblem(option: UsiOption, value: OptionValue | undefined): string | null {
  const name = option.name;
  switch (option.type) {
    case 'button':
      return value === undefined ? null : `${name} is a button: it takes no value`;
    case 'check':
      return typeof value === 'boolean' ? null : `${name} takes true or false`;
    case 'spin': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return `${name} takes an integer`;
      if (option.min !== undefined && value < option.min) return `${name} is at least ${option.min}`;
      if (option.max !== undefined && value > option.max) return `${name} is at most ${option.max}`;
      return null;
    }
    case 'combo':
      return typeof value === 'string' && option.vars.includes(value)
        ? null
        : `${name} is one of ${option.vars.slice(0, 10).join(', ')}`;
    default:
      return typeof value === 'string' ? null : `${name} takes a string`;
  }
}
