/**
 * Game records over HTTP against real PostgreSQL and Redis: POST /api/import (raw bytes in
 * Shift_JIS or UTF-8, a multipart upload, JSON; a CSA file of several records all or none;
 * bad records named by line and ply with nothing written; duplicates, size and rate limits,
 * tokens), the downloads decoded back in the charset they declare, and the bulk exports
 * streamed, resumed and read back by the project's own readers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRecord, PositionHistory, parseSfen, splitRecords } from '@shogi/rules';
import { catchUp, importRecord } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tsMoves, tsshogiRead } from '../../packages/rules/test/tsshogi-reader.js';
import { bearer, call, type Stack, startStack } from './harness.js';

const SAMPLES = join(import.meta.dirname, 'records');
const sample = (name: string) => readFileSync(join(SAMPLES, name));
const sjis = (name: string) => iconv.encode(sample(name).toString('utf8'), 'Shift_JIS');
const FIXTURES = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games/wcsc28');
const FIXTURE_FILES = readdirSync(FIXTURES).sort().slice(0, 8);

const IMPORT_MAX = 64 * 1024;
let stack: Stack;

// every test makes its own guests, so each counts its own imports against the default limit
beforeAll(async () => {
  stack = await startStack({ worker: false, config: { importMaxBytes: IMPORT_MAX } });
});
afterAll(async () => stack?.close());

async function guest(name = 'importer') {
  const res = await call(stack.app, 'POST', '/api/players', { name });
  return res.body as { id: string; token: string; name: string };
}

/** POST /api/import with a raw body of `contentType`. */
async function importRaw(token: string | null, bytes: Buffer | string, contentType = 'text/plain') {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/import',
    headers: { 'content-type': contentType, ...(token === null ? {} : bearer(token)) },
    payload: bytes,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/** A multipart/form-data upload of one file. */
async function importUpload(token: string, fileName: string, bytes: Buffer) {
  const boundary = '----shogi-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/import',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) },
    payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

