/**
 * Real records from the shared fixtures: the move times of the timed ones (people-like accounts
 * draw their times from this spread), and the professional games (no times) whose signals must
 * not come out markable.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type GameRecord, parseCsa } from '@shogi/rules';

/** the shared fixtures beside the repository (SHOGI_FIXTURES elsewhere), as vitest.config.ts finds them */
const fixtures = [
  process.env.SHOGI_FIXTURES,
  resolve(import.meta.dirname, '../../../shared/fixtures'),
  '/work/shared/fixtures',
].find((dir): dir is string => dir !== undefined && existsSync(join(dir, 'perft.json')));
if (fixtures === undefined) throw new Error('shared fixtures not found: set SHOGI_FIXTURES to the fixtures folder');
export const FIXTURES = join(fixtures, 'games');

const readRecord = (path: string): GameRecord | null => {
  const bytes = readFileSync(path);
  // the professional records are UTF-8; a Shift_JIS one (the uchifuzume fixture) is skipped
  const parsed = parseCsa(new TextDecoder('utf-8', { fatal: false }).decode(bytes));
  return parsed.ok ? parsed.value : null;
};

const csaFiles = (dir: string) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => f.endsWith('.csa'))
    .sort()
    .map((f) => join(FIXTURES, dir, f));

/** Every recorded move time (seconds) of the fixtures' timed records, in file order. */
export function recordedMoveTimes(): { seconds: number[]; records: number } {
  const seconds: number[] = [];
  let records = 0;
  for (const dir of ['wcsc28', 'shogi-server'])
    for (const path of csaFiles(dir)) {
      const record = readRecord(path);
      const times = record?.times.filter((t): t is number => t !== null) ?? [];
      if (times.length === 0) continue;
      records++;
      seconds.push(...times);
    }
  return { seconds, records };
}

export interface NamedRecord {
  readonly file: string;
  readonly record: GameRecord;
}

/** The professional games: shogilibsharp's `kifu_` records (its `csa_12` is AlphaZero against elmo). */
export function professionalRecords(): NamedRecord[] {
  return csaFiles('shogilibsharp')
    .filter((path) => path.includes('_kifu_'))
    .flatMap((path) => {
      const record = readRecord(path);
      return record === null ? [] : [{ file: path.split('/').at(-1) ?? path, record }];
    });
}
