// shogi-pairings: the command line every FIDE-endorsed pairing program shares (JaVaFo's, which
// bbpPairings follows). The only module of the package that touches files and the process.
//
//   shogi-pairings --dutch input.trf -p [output]   the next round: the number of pairs, then
//                                                   "white black" per line, a bye as "N 0"
//   shogi-pairings --dutch input.trf -c            every round of a finished file paired again

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkTournament, sortPairings } from './check.js';
import { NoValidPairingError, pairDutch } from './dutch.js';
import { parseTrf, TrfError, tournamentForNextRound } from './trf.js';

/** JaVaFo's and bbpPairings' exit codes. */
export const EXIT = {
  ok: 0,
  noValidPairing: 1,
  unexpectedError: 2,
  invalidRequest: 3,
  limitExceeded: 4,
  fileError: 5,
} as const;

export interface CliIo {
  readonly readFile: (path: string) => string;
  readonly writeFile: (path: string, text: string) => void;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const USAGE = `usage:
  shogi-pairings --dutch input.trf -p [output-file]
  shogi-pairings --dutch input.trf -c
`;

/** The pairing lines JaVaFo writes: the number of pairs, then "white black", a bye as "N 0". */
export function formatPairingOutput(pairs: readonly { white: number; black: number | null }[]): string {
  const lines = [String(pairs.length)];
  for (const p of pairs) lines.push(`${p.white + 1} ${p.black === null ? 0 : p.black + 1}`);
  return `${lines.join('\n')}\n`;
}

export function runCli(argv: readonly string[], io: CliIo): number {
  const [system, input, mode, output, ...rest] = argv;
  const valid =
    system === '--dutch' &&
    input !== undefined &&
    ((mode === '-p' && rest.length === 0) || (mode === '-c' && output === undefined));
  if (!valid) {
    io.stderr(USAGE);
    return EXIT.invalidRequest;
  }
  let text: string;
  try {
    text = io.readFile(input);
  } catch (error) {
    io.stderr(`Error reading file ${input}: ${(error as Error).message}\n`);
    return EXIT.fileError;
  }
  try {
    const file = parseTrf(text);
    if (mode === '-c') {
      const checks = checkTournament(file);
      for (const check of checks) {
        if (check.matches) continue;
        io.stdout(`Round ${check.round} differs.\n  file:   ${check.expected}\n  engine: ${check.actual}\n`);
      }
      const same = checks.filter((c) => c.matches).length;
      io.stdout(`${same} of ${checks.length} rounds match.\n`);
      return EXIT.ok;
    }
    const tournament = tournamentForNextRound(file);
    if (tournament.initialColor === null) {
      io.stderr(`Error while parsing ${input}: please configure the initial colours (XXC white1 or XXC black1).\n`);
      return EXIT.invalidRequest;
    }
    const pairs = sortPairings(tournament, pairDutch(tournament));
    const result = formatPairingOutput(pairs);
    if (output === undefined) {
      io.stdout(result);
      return EXIT.ok;
    }
    // As JaVaFo does, a bare output name is written beside the input file.
    const target = dirname(output) === '.' && !output.startsWith('.') ? join(dirname(input), output) : output;
    try {
      io.writeFile(target, result);
    } catch (error) {
      io.stderr(`The output file (${target}) could not be written: ${(error as Error).message}\n`);
      return EXIT.fileError;
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof TrfError) {
      io.stderr(`Error parsing file ${input}: ${error.message}\n`);
      return EXIT.invalidRequest;
    }
    if (error instanceof NoValidPairingError) {
      io.stderr(`Error while pairing ${input}: No valid pairing exists: ${error.message}\n`);
      return EXIT.noValidPairing;
    }
    io.stderr(`Unexpected error: ${(error as Error).message}\n`);
    return EXIT.unexpectedError;
  }
}

export const processIo: CliIo = {
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};