const countRows = async (table: 'imported_games' | 'game_events') =>
  Number(
    (
      await stack.db
        .withTables<Record<typeof table, { game_id: string }>>()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A download's bytes, decoded in the charset its Content-Type names. */
async function download(url: string) {
  const res = await stack.app.inject({ method: 'GET', url });
  const type = String(res.headers['content-type']);
  const charset = /charset=([^;]+)/.exec(type)?.[1] ?? 'utf-8';
  return {
    status: res.statusCode,
    type,
    disposition: String(res.headers['content-disposition'] ?? ''),
    bytes: res.rawPayload,
    text: new TextDecoder(charset).decode(res.rawPayload),
  };
}

describe('POST /api/import', () => {
  test('without a token 401; with a token lacking the play scope 403', async () => {
    expect((await importRaw(null, sample('kifu-for-windows.kif'))).status).toBe(401);
    expect((await importRaw('not-a-token', sample('kifu-for-windows.kif'))).body.code).toBe('UNAUTHORIZED');
    await call(stack.app, 'POST', '/api/accounts', { username: 'reader', password: 'correct horse' });
    const session = (await call(stack.app, 'POST', '/api/session', { username: 'reader', password: 'correct horse' }))
      .body.token as string;
    const readOnly = (await call(stack.app, 'POST', '/api/tokens', { name: 'r', scopes: ['read'] }, bearer(session)))
      .body.token as string;
    const refused = await importRaw(readOnly, sample('kifu-for-windows.kif'));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    // an account's session imports, as a guest does
    const own = Buffer.from(`${sample('handicap.kif').toString('utf8')}*imported from a session\n`);
    expect((await importRaw(session, own)).status).toBe(201);
  });

  test('a KIF in Shift_JIS as raw bytes: 201, the game with the record’s names and moves', async () => {
    const me = await guest();
    const res = await importRaw(me.token, sjis('kifu-for-windows.kif'), 'text/plain; charset=shift_jis');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ importedBy: me.id, games: [{ duplicate: false, plies: 5, result: 'sente' }] });
    const view = await call(stack.app, 'GET', `/api/games/${res.body.gameId}`);
    expect(view.status).toBe(200);
    expect(view.body.moves).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
    expect(view.body.players.sente.name).toBe('山田太郎');
    expect(view.body.players.gote.name).toBe('鈴木花子');
    // the importer is recorded with the game
    const row = await stack.db
      .withTables<{ imported_games: { game_id: string; source_file: string } }>()
      .selectFrom('imported_games')
      .select('source_file')
      .where('game_id', '=', res.body.gameId)
      .executeTakeFirstOrThrow();
    expect(row.source_file).toBe(`api/${me.id}/pasted`);
  });

  test('the same game in UTF-8 as JSON, and a multipart upload keeps its file name', async () => {
    const me = await guest();
    const json = await call(
      stack.app,
      'POST',
      '/api/import',
      { record: `${sample('kifu-for-windows.kif').toString('utf8')}\n` },
      bearer(me.token),
    );
    expect(json.status).toBe(201);
    const upload = await importUpload(me.token, 'old games/二枚落ち.kif', sample('handicap.kif'));
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const view = await call(stack.app, 'GET', `/api/games/${upload.body.gameId}`);
    expect(view.body).toMatchObject({
      initialSfen: 'lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
      moves: ['7a6b', '7g7f', '5c5d'],
    });
    const row = await stack.db
      .withTables<{ imported_games: { game_id: string; source_file: string } }>()
      .selectFrom('imported_games')
      .select('source_file')
      .where('game_id', '=', upload.body.gameId)
      .executeTakeFirstOrThrow();
    expect(row.source_file).toBe(`api/${me.id}/二枚落ち.kif`);
  });

  test('the same bytes again: 409 naming the game already there', async () => {
    const me = await guest();
    const bytes = Buffer.from(`${sample('kifu-for-windows.kif').toString('utf8')}*a comment of this upload\n`);
    const first = await importRaw(me.token, bytes);
    expect(first.status).toBe(201);
    const again = await importRaw(me.token, bytes, 'application/octet-stream');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'RECORD_ALREADY_IMPORTED', gameId: first.body.gameId });
  });

  test('a move the rules refuse: 400 naming the ply and the reason, nothing written', async () => {
    const me = await guest();
    const before = { games: await countRows('imported_games'), events: await countRows('game_events') };
    const res = await importRaw(me.token, sample('bad-move.kif'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_RECORD', file: 'pasted', record: 1, records: 1, ply: 3 });
    expect(res.body.reason).toMatch(/illegal move 2h2d/);
    expect(res.body.detail).toBe(`pasted: ply 3: ${res.body.reason}`);
    expect({ games: await countRows('imported_games'), events: await countRows('game_events') }).toEqual(before);
  });

  test('a line that is no record: 400 naming the line', async () => {
    const me = await guest();
    const text = '手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(77)\n';
    const res = await importRaw(me.token, Buffer.from(text));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_RECORD', line: 4, ply: 0 });
    const unknown = await importRaw(me.token, Buffer.from('hello, this is no shogi record\n'));
    expect(unknown.body).toMatchObject({ code: 'INVALID_RECORD', line: 0 });
    expect(unknown.body.reason).toMatch(/unknown_format/);
  });

  test('a CSA file of several records imports all of them, or none when one is invalid', async () => {
    const me = await guest();
    const two = sample('two-records.csa');
    const res = await importRaw(me.token, two);
    expect(res.status).toBe(201);
    expect(res.body.games).toHaveLength(2);
    expect(res.body.games.map((g: { plies: number }) => g.plies)).toEqual([4, 3]);
    // one more record, illegal at its second move: the file's two new records are not kept
    const three = Buffer.concat([
      Buffer.from(two.toString('utf8').replace(/sato/g, 'sato2')),
      Buffer.from('/\nV2.2\nPI\n+\n+7776FU\n+3334FU\n'),
    ]);
    const before = { games: await countRows('imported_games'), events: await countRows('game_events') };
    const refused = await importRaw(me.token, three);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'INVALID_RECORD', file: 'pasted#3', record: 3, records: 3 });
    expect({ games: await countRows('imported_games'), events: await countRows('game_events') }).toEqual(before);
    // the file already imported whole: 409, its games named
    const again = await importRaw(me.token, two);
    expect(again.status).toBe(409);
    expect(again.body.games.map((g: { gameId: string }) => g.gameId)).toEqual(
      res.body.games.map((g: { gameId: string }) => g.gameId),
    );
  });

  test('past IMPORT_MAX_BYTES: 413, raw or uploaded; an empty or unreadable body: 400', async () => {
    const me = await guest();
    const big = Buffer.alloc(IMPORT_MAX + 1, 0x20);
    const raw = await importRaw(me.token, big);
    expect({ status: raw.status, code: raw.body.code }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    const upload = await importUpload(me.token, 'big.kif', big);
    expect({ status: upload.status, code: upload.body.code }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    const json = await call(stack.app, 'POST', '/api/import', { record: 'x'.repeat(IMPORT_MAX) }, bearer(me.token));
    expect(json.status).toBe(413);
    expect((await call(stack.app, 'POST', '/api/import', { text: 'x' }, bearer(me.token))).status).toBe(400);
    expect((await importRaw(me.token, Buffer.from('<xml/>'), 'application/xml')).status).toBe(415);
  });

  test('limited per token: 429 with Retry-After past RATE_LIMIT_IMPORTS_MAX', async () => {
    const { max } = stack.config.rateLimits.imports;
    expect(max).toBeGreaterThan(0);
    const me = await guest();
    const other = await guest();
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++) statuses.push((await importRaw(me.token, Buffer.from(`bad ${i}`))).status);
    expect(statuses.slice(0, max).every((s) => s === 400)).toBe(true);
    const limited = await stack.app.inject({
      method: 'POST',
      url: '/api/import',
      headers: { 'content-type': 'text/plain', ...bearer(me.token) },
      payload: 'bad',
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // another player's token is counted apart
    expect((await importRaw(other.token, Buffer.from('bad'))).status).toBe(400);
  });
});

describe('downloads', () => {
  let gameId: string;
  beforeAll(async () => {
    const me = await guest();
    gameId = (await importRaw(me.token, sample('kifu-for-windows.kif'))).body.gameId;
  });

  test('.kif is Shift_JIS and .kifu UTF-8, the same KIF, each read back by the rules package', async () => {
    const kif = await download(`/api/games/${gameId}.kif`);
    const kifu = await download(`/api/games/${gameId}.kifu`);
    expect(kif.type).toBe('text/plain; charset=Shift_JIS');
    expect(kifu.type).toBe('text/plain; charset=utf-8');
    // Shift_JIS bytes: not UTF-8, and a Shift_JIS reader gets the names
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(kif.bytes)).toThrow();
    expect(kif.text).toContain('先手：山田太郎');
    expect(kif.text.split('\r\n')[0]).toBe('#KIF version=2.0 encoding=Shift_JIS');
    expect(kifu.text.split('\n')[0]).toBe('#KIF version=2.0 encoding=utf-8');
    expect(kif.text.replace(/\r\n/g, '\n').split('\n').slice(1)).toEqual(kifu.text.split('\n').slice(1));
    for (const file of [kif, kifu]) {
      const back = decodeRecord(file.bytes);
      if (!back.ok) throw new Error(back.error.message);
      expect(back.value.record.moves).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
      expect(back.value.record.players).toEqual({ sente: '山田太郎', gote: '鈴木花子' });
    }
    expect(kif.disposition).toBe(
      `attachment; filename="20240102______vs______${gameId}.kif"; filename*=UTF-8''20240102_${encodeURIComponent('山田太郎_vs_鈴木花子')}_${gameId}.kif`,
    );
    // the first shape and ?format= answer the same file
    expect((await download(`/api/games/${gameId}/record.kif`)).bytes).toEqual(kif.bytes);
    expect((await download(`/api/games/${gameId}/record?format=kifu`)).bytes).toEqual(kifu.bytes);
  });

  test('CSA V3.0 in UTF-8 by default, V2.2 in Shift_JIS by ?version=2.2', async () => {
    const v3 = await download(`/api/games/${gameId}.csa`);
    expect(v3.type).toBe('text/plain; charset=utf-8');
    expect(v3.text.split('\n').slice(0, 2)).toEqual(["'CSA encoding=UTF-8", 'V3.0']);
    const v2 = await download(`/api/games/${gameId}.csa?version=2.2`);
    expect(v2.type).toBe('text/plain; charset=Shift_JIS');
    expect(v2.text.split('\r\n')[0]).toBe('V2.2');
    expect(v2.disposition).toMatch(/\.csa"/);
    for (const file of [v3, v2]) {
      const back = decodeRecord(file.bytes);
      if (!back.ok) throw new Error(back.error.message);
      expect(back.value.record.players).toEqual({ sente: '山田太郎', gote: '鈴木花子' });
      expect(back.value.record.moves).toHaveLength(5);
    }
    expect((await download(`/api/games/${gameId}/record?format=csa&version=2.2`)).bytes).toEqual(v2.bytes);
    expect((await download(`/api/games/${gameId}.csa?version=4.0`)).status).toBe(400);
    expect((await download(`/api/games/${gameId}.sfen`)).disposition).toMatch(/^attachment; filename=".*\.sfen"/);
  });

  test('JKF as JSON, read back by the rules package', async () => {
    const jkf = await download(`/api/games/${gameId}.jkf`);
    expect(jkf.type).toBe('application/json; charset=utf-8');
    expect(jkf.disposition).toMatch(/\.jkf"/);
    const parsed = JSON.parse(jkf.text) as { header: Record<string, string>; moves: unknown[] };
    expect(parsed.header).toMatchObject({ 先手: '山田太郎', 後手: '鈴木花子' });
    const back = decodeRecord(jkf.bytes);
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.format).toBe('jkf');
    expect(back.value.record.moves).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
    expect((await download(`/api/games/${gameId}/record?format=jkf`)).bytes).toEqual(jkf.bytes);
  });

  test('KI2 in Shift_JIS: the moves as players write them, read back by the rules package, by tsshogi and by import', async () => {
    const ki2 = await download(`/api/games/${gameId}.ki2`);
    expect(ki2.status).toBe(200);
    expect(ki2.type).toBe('text/plain; charset=Shift_JIS');
    expect(ki2.disposition).toMatch(/\.ki2"; filename\*=UTF-8''.*\.ki2$/);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(ki2.bytes)).toThrow();
    const lines = ki2.text.split('\r\n');
    expect(lines[0]).toBe('#KI2 version=2.0 encoding=Shift_JIS');
    expect(lines).toContain('先手：山田太郎');
    // 同　 with a full-width space for the recapture; 打 is not written where no bishop on the board reaches 4五
    expect(lines).toContain('▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角');
    const back = decodeRecord(ki2.bytes);
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.format).toBe('ki2');
    expect(back.value.record.moves).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
    expect(back.value.record.players).toEqual({ sente: '山田太郎', gote: '鈴木花子' });
    const theirs = tsshogiRead('ki2', ki2.text);
    expect(tsMoves(theirs)).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
    // imported again, the file is the same game with the same result
    const me = await guest();
    const again = await importUpload(me.token, 'game.ki2', ki2.bytes);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.games).toMatchObject([{ plies: 5, result: 'sente' }]);
    const view = await call(stack.app, 'GET', `/api/games/${again.body.gameId}`);
    expect(view.body.moves).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
    // the first shape and ?format= answer the same file
    expect((await download(`/api/games/${gameId}/record.ki2`)).bytes).toEqual(ki2.bytes);
    expect((await download(`/api/games/${gameId}/record?format=ki2`)).bytes).toEqual(ki2.bytes);
    expect((await download('/api/games/no-such-game.ki2')).status).toBe(404);
  });

  test('a name Shift_JIS cannot hold is written ? in .kif and kept in .kifu', async () => {
    const me = await guest();
    const text = sample('kifu-for-windows.kif').toString('utf8').replace('山田太郎', 'Zoë 😀');
    const id = (await importRaw(me.token, Buffer.from(text))).body.gameId as string;
    expect((await download(`/api/games/${id}.kif`)).text).toContain('先手：Zo? ?');
    expect((await download(`/api/games/${id}.kifu`)).text).toContain('先手：Zoë 😀');
  });
});

