/**
 * `npm run import -w @shogi/store -- FILE...`: imports CSA and KIF records as finished
 * historical games (directories are walked). Each record is validated move by move and
 * written in its own transaction; an invalid one is reported with its file and ply and
 * leaves nothing behind. Exit code 1 when any record failed. Options: `--ruleset jsa`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Ruleset, splitRecords } from '@shogi/rules';
import { createDb } from '../db.js';
import { migrateToLatest } from '../migrate.js';
import { importRecord } from '../stats/import-record.js';

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
  // a CSA file may hold several records separated by `/` lines: each is imported as FILE#N
  // (one file read at a time, so a large directory never sits in memory)
  function* records() {
    for (const path of paths.flatMap(walk)) {
      const parts = splitRecords(readFileSync(path));
      for (const [i, bytes] of parts.entries()) yield { file: parts.length > 1 ? `${path}#${i + 1}` : path, bytes };
    }
  }
  for (const { file, bytes } of records()) {
    let r: Awaited<ReturnType<typeof importRecord>>;
    try {
      r = await importRecord(db, bytes, file, { ruleset });
    } catch (e) {
      // PostgreSQL refusing this record's data (SQLSTATE class 22, 23) fails the record, not the run
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !/^2[23]/.test(code)) throw e;
      failed++;
      console.error(`${file}: not imported: ${(e as Error).message}`);
      continue;
    }
    if (!r.ok) {
      failed++;
      console.error(`${r.file}: ply ${r.ply}${r.line > 0 ? ` (line ${r.line})` : ''}: ${r.message}`);
    } else if ('duplicate' in r) duplicates++;
    else imported++;
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
