/**
 * The commands a GUI (here: the server) sends an engine, and their text. Everything that
 * goes into a line is checked first: a newline smuggled into an SFEN, a move or an option
 * value would become a command of its own, so a bad value is an error, never written.
 */
import { err, ok, parseUsi, type Result } from '@shogi/rules';

export type OptionValue = string | number | boolean;

export interface PositionSpec {
  /** The start position; absent for the standard one (`position startpos`). */
  readonly sfen?: string;
  /** USI moves played from it. */
  readonly moves?: readonly string[];
}

/** What bounds a search: the game clock, a fixed budget, or nothing (until `stop`). */
export type SearchLimits =
  | {
      readonly kind: 'clock';
      /** Milliseconds left on sente's (b) and gote's (w) main time. */
      readonly btime: number;
      readonly wtime: number;
      readonly byoyomi?: number;
      readonly binc?: number;
      readonly winc?: number;
    }
  | { readonly kind: 'fixed'; readonly depth?: number; readonly nodes?: number; readonly movetime?: number }
  | { readonly kind: 'infinite' };

export type GameResult = 'win' | 'lose' | 'draw';

export type UsiCommand =
  | { readonly type: 'usi' | 'isready' | 'usinewgame' | 'stop' | 'quit' }
  | { readonly type: 'setoption'; readonly name: string; readonly value?: OptionValue }
  | { readonly type: 'position'; readonly position: PositionSpec }
  | { readonly type: 'go'; readonly limits: SearchLimits }
  | { readonly type: 'gameover'; readonly result: GameResult };

export type CommandErrorCode = 'bad_sfen' | 'bad_move' | 'bad_option' | 'bad_limits' | 'bad_command';
export interface CommandError {
  readonly code: CommandErrorCode;
  readonly message: string;
}

const fail = (code: CommandErrorCode, message: string): { ok: false; error: CommandError } => err({ code, message });

/** Board, side, hand and an optional move number, single-spaced: exactly what `toSfen` writes. */
const SFEN_TEXT = /^[1-9+A-Za-z]{1,40}(?:\/[1-9+A-Za-z]{1,40}){8} [bw] (?:-|(?:\d{0,2}[A-Za-z]){1,14})(?: \d{1,6})?$/;
/** Words of visible characters separated by single spaces; `value` is the keyword that ends a name. */
const OPTION_NAME = /^[^\s\p{Cc}]+(?: [^\s\p{Cc}]+)*$/u;
const CONTROL = /\p{Cc}/u;
const MAX_OPTION_NAME = 128;
const MAX_OPTION_VALUE = 1024;
/** A bound far above any game, so a caller's runaway list cannot make a huge line. */
const MAX_MOVES = 4096;
const RESULTS: readonly string[] = ['win', 'lose', 'draw'];

function formatPosition(position: PositionSpec): Result<string, CommandError> {
  let head = 'position startpos';
  if (position.sfen !== undefined) {
    if (typeof position.sfen !== 'string' || !SFEN_TEXT.test(position.sfen))
      return fail('bad_sfen', 'the SFEN is not single-spaced "BOARD SIDE HAND [MOVE_NUMBER]"');
    head = `position sfen ${position.sfen}`;
  }
  const moves = position.moves ?? [];
  if (!Array.isArray(moves) || moves.length > MAX_MOVES) return fail('bad_move', `at most ${MAX_MOVES} moves`);
  for (const [i, move] of moves.entries()) {
    if (typeof move !== 'string' || parseUsi(move) < 0)
      return fail('bad_move', `move ${i + 1} is not a USI move: ${JSON.stringify(move).slice(0, 40)}`);
  }
  return ok(moves.length === 0 ? head : `${head} moves ${moves.join(' ')}`);
}

function formatValue(value: OptionValue): Result<string, CommandError> {
  if (typeof value === 'boolean') return ok(value ? 'true' : 'false');
  if (typeof value === 'number')
    return Number.isSafeInteger(value) ? ok(String(value)) : fail('bad_option', 'a number value must be an integer');
  if (typeof value !== 'string') return fail('bad_option', 'an option value is a string, an integer or a boolean');
  if (value.length > MAX_OPTION_VALUE || CONTROL.test(value))
    return fail('bad_option', `a string value is at most ${MAX_OPTION_VALUE} characters, without control characters`);
  // USI spells the empty string `<empty>`
  return ok(value === '' ? '<empty>' : value);
}

function formatSetOption(name: string, value: OptionValue | undefined): Result<string, CommandError> {
  if (typeof name !== 'string' || name.length > MAX_OPTION_NAME || !OPTION_NAME.test(name))
    return fail('bad_option', 'an option name is words of visible characters separated by single spaces');
  if (name.split(' ').some((word) => word.toLowerCase() === 'value'))
    return fail('bad_option', 'an option name cannot contain the word "value"');
  if (value === undefined) return ok(`setoption name ${name}`);
  const text = formatValue(value);
  return text.ok ? ok(`setoption name ${name} value ${text.value}`) : text;
}

const isCount = (n: unknown, min: number): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= min;

function formatGo(limits: SearchLimits): Result<string, CommandError> {
  const words = ['go'];
  const add = (key: string, n: number | undefined, min: number): boolean => {
    if (n === undefined) return true;
    if (!isCount(n, min)) return false;
    words.push(key, String(n));
    return true;
  };
  switch (limits?.kind) {
    case 'clock': {
      const fits =
        add('btime', limits.btime, 0) &&
        add('wtime', limits.wtime, 0) &&
        add('byoyomi', limits.byoyomi, 0) &&
        add('binc', limits.binc, 0) &&
        add('winc', limits.winc, 0);
      if (!fits || limits.btime === undefined || limits.wtime === undefined)
        return fail('bad_limits', 'a clock needs btime and wtime; every time is a whole number of ms, at least 0');
      return ok(words.join(' '));
    }
    case 'fixed': {
      const fits =
        add('depth', limits.depth, 1) && add('nodes', limits.nodes, 1) && add('movetime', limits.movetime, 1);
      if (!fits || words.length === 1)
        return fail('bad_limits', 'a fixed budget is one or more of depth, nodes, movetime: whole numbers, at least 1');
      return ok(words.join(' '));
    }
    case 'infinite':
      return ok('go infinite');
    default:
      return fail('bad_limits', 'limits are of kind clock, fixed or infinite');
  }
}

/** The command's line, without its newline. */
export function formatCommand(command: UsiCommand): Result<string, CommandError> {
  switch (command?.type) {
    case 'usi':
    case 'isready':
    case 'usinewgame':
    case 'stop':
    case 'quit':
      return ok(command.type);
    case 'setoption':
      return formatSetOption(command.name, command.value);
    case 'position':
      return formatPosition(command.position ?? {});
    case 'go':
      return formatGo(command.limits);
    case 'gameover':
      return RESULTS.includes(command.result)
        ? ok(`gameover ${command.result}`)
        : fail('bad_command', 'a game result is win, lose or draw');
    default:
      return fail('bad_command', 'unknown command');
  }
}
