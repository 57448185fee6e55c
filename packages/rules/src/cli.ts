/**
 * The `shogi` command. Its output is a contract other tools parse (docs/rules.md, "The `shogi` command"):
 *   shogi perft DEPTH [--sfen SFEN|-] [--divide]   last line: the node count
 *   shogi moves [--sfen SFEN]                      legal moves in USI, sorted
 *   shogi check --sfen SFEN|- --move USI           `legal` | `illegal <reason>`
 *   shogi replay [--ruleset R] FILE... | --sfen SFEN --moves "USI ..."
 * Exit 0 on success, 2 on malformed input (message on stderr). This is the only module of
 * the package that does I/O.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { moveIllegality } from './legality.js';
import { generateLegal, legalMoves, MAX_MOVES } from './movegen.js';
import { decodeRecord } from './notation/decode.js';
import { perft } from './perft.js';
import type { Position } from './position.js';
import { PositionHistory, winnerOf } from './position-history.js';
import { type ReplayResult, replayMoves, replayRecord } from './replay.js';
import { parseSfen, START_SFEN, toSfen } from './sfen.js';
import { COLORS, RULESETS, type Ruleset } from './types.js';
import { formatUsi, parseUsi } from './usi.js';

const USAGE = `usage:
  shogi perft DEPTH [--sfen SFEN|-] [--divide]
  shogi moves [--sfen SFEN]
  shogi check --sfen SFEN|- [--move USI]
  shogi replay [--ruleset default|jsa] FILE...
  shogi replay [--ruleset default|jsa] [--sfen SFEN] --moves "USI USI ..."
  shogi demo [--seed N]`;

/** Malformed input: reported on stderr with exit status 2. */
class InputError extends Error {}

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  stdin: () => string;
}

function position(sfen: string | undefined): Position {
  const text = sfen === undefined || sfen === 'startpos' ? START_SFEN : sfen.replace(/^sfen\s+/, '');
  const parsed = parseSfen(text);
  if (!parsed.ok) throw new InputError(`invalid SFEN (${parsed.error.code}): ${parsed.error.message}`);
  return parsed.value;
}

function stdinLines(io: Io): string[] {
  return io
    .stdin()
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
}

function parseDepth(text: string | undefined): number {
  if (text === undefined || !/^\d{1,2}$/.test(text)) throw new InputError('DEPTH must be an integer from 0 to 99');
  return Number(text);
}

function perftCommand(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { sfen: { type: 'string' }, divide: { type: 'boolean' } },
  });
  const depth = parseDepth(positionals[0]);
  if (values.sfen === '-') {
    if (values.divide) throw new InputError('--divide cannot be combined with --sfen -');
    return forEachLine(io, (line) => String(perft(position(line), depth)));
  }
  const pos = position(values.sfen);
  if (values.divide && depth > 0) {
    const buffer = new Int32Array(MAX_MOVES);
    const n = generateLegal(pos, buffer);
    const rows: [string, number][] = [];
    let total = 0;
    for (let i = 0; i < n; i++) {
      const m = buffer[i] as number;
      pos.makeMove(m);
      const count = perft(pos, depth - 1);
      pos.unmakeMove(m);
      rows.push([formatUsi(m), count]);
      total += count;
    }
    rows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (const [usi, count] of rows) io.out(`${usi}: ${count}`);
    io.out(String(total));
  } else io.out(String(perft(pos, depth)));
  return 0;
}

/**
 * Answers each stdin line in order. A malformed line still gets an output line
 * (`error <message>`) so that answers stay aligned with questions; the exit status is 2.
 */
function forEachLine(io: Io, answer: (line: string) => string): number {
  let status = 0;
  for (const [i, line] of stdinLines(io).entries()) {
    try {
      io.out(answer(line));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      io.out(`error ${e.message}`);
      io.err(`line ${i + 1}: ${e.message}`);
      status = 2;
    }
  }
  return status;
}

function movesCommand(args: string[], io: Io): number {
  const { values } = parseArgs({ args, options: { sfen: { type: 'string' } } });
  for (const usi of legalMoves(position(values.sfen)).map(formatUsi).sort()) io.out(usi);
  return 0;
}

function verdict(pos: Position, usi: string): string {
  const m = parseUsi(usi.trim());
  if (m < 0) throw new InputError(`malformed USI move '${usi}'`);
  const reason = moveIllegality(pos, m);
  return reason === null ? 'legal' : `illegal ${reason}`;
}

