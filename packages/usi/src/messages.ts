/**
 * Lines an engine writes, read into typed messages. Engines are not trusted: any text at
 * all gives a message, and what is not USI is `unknown` (banners, "No such option: ...")
 * or `invalid` (a USI word followed by something malformed), never an exception.
 */
import { parseUsi } from '@shogi/rules';
import { formatInfo, parseInfoLine, type UsiInfo } from './info.js';
import { formatOption, parseOptionLine, type UsiOption } from './options.js';
import { restOf, tokenize } from './tokens.js';

/** The engine's answer to `go`: a move, resignation, or a declaration of a win by impasse. */
export type Bestmove = { readonly kind: 'move'; readonly move: string } | { readonly kind: 'resign' | 'win' };

export type EngineMessage =
  | { readonly type: 'id'; readonly key: 'name' | 'author'; readonly value: string }
  | { readonly type: 'option'; readonly option: UsiOption }
  | { readonly type: 'usiok' | 'readyok' }
  | { readonly type: 'bestmove'; readonly bestmove: Bestmove; readonly ponder?: string }
  | { readonly type: 'info'; readonly info: UsiInfo }
  /** Not a USI command: kept (shortened) for logs. */
  | { readonly type: 'unknown'; readonly line: string }
  /** A USI command whose arguments are malformed. */
  | { readonly type: 'invalid'; readonly command: string; readonly reason: string; readonly line: string };

/** Lines are echoed into messages for logs; a hostile engine's long line is cut. */
const ECHO_LENGTH = 200;
const echo = (line: string): string => (line.length > ECHO_LENGTH ? `${line.slice(0, ECHO_LENGTH)}…` : line);

const isMove = (text: string | undefined): text is string => text !== undefined && parseUsi(text) >= 0;

function invalid(command: string, reason: string, line: string): EngineMessage {
  return { type: 'invalid', command, reason, line: echo(line) };
}

function parseBestmove(line: string, words: readonly string[]): EngineMessage {
  const move = words[1];
  let bestmove: Bestmove;
  if (move === 'resign' || move === 'win') bestmove = { kind: move };
  else if (isMove(move)) bestmove = { kind: 'move', move };
  else return invalid('bestmove', move === undefined ? 'no move' : 'not a USI move, resign or win', line);
  // a malformed ponder move costs nothing: the best move stands without it
  const ponder = words[2] === 'ponder' && bestmove.kind === 'move' && isMove(words[3]) ? words[3] : undefined;
  return ponder === undefined ? { type: 'bestmove', bestmove } : { type: 'bestmove', bestmove, ponder };
}

/** Reads one line from an engine (without its newline). Never throws. */
export function parseEngineLine(line: string): EngineMessage {
  const tokens = tokenize(typeof line === 'string' ? line : '');
  const words = tokens.map((t) => t.text);
  switch (words[0]) {
    case 'usiok':
    case 'readyok':
      return words.length === 1 ? { type: words[0] } : invalid(words[0], 'unexpected words after it', line);
    case 'bestmove':
      return parseBestmove(line, words);
    case 'info': {
      const info = parseInfoLine(line, tokens);
      return typeof info === 'string' ? invalid('info', info, line) : { type: 'info', info };
    }
    case 'option': {
      const option = parseOptionLine(line, tokens);
      return typeof option === 'string' ? invalid('option', option, line) : { type: 'option', option };
    }
    case 'id': {
      const key = words[1];
      if (key !== 'name' && key !== 'author') return invalid('id', 'expected "id name" or "id author"', line);
      return { type: 'id', key, value: restOf(line, tokens, 2) };
    }
    default:
      return { type: 'unknown', line: echo(typeof line === 'string' ? line : '') };
  }
}

function formatBestmove(bestmove: Bestmove, ponder: string | undefined): string {
  const move = bestmove.kind === 'move' ? bestmove.move : bestmove.kind;
  return ponder === undefined ? `bestmove ${move}` : `bestmove ${move} ponder ${ponder}`;
}

/** The line an engine would write for a message: for fake engines and round-trip tests. */
export function formatEngineMessage(message: EngineMessage): string {
  switch (message.type) {
    case 'id':
      return `id ${message.key} ${message.value}`.trimEnd();
    case 'option':
      return formatOption(message.option);
    case 'usiok':
    case 'readyok':
      return message.type;
    case 'bestmove':
      return formatBestmove(message.bestmove, message.ponder);
    case 'info':
      return formatInfo(message.info);
    default:
      return message.line;
  }
}
