/**
 * `npm run import` and POST /api/import agree on every file: the shared fixtures' records
 * (143 CSA files), the samples of ./records (KIF, a CSA file of two records, a KIF the rules
 * refuse) and Shift_JIS copies of the KIF ones are imported by the real CLI (a child process)
 * into one database and uploaded over HTTP into another. The same games come out, with the
 * same events, the same record (as CSA and KIF) and the same import row, and the same files
 * are refused with the same ply, line and reason. Only the time differs for a record that
 * states none (the import time stands in) and the source (a path, or the uploader's).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig, recordOf } from '@shogi/gateway';
import { exportCsa, exportKif } from '@shogi/rules';
import { createDb, type Db, readStream } from '@shogi/store';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, createTestDatabase, NO_LIMIT, type Stack, startStack, type TestDatabase } from './harness.js';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games');
const SAMPLES = join(import.meta.dirname, 'records');

let stack: Stack;
let cliDatabase: TestDatabase;
let cliDb: Db;
let dir: string;
let files: string[];
const started = Date.now();
const cliFailures = new Map<string, string>();
const http = new Map<string, { status: number; body: { code?: string; detail?: string } }>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shogi-import-'));
  for (const sub of readdirSync(FIXTURES))
    for (const f of readdirSync(join(FIXTURES, sub))) copyFileSync(join(FIXTURES, sub, f), join(dir, `${sub}_${f}`));
  for (const f of readdirSync(SAMPLES).filter((f) => /\.(kif|csa)$/.test(f))) {
    copyFileSync(join(SAMPLES, f), join(dir, f));
    if (f.endsWith('.kif'))
      writeFileSync(join(dir, `sjis_${f}`), iconv.encode(readFileSync(join(SAMPLES, f), 'utf8'), 'Shift_JIS'));
  }
  files = readdirSync(dir).sort();

  cliDatabase = await createTestDatabase();
  const cli = await promisify(execFile)('npm', ['run', '--silent', 'import', '--', dir], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: cliDatabase.url },
  }).catch((e: { stdout: string; stderr: string; code: number }) => e);
  // `FILE: ply N (line L): reason` for each refused record
  for (const line of cli.stderr.split('\n')) {
    const m = /^(.*?): (ply \d+.*)$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) cliFailures.set(m[1].slice(dir.length + 1), m[2]);
  }
  expect(cli.stdout).toMatch(/imported \d+ games/);
  cliDb = createDb(cliDatabase.url, { max: 2 });

  stack = await startStack({
    worker: false,
    config: { rateLimits: { ...loadConfig({}).rateLimits, imports: NO_LIMIT } },
  });
  const me = (await call(stack.app, 'POST', '/api/players', { name: 'uploader' })).body;
  for (const f of files) {
    const boundary = '----agreement';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f}"\r\n\r\n`),
      readFileSync(join(dir, f)),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/import',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(me.token) },
      payload,
    });
    http.set(f, { status: res.statusCode, body: JSON.parse(res.body) });
  }
}, 300_000);

afterAll(async () => {
  await cliDb?.destroy();
  await cliDatabase?.drop();
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface ImportRow {
  game_id: string;
  source_file: string;
  format: string;
  sha256: string;
  record_ending: string | null;
  end_reason: string;
}
const importRows = async (db: Db) =>
  db
    .withTables<{ imported_games: ImportRow }>()
    .selectFrom('imported_games')
    .select(['game_id', 'source_file', 'format', 'sha256', 'record_ending', 'end_reason'])
    .orderBy('game_id')
    .execute();

/** ISO times from this run on: the import time, which stands in for a record's missing start time. */
function withoutImportTimes(value: unknown): unknown {
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) && Date.parse(value) >= started - 60_000)
    return '<import time>';
  if (Array.isArray(value)) return value.map(withoutImportTimes);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutImportTimes(v)]));
  return value;
}

const eventsOf = async (db: Db, gameId: string) =>
  withoutImportTimes((await readStream(db, gameId, 0)).map((e) => ({ seq: e.seq, type: e.type, data: e.data })));

describe('npm run import and POST /api/import', () => {
  test('import the same games from every file', async () => {
    expect(files.length).toBeGreaterThan(145);
    const cliRows = await importRows(cliDb);
    const httpRows = await importRows(stack.db);
    expect(httpRows.map((r) => r.game_id)).toEqual(cliRows.map((r) => r.game_id));
    expect(cliRows.length).toBeGreaterThan(140);
    // the same row, but for where the record came from: a path, or the uploader and the file's name
    const comparable = (rows: ImportRow[]) =>
      rows.map(({ source_file, ...row }) => ({ ...row, file: source_file.split('/').pop() }));
    expect(comparable(httpRows)).toEqual(comparable(cliRows));
    for (const [f, res] of http) if (!cliFailures.has(f)) expect([201, 409], f).toContain(res.status);
  });

  test('with the same events and the same records, as CSA and KIF', async () => {
    for (const { game_id: id } of await importRows(cliDb)) {
      expect(await eventsOf(stack.db, id), id).toEqual(await eventsOf(cliDb, id));
      const [cli, served] = [recordOf(await readStream(cliDb, id, 0)), recordOf(await readStream(stack.db, id, 0))];
      if (cli === null || served === null) throw new Error(`${id}: no record`);
      for (const exporter of [(r: typeof cli) => exportCsa(r, { version: '2.2' }), exportKif]) {
        const [a, b] = [exporter(cli), exporter(served)];
        if (!a.ok || !b.ok) throw new Error(`${id}: export failed`);
        // the start and end times are the import's when the record states none
        const strip = (t: string) => t.replace(/^(\$(START|END)_TIME:|開始日時：|終了日時：).*$/gm, '$1');
        expect(strip(b.value)).toBe(strip(a.value));
      }
    }
    // and the served download is that record
    const [first] = await importRows(cliDb);
    const csa = await stack.app.inject({ method: 'GET', url: `/api/games/${first?.game_id}.csa?version=2.2` });
    expect(csa.statusCode).toBe(200);
  });

  test('refuse the same files with the same ply, line and reason', async () => {
    expect(cliFailures.size).toBeGreaterThan(0);
    const refused = [...http].filter(([, res]) => res.status === 400);
    expect(refused.map(([f]) => f).sort()).toEqual([...cliFailures.keys()].sort());
    for (const [f, res] of refused) {
      expect(res.body.code).toBe('INVALID_RECORD');
      // the CLI says `FILE: ply N (line L): reason`; the answer's detail says the same of the upload
      expect(res.body.detail).toBe(`${f}: ${cliFailures.get(f)}`);
    }
  });
});
