/**
 * Human-vs-human move validation as bench/e2e measures it (submit → verdict at the mover),
 * run as that bench in a process of its own, so that its clients share no event loop with
 * the bot games' people; its report is echoed indented and its headline figures returned.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { exited } from '../e2e/fresh-server.js';
import { SUMMARY_TAG } from '../e2e/report.js';

export interface ValidationLoad {
  readonly games: number;
  /** moves/s for all games together */
  readonly rate: number;
  readonly seconds: number;
  readonly warmup: number;
}

export interface ValidationFigures {
  readonly accepted: number;
  readonly rejected: number;
  readonly errors: number;
  readonly movesPerSecond: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number | null;
}

export interface Target {
  readonly url: string;
  readonly redisUrl: string;
  readonly prefix: string;
}

export async function runValidationLoad(target: Target, load: ValidationLoad): Promise<ValidationFigures> {
  const args = [
    ...['--url', target.url, '--redis', target.redisUrl, '--prefix', target.prefix],
    ...['--games', String(load.games), '--rate', String(load.rate)],
    ...['--seconds', String(load.seconds), '--warmup', String(load.warmup), '--summary'],
  ];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@shogi/source', 'bench/e2e/main.ts', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let summary: ValidationFigures | null = null;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith(SUMMARY_TAG)) summary = JSON.parse(line.slice(SUMMARY_TAG.length)) as ValidationFigures;
    else console.log(`    | ${line}`);
  }
  await exited(child);
  if (child.exitCode !== 0 || summary === null)
    throw new Error(`bench/e2e/main.ts ended with ${child.exitCode ?? child.signalCode} and no summary`);
  return summary;
}
