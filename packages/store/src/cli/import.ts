/**
 * `npm run import -w @shogi/store -- FILE...`: imports CSA, KIF, KI2 and JKF records as
 * finished historical games (directories are walked), through `importRecordBytes`, the entry
 * the HTTP import uses too. Each record is validated move by move and written in its own
 * transaction; an invalid one is reported with its file, line and ply and leaves nothing
 * behind. Exit code 1 when any record failed. Options: `--ruleset jsa`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Ruleset } from '@shogi/rules';
import { createDb } from '../db.js';
import { migrateToLatest } from '../migrate.js';
import { importRecordBytes } from '../stats/import-record.js';

const args = process.argv.slice(2);
let ruleset: Ruleset = 'default';
const paths: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i] as string;
  if (a === '--ruleset') ruleset = args[++i] === 'jsa' ? 'jsa' : 'default';
  // npm runs the script in the package directory; paths are the caller's (INIT_CWD)
  else paths.push(resolve(process.env.INIT_CWD ?? process.cwd(), a));
}
if (paths.length === 0) {
  console.error('usage: npm run import -w @shogi/store -- [--ruleset default|jsa] FILE_OR_DIR...');
  process.exit(2);
}

const walk = (p: string): string[] =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .sort()
        .flatMap((f) => walk(join(p, f)))
    : [p];

const url = process.env.DATABASE_URL ?? 'postgres://localhost:5432/shogi';
const db = createDb(url, { max: 2, analytic: true });
let imported = 0;
let duplicates = 0;
let failed = 0;
try {
  await migrateToLatest(db);
  // one file read at a time, so a large directory never sits in memory; a CSA file may hold
  // several records separated by `/` lines: each is imported as FILE#N
  for (const path of paths.flatMap(walk)) {
    for (const r of await importRecordBytes(db, readFileSync(path), { fileName: path, ruleset })) {
      if (!r.ok) {
        failed++;
        console.error(`${r.file}: ply ${r.ply}${r.line > 0 ? ` (line ${r.line})` : ''}: ${r.message}`);
      } else if ('duplicate' in r) duplicates++;
      else imported++;
    }
  }
  console.log(`imported ${imported} games, ${duplicates} already there, ${failed} invalid`);
  if (failed > 0) process.exitCode = 1;
} catch (e) {
  console.error(`import failed on ${url.replace(/\/\/[^@]*@/, '//***@')}: ${(e as Error).message}`);
  console.error('is PostgreSQL running? start it (`.ci/run` or `docker compose up -d postgres`) or set DATABASE_URL');
  process.exitCode = 1;
} finally {
  await db.destroy();
}
