/** The lishogi latency bench's printed figures: a phase's, the two paths side by side, and the ratio. */
import { ms, type Spread, spread, spreadText, table } from '../engine/figures.js';
import type { Samples, Tally } from './phase.js';

export interface PhaseFigures {
  readonly path: string;
  readonly n: number;
  readonly moves: number;
  readonly movesPerSecond: number;
  readonly games: number;
  /** send → the opponent sees the move */
  readonly latency: Spread;
  /** send → the move POST's answer (none on the native path) */
  readonly answer: Spread;
  readonly byMover: readonly (readonly [string, Spread])[];
  readonly problems: number;
  readonly problemLines: readonly string[];
  /** CPU ms per measured move of the server and the bench (own-cpu.ts) */
  readonly cpuPerMove: readonly (readonly [string, number])[];
  /** PostgreSQL transactions per measured move (pg-transactions.ts) */
  readonly transactionsPerMove: number;
  readonly roundP50s: readonly number[];
}

const spreadOf = (samples: Samples): Spread => spread([...samples.sorted()]);

export function figuresOf(path: string, n: number, tally: Tally): PhaseFigures {
  const moves = tally.latency.size;
  const perMove = (total: number) => total / Math.max(1, moves);
  return {
    path,
    n,
    moves,
    movesPerSecond: moves / tally.seconds,
    games: tally.gamesStarted,
    latency: spreadOf(tally.latency),
    answer: spreadOf(tally.answer),
    byMover: [...tally.byMover].map(([mover, samples]) => [mover, spreadOf(samples)] as const),
    problems: tally.problemCount,
    problemLines: [...tally.problems].map(([kind, { count, first }]) => `${count}× ${kind} (first: ${first})`),
    cpuPerMove: [...tally.cpu].map(([name, s]) => [name, perMove(s * 1000)] as const),
    transactionsPerMove: perMove(tally.transactions),
    roundP50s: tally.roundP50s,
  };
}

const HEADER = [
  'N',
  'path',
  'moves',
  'moves/s',
  'games',
  'p50',
  'p99',
  'max ms',
  'POST answer p50',
  'p99',
  'server CPU/move',
  'PG xact/move',
  'problems',
];

const row = (f: PhaseFigures): string[] => [
  String(f.n),
  f.path,
  String(f.moves),
  f.movesPerSecond.toFixed(0),
  String(f.games),
  ms(f.latency.p50),
  ms(f.latency.p99),
  ms(f.latency.max),
  ms(f.answer.p50),
  ms(f.answer.p99),
  `${(f.cpuPerMove.find(([name]) => name === 'server')?.[1] ?? Number.NaN).toFixed(2)} ms`,
  f.transactionsPerMove.toFixed(2),
  String(f.problems),
];

const times = (a: number, b: number): string => (b > 0 ? `×${(a / b).toFixed(2)}` : '-');

/** lishogi ÷ native at one N, when both ran. */
function ratioLine(figures: readonly PhaseFigures[]): string | null {
  const lishogi = figures.find((f) => f.path === 'lishogi');
  const native = figures.find((f) => f.path === 'native');
  if (lishogi === undefined || native === undefined) return null;
  return `lishogi ÷ native: p50 ${times(lishogi.latency.p50, native.latency.p50)}, p99 ${times(lishogi.latency.p99, native.latency.p99)}, moves/s ${times(lishogi.movesPerSecond, native.movesPerSecond)}`;
}

export function printPhase(n: number, figures: readonly PhaseFigures[]): void {
  console.log(`\nN = ${n}: move sent → the opponent's view shows it (ms), the rounds pooled`);
  for (const line of table([HEADER, ...figures.map(row)])) console.log(line);
  const ratio = ratioLine(figures);
  if (ratio !== null) console.log(`  ${ratio}`);
  for (const f of figures) {
    const cpu = f.cpuPerMove.map(([name, perMove]) => `${name} ${perMove.toFixed(3)}`).join(', ');
    console.log(`  ${f.path}: p50 of each round ${f.roundP50s.map(ms).join(', ')}; CPU per move, ms: ${cpu}`);
    if (f.path === 'lishogi')
      console.log(`  lishogi by mover: ${f.byMover.map(([mover, s]) => `${mover} moves ${spreadText(s)}`).join('; ')}`);
    for (const line of f.problemLines) console.log(`  ! ${f.path}: ${line}`);
  }
}

export function printSummary(all: readonly PhaseFigures[]): void {
  console.log('\nsummary:');
  for (const line of table([HEADER, ...all.map(row)])) console.log(line);
  for (const n of new Set(all.map((f) => f.n))) {
    const ratio = ratioLine(all.filter((f) => f.n === n));
    if (ratio !== null) console.log(`  N = ${n}: ${ratio}`);
  }
}
