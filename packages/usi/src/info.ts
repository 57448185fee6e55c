/**
 * `info` lines: what an engine reports while it searches. Unknown keys are skipped (engines
 * add their own, such as `tbhits`); a known key with a bad value makes the line invalid.
 */
import { parseUsi } from '@shogi/rules';
import { integerOf, restOf, type Token, tokenize } from './tokens.js';

export type ScoreBound = 'lower' | 'upper';

export type UsiScore =
  | { readonly kind: 'cp'; readonly value: number; readonly bound?: ScoreBound }
  | {
      readonly kind: 'mate';
      /** Plies to mate; null when the engine gave only the sign (`mate +`, `mate -`). */
      readonly plies: number | null;
      /** The side to move mates; false when it is mated (`mate -N`, and `mate 0`: mated now). */
      readonly winning: boolean;
      readonly bound?: ScoreBound;
    };

export interface UsiInfo {
  readonly depth?: number;
  readonly seldepth?: number;
  /** Milliseconds searched. */
  readonly time?: number;
  readonly nodes?: number;
  readonly nps?: number;
  /** Per mille of the hash table in use. */
  readonly hashfull?: number;
  /** 1 for the best line; higher for the other lines of a MultiPV search. */
  readonly multipv?: number;
  readonly currmove?: string;
  readonly currmovenumber?: number;
  readonly score?: UsiScore;
  readonly pv?: readonly string[];
  /** Free text from the engine: the rest of the line. */
  readonly string?: string;
}

const COUNTS = ['depth', 'seldepth', 'time', 'nodes', 'nps', 'hashfull', 'multipv', 'currmovenumber'] as const;
type CountKey = (typeof COUNTS)[number];
const isCountKey = (key: string): key is CountKey => (COUNTS as readonly string[]).includes(key);
/** Keys engines add that take one value and that nothing here needs. */
const SKIPPED_WITH_VALUE: ReadonlySet<string> = new Set(['tbhits', 'sbhits', 'cpuload']);
const MATE = /^([+-]?)(\d{1,9})?$/;

const isMove = (text: string | undefined): text is string => text !== undefined && parseUsi(text) >= 0;

/** Reads `cp N` / `mate N` and an optional bound from token `i`; returns the score and the next index. */
function scoreAt(tokens: readonly Token[], i: number): { score: UsiScore; next: number } | string {
  const kind = tokens[i]?.text;
  const value = tokens[i + 1]?.text;
  let score: UsiScore;
  if (kind === 'cp') {
    const cp = integerOf(value);
    if (cp === null) return 'score cp needs an integer';
    score = { kind: 'cp', value: cp };
  } else if (kind === 'mate') {
    const m = value === undefined || value === '' ? null : MATE.exec(value);
    if (m === null) return 'score mate needs [+|-]N, + or -';
    const plies = m[2] === undefined ? null : Number(m[2]);
    score = { kind: 'mate', plies, winning: m[1] !== '-' && plies !== 0 };
  } else return 'score needs cp or mate';
  const bound = tokens[i + 2]?.text;
  if (bound === 'lowerbound' || bound === 'upperbound')
    return { score: { ...score, bound: bound === 'lowerbound' ? 'lower' : 'upper' }, next: i + 3 };
  return { score, next: i + 2 };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Parses an `info` line; a string is the reason it is malformed. */
export function parseInfoLine(line: string, tokens: readonly Token[] = tokenize(line)): UsiInfo | string {
  const info: Mutable<UsiInfo> = {};
  let i = 1;
  while (i < tokens.length) {
    const key = (tokens[i] as Token).text;
    if (isCountKey(key)) {
      const n = integerOf(tokens[i + 1]?.text, 0);
      if (n === null) return `${key} needs a whole number`;
      info[key] = n;
      i += 2;
    } else if (key === 'score') {
      const read = scoreAt(tokens, i + 1);
      if (typeof read === 'string') return read;
      info.score = read.score;
      i = read.next;
    } else if (key === 'currmove') {
      const move = tokens[i + 1]?.text;
      if (!isMove(move)) return 'currmove needs a USI move';
      info.currmove = move;
      i += 2;
    } else if (key === 'pv') {
      // the line's moves, up to the first word that is not one (engines may end it with a remark)
      const pv: string[] = [];
      for (i++; isMove(tokens[i]?.text); i++) pv.push((tokens[i] as Token).text);
      info.pv = pv;
    } else if (key === 'string') {
      info.string = restOf(line, tokens, i + 1);
      break;
    } else i += SKIPPED_WITH_VALUE.has(key) ? 2 : 1;
  }
  return info;
}

export function formatScore(score: UsiScore): string {
  let text: string;
  if (score.kind === 'cp') text = `score cp ${score.value}`;
  else if (score.plies === null) text = `score mate ${score.winning ? '+' : '-'}`;
  // mated now is `mate 0`, as engines write it: there is no `-0`
  else text = `score mate ${score.winning || score.plies === 0 ? '' : '-'}${score.plies}`;
  if (score.bound !== undefined) text += score.bound === 'lower' ? ' lowerbound' : ' upperbound';
  return text;
}

/** The info's line, keys in the order engines print them; `pv` and `string` last. */
export function formatInfo(info: UsiInfo): string {
  const words = ['info'];
  for (const key of ['depth', 'seldepth', 'multipv'] as const)
    if (info[key] !== undefined) words.push(key, String(info[key]));
  if (info.score !== undefined) words.push(formatScore(info.score));
  for (const key of ['nodes', 'nps', 'hashfull', 'time', 'currmovenumber'] as const)
    if (info[key] !== undefined) words.push(key, String(info[key]));
  if (info.currmove !== undefined) words.push('currmove', info.currmove);
  if (info.pv !== undefined) words.push('pv', ...info.pv);
  if (info.string !== undefined) words.push('string', info.string);
  return words.join(' ').trimEnd();
}