describe('bulk exports', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    const me = await guest();
    for (const f of FIXTURE_FILES) {
      const res = await importUpload(me.token, f, readFileSync(join(FIXTURES, f)));
      if (res.status !== 201) throw new Error(`${f}: ${JSON.stringify(res.body)}`);
      ids.push(res.body.gameId);
    }
    await catchUp(stack.db);
  });

  const lines = (text: string) =>
    text
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));

  test('the whole database by period as NDJSON: whole games, oldest end first, resumable', async () => {
    const url = '/api/games/export?since=2018-05-01&until=2018-06-01';
    const all = await download(url);
    expect(all.status).toBe(200);
    expect(all.type).toBe('application/x-ndjson');
    expect(all.disposition).toBe('attachment; filename="games_2018-05-01_2018-06-01.ndjson"');
    const games = lines(all.text);
    expect(games.map((g) => g.id).sort()).toEqual([...ids].sort());
    const ends = games.map((g) => `${g.endedAt} ${g.id}`);
    expect(ends).toEqual([...ends].sort());
    // each line is the whole game: replayed from its start SFEN, it is the file's record
    for (const g of games) {
      const file = FIXTURE_FILES[ids.indexOf(g.id)] as string;
      const original = decodeRecord(readFileSync(join(FIXTURES, file)), file);
      if (!original.ok) throw new Error(file);
      expect(g.sfen).toBe(original.value.record.sfen);
      expect(g.moves).toEqual(original.value.record.moves.slice(0, g.plies));
      expect(g.moves).toHaveLength(g.plies);
      expect(g.times).toHaveLength(g.plies);
      const start = parseSfen(g.sfen);
      if (!start.ok) throw new Error(g.sfen);
      const replay = new PositionHistory(start.value, 'default');
      for (const usi of g.moves) expect(replay.playUsi(usi).ok).toBe(true);
      expect(['sente', 'gote', 'draw', 'none']).toContain(g.result);
      expect(typeof g.reason).toBe('string');
    }
    // a download cut after its third game resumes after it, with nothing missed or repeated
    const cut = games[2].id as string;
    const rest = lines((await download(`${url}&after=${cut}`)).text);
    expect([...games.slice(0, 3), ...rest]).toEqual(games);
    // outside the period, nothing; a bad cursor or period is a 400
    expect((await download('/api/games/export?since=2030-01-01')).text).toBe('');
    expect((await download('/api/games/export?after=no-such-game')).status).toBe(400);
    expect((await download('/api/games/export?since=2018-06-01&until=2018-05-01')).status).toBe(400);
    expect((await download('/api/games/export?since=May')).status).toBe(400);
  });

  test('as one CSA file, read back by splitRecords + importRecord into another database', async () => {
    const ndjson = lines((await download('/api/games/export?since=2018-05-01&until=2018-06-01')).text);
    const csa = await download('/api/games/export?since=2018-05-01&until=2018-06-01&format=csa');
    expect(csa.type).toBe('text/plain; charset=utf-8');
    const parts = splitRecords(csa.bytes);
    expect(parts).toHaveLength(ndjson.length);
    const other = await createTestDatabase({ max: 2 });
    try {
      for (const [i, part] of parts.entries()) {
        const game = ndjson[i];
        expect(new TextDecoder().decode(part)).toContain(`'id:${game.id}`);
        const back = decodeRecord(part);
        if (!back.ok) throw new Error(back.error.message);
        expect(back.value.record.moves).toEqual(game.moves);
        const again = await importRecord(other.db, part, `export#${i + 1}`);
        if (!again.ok || 'duplicate' in again) throw new Error(JSON.stringify(again));
        expect({ plies: again.plies, result: again.result }).toEqual({ plies: game.plies, result: game.result });
      }
    } finally {
      await other.drop();
    }
    const v2 = await download('/api/games/export?since=2018-05-01&until=2018-06-01&format=csa&version=2.2');
    expect(v2.type).toBe('text/plain; charset=Shift_JIS');
    expect(splitRecords(v2.bytes)).toHaveLength(ndjson.length);
  });

  test("a player's games in full by ?full=true; the summary lines stay as they were", async () => {
    const first = decodeRecord(readFileSync(join(FIXTURES, FIXTURE_FILES[0] as string)));
    if (!first.ok) throw new Error('fixture');
    const player = encodeURIComponent(`imported:${first.value.record.players.sente}`);
    const summary = lines((await download(`/api/players/${player}/games.ndjson`)).text);
    const full = lines((await download(`/api/players/${player}/games.ndjson?full=true`)).text);
    expect(full.map((g) => g.id)).toEqual(summary.map((g) => g.id));
    expect(summary[0]).not.toHaveProperty('moves');
    for (const [i, g] of full.entries()) {
      expect(g).toMatchObject(summary[i]);
      expect(g.moves).toHaveLength(g.plies);
      expect(typeof g.sfen).toBe('string');
    }
  });
});
