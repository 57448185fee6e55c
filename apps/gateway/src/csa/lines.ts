/**
 * The lines of the CSA server protocol (version 1.2.1 and shogi-server's x1 extension), read
 * from a client and written to one: plain values in, text out, no I/O. A client line is
 * printable ASCII but for a comment or chat text (UTF-8 without control characters); a line
 * that is none of the protocol's is `garbage`, and the listener closes its connection.
 */

/** The longest line a client may send, in bytes: a move with an engine's comment fits many times over. */
export const MAX_LINE_BYTES = 4096;

/** shogi-server's identifiers: player names and game names' ids. */
export const IDENTIFIER = /^[A-Za-z0-9_@.-]{1,32}$/;

export const X1_COMMANDS = [
  '%%WHO',
  '%%LIST',
  '%%GAME',
  '%%CHALLENGE',
  '%%SHOW',
  '%%MONITOR2ON',
  '%%MONITOR2OFF',
  '%%CHAT',
  '%%VERSION',
  '%%HELP',
] as const;
export type X1Command = (typeof X1_COMMANDS)[number];

/** An ending a player sends in place of a move. */
export const SPECIAL_MOVES = ['%TORYO', '%KACHI', '%CHUDAN'] as const;
export type SpecialMove = (typeof SPECIAL_MOVES)[number];

export type ClientLine =
  /** an empty line: a keep-alive, answered with an empty line */
  | { readonly kind: 'keepalive' }
  | { readonly kind: 'login'; readonly name: string; readonly password: string; readonly x1: boolean }
  | { readonly kind: 'logout' }
  /** `AGREE` / `REJECT`, with the game id when the client names it */
  | { readonly kind: 'agree' | 'reject'; readonly gameId: string | null }
  /** a move statement as sent (read against the position later), and its comment (`,'…`) */
  | { readonly kind: 'move'; readonly move: string; readonly comment: string | null }
  | { readonly kind: 'special'; readonly move: SpecialMove; readonly comment: string | null }
  /** an x1 command (`command` null: one this server does not know, `word` as sent) */
  | {
      readonly kind: 'x1';
      readonly command: X1Command | null;
      readonly word: string;
      readonly args: readonly string[];
      readonly text: string;
    }
  | { readonly kind: 'garbage'; readonly reason: string };

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// comments and chat may hold any text a person or an engine writes, but no control character
const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const garbage = (reason: string): ClientLine => ({ kind: 'garbage', reason });

/** `,'comment` after a move, or nothing; anything else after a comma is no protocol's. */
function splitComment(line: string): { head: string; comment: string | null } | null {
  const comma = line.indexOf(',');
  if (comma < 0) return { head: line, comment: null };
  const rest = line.slice(comma + 1);
  if (!rest.startsWith("'") || CONTROL.test(rest)) return null;
  return { head: line.slice(0, comma), comment: rest.slice(1) };
}

/** One line as received, without its LF (a CR before it is dropped: some clients send CRLF). */
export function parseClientLine(raw: string): ClientLine {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line === '') return { kind: 'keepalive' };
  if (Buffer.byteLength(line) > MAX_LINE_BYTES) return garbage('line too long');
  if (line.startsWith('+') || line.startsWith('-') || (line.startsWith('%') && !line.startsWith('%%'))) {
    const split = splitComment(line);
    if (split === null || !PRINTABLE_ASCII.test(split.head)) return garbage('not a move');
    const special = SPECIAL_MOVES.find((m) => m === split.head);
    if (special !== undefined) return { kind: 'special', move: special, comment: split.comment };
    if (line.startsWith('%')) return garbage(`unknown special move ${split.head.slice(0, 16)}`);
    return { kind: 'move', move: split.head, comment: split.comment };
  }
  if (line.startsWith('%%')) {
    const [word = '', ...args] = line.split(' ');
    const command = X1_COMMANDS.find((c) => c === word) ?? null;
    if (command === '%%CHAT') {
      const text = line.slice('%%CHAT'.length).trim();
      return CONTROL.test(text) ? garbage('control character in chat') : { kind: 'x1', command, word, args: [], text };
    }
    if (!PRINTABLE_ASCII.test(line)) return garbage('not ASCII');
    return { kind: 'x1', command, word, args: args.filter((a) => a !== ''), text: '' };
  }
  if (!PRINTABLE_ASCII.test(line)) return garbage('not ASCII');
  const words = line.split(' ').filter((w) => w !== '');
  switch (words[0]) {
    case 'LOGIN': {
      const [, name, password, ext] = words;
      if (name === undefined || password === undefined || words.length > 4 || (ext !== undefined && ext !== 'x1'))
        return garbage('LOGIN <name> <password> [x1]');
      return { kind: 'login', name, password, x1: ext === 'x1' };
    }
    case 'LOGOUT':
      return words.length === 1 ? { kind: 'logout' } : garbage('LOGOUT takes nothing');
    case 'AGREE':
    case 'REJECT':
      if (words.length > 2) return garbage(`${words[0]} [<game id>]`);
      return { kind: words[0] === 'AGREE' ? 'agree' : 'reject', gameId: words[1] ?? null };
    default:
      return garbage(`unknown line ${line.slice(0, 16)}`);
  }
}

// --- what the server writes --------------------------------------------------------

export const loginOk = (name: string): string => `LOGIN:${name} OK`;
export const LOGIN_INCORRECT = 'LOGIN:incorrect';
export const LOGOUT_COMPLETED = 'LOGOUT:completed';
export const startLine = (gameId: string): string => `START:${gameId}`;
export const rejectLine = (gameId: string, by: string): string => `REJECT:${gameId} by ${by}`;
/** A move as both players get it: the statement and its time in whole seconds. */
export const moveEcho = (move: string, seconds: number): string => `${move},T${seconds}`;
/** The x1 mode's answers: `##[COMMAND] text`. */
export const x1Line = (command: string, text: string): string => `##[${command}] ${text}`;
export const x1Error = (text: string): string => x1Line('ERROR', text);