function checkCommand(args: string[], io: Io): number {
  const { values } = parseArgs({ args, options: { sfen: { type: 'string' }, move: { type: 'string' } } });
  if (values.sfen === '-') {
    return forEachLine(io, (line) => {
      const tab = line.lastIndexOf('\t');
      if (tab < 0) throw new InputError('expected SFEN<TAB>USI');
      return verdict(position(line.slice(0, tab)), line.slice(tab + 1));
    });
  }
  if (values.move === undefined) throw new InputError('--move USI is required');
  io.out(verdict(position(values.sfen), values.move));
  return 0;
}

function printReplay(io: Io, result: ReplayResult): void {
  io.out(`plies ${result.plies}`);
  io.out(`sfen ${result.sfen}`);
  io.out(`status ${result.status}`);
  if (result.winner !== undefined) io.out(`winner ${COLORS[result.winner]}`);
  if (result.illegal) io.out(`illegal_ply ${result.illegal.ply} ${result.illegal.reason}`);
}

function replayCommand(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ruleset: { type: 'string', default: 'default' }, sfen: { type: 'string' }, moves: { type: 'string' } },
  });
  const ruleset = values.ruleset as Ruleset;
  if (!RULESETS.includes(ruleset)) throw new InputError(`--ruleset must be one of ${RULESETS.join(', ')}`);
  if (values.moves !== undefined) {
    const pos = position(values.sfen);
    const moves = values.moves.split(/\s+/).filter((m) => m !== '');
    for (const usi of moves) if (parseUsi(usi) < 0) throw new InputError(`malformed USI move '${usi}'`);
    printReplay(io, replayMoves(toSfen(pos), moves, ruleset));
    return 0;
  }
  if (positionals.length === 0) throw new InputError('give FILE... or --moves');
  let status = 0;
  for (const file of positionals) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (e) {
      io.err(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
      status = 2;
      continue;
    }
    const decoded = decodeRecord(bytes);
    if (!decoded.ok) {
      io.err(`${file}: not a readable CSA or KIF record (${decoded.error.code}): ${decoded.error.message}`);
      status = 2;
      continue;
    }
    io.out(`file ${file}`);
    printReplay(io, replayRecord(decoded.value.record, ruleset));
  }
  return status;
}

/** Plays one game of random legal moves (captures and checks preferred) and prints it. */
function demoCommand(args: string[], io: Io): number {
  const { values } = parseArgs({ args, options: { seed: { type: 'string', default: '1' } } });
  let seed = Number(values.seed) >>> 0 || 1;
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const game = new PositionHistory(position(undefined));
  io.out(`Demo: two random players from the start position (${START_SFEN})`);
  while (game.outcome.status === 'ongoing' && game.ply < 300) {
    const moves = legalMoves(game.position);
    const pos = game.position;
    const sharp = moves.filter((m) => {
      pos.makeMove(m);
      const check = pos.inCheck();
      pos.unmakeMove(m);
      return check;
    });
    const pool = sharp.length > 0 && random(3) > 0 ? sharp : moves;
    const m = pool[random(pool.length)] as number;
    game.play(m);
    io.out(`${game.ply}. ${formatUsi(m)}`);
  }
  const winner = winnerOf(game.outcome);
  io.out(`sfen ${toSfen(game.position)}`);
  io.out(`status ${game.outcome.status}${winner === null ? '' : ` winner ${COLORS[winner]}`}`);
  return 0;
}

export function run(argv: string[], io: Io): number {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'perft':
        return perftCommand(args, io);
      case 'moves':
        return movesCommand(args, io);
      case 'check':
        return checkCommand(args, io);
      case 'replay':
        return replayCommand(args, io);
      case 'demo':
        return demoCommand(args, io);
      default:
        throw new InputError(command === undefined ? 'missing command' : `unknown command '${command}'`);
    }
  } catch (e) {
    // parseArgs reports unknown or malformed options with a TypeError carrying this code
    const code = (e as { code?: string }).code;
    if (e instanceof InputError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err(`shogi: ${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}

export function main(): void {
  const lines: string[] = [];
  const status = run(process.argv.slice(2), {
    out: (line) => lines.push(line),
    err: (line) => process.stderr.write(`${line}\n`),
    stdin: () => readFileSync(0, 'utf8'),
  });
  process.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  process.exitCode = status;
}
