/**
 * Malformed multipart/form-data bodies on POST /api/import: each is the client's error, a
 * catalog 4xx (400 MALFORMED_MULTIPART or BAD_REQUEST, 413 past a size), never a 5xx, and
 * nothing of it is written. A well-formed upload of the same record beside them is 201.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp, createLogger } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';

const RECORD = readFileSync(join(import.meta.dirname, 'records', 'two-records.csa'));
const IMPORT_MAX = 64 * 1024;
const B = 'shogi-multipart-boundary';
const CRLF = '\r\n';
const type = (boundary = B) => `multipart/form-data; boundary=${boundary}`;
const filePart = (name = 'file', fileName = 'games.csa', body: string | Buffer = RECORD) =>
  Buffer.concat([
    Buffer.from(
      `--${B}${CRLF}Content-Disposition: form-data; name="${name}"; filename="${fileName}"${CRLF}Content-Type: application/octet-stream${CRLF}${CRLF}`,
    ),
    Buffer.isBuffer(body) ? body : Buffer.from(body),
    Buffer.from(CRLF),
  ]);
const fieldPart = (name: string, value: string) =>
  Buffer.from(`--${B}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`);
const end = Buffer.from(`--${B}--${CRLF}`);
const body = (...parts: (Buffer | string)[]) =>
  Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))));

let stack: Stack;
/** the stack's gateway again, with its log lines kept: a client's error is no error line */
let app: FastifyInstance;
const lines: { level: number; msg?: string; code?: string }[] = [];
let token: string;
beforeAll(async () => {
  stack = await startStack({ worker: false, config: { importMaxBytes: IMPORT_MAX } });
  const sink = new Writable({
    write(chunk, _e, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  app = await buildApp(stack.config, createLogger({ level: 'debug' }, sink));
  token = (await call(app, 'POST', '/api/players', { name: 'uploader' })).body.token;
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

const written = async () =>
  Number(
    (
      await stack.db
        .withTables<{ imported_games: { game_id: string } }>()
        .selectFrom('imported_games')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function upload(contentType: string, payload: Buffer) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/import',
    headers: { 'content-type': contentType, ...bearer(token) },
    payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as { code: string; detail?: string } };
}

type Shape = [name: string, contentType: string, payload: Buffer, status: number, code: string];
const SHAPES: Shape[] = [
  ['no boundary parameter', 'multipart/form-data', body(filePart(), end), 400, 'MALFORMED_MULTIPART'],
  ['an empty boundary parameter', 'multipart/form-data; boundary=', body(filePart(), end), 400, 'MALFORMED_MULTIPART'],
  ['a boundary the body never uses', type('other-boundary'), body(filePart(), end), 400, 'MALFORMED_MULTIPART'],
  ['an empty body', type(), Buffer.alloc(0), 400, 'MALFORMED_MULTIPART'],
  ['only a preamble', type(), Buffer.from('just some text, no parts'), 400, 'MALFORMED_MULTIPART'],
  ['only the closing boundary', type(), end, 400, 'MALFORMED_MULTIPART'],
  ['a body cut inside the file', type(), filePart().subarray(0, 200), 400, 'MALFORMED_MULTIPART'],
  ['a body cut inside the part headers', type(), filePart().subarray(0, 40), 400, 'MALFORMED_MULTIPART'],
  ['no closing boundary', type(), filePart(), 400, 'MALFORMED_MULTIPART'],
  [
    'a header line without a colon',
    type(),
    body(`--${B}${CRLF}this is no header${CRLF}${CRLF}`, RECORD, CRLF, end),
    400,
    'MALFORMED_MULTIPART',
  ],
  ['a part without headers', type(), body(`--${B}${CRLF}${CRLF}`, RECORD, CRLF, end), 400, 'MALFORMED_MULTIPART'],
  ['an empty part', type(), body(`--${B}${CRLF}${CRLF}${CRLF}`, end), 400, 'MALFORMED_MULTIPART'],
  [
    'content-disposition attachment, no name',
    type(),
    body(`--${B}${CRLF}Content-Disposition: attachment${CRLF}${CRLF}`, RECORD, CRLF, end),
    400,
    'MALFORMED_MULTIPART',
  ],
  [
    'content-disposition without form-data',
    type(),
    body(`--${B}${CRLF}Content-Disposition: ; filename="a.csa"${CRLF}${CRLF}`, RECORD, CRLF, end),
    400,
    'MALFORMED_MULTIPART',
  ],
  ['two files', type(), body(filePart('a', 'a.csa'), filePart('b', 'b.csa'), end), 400, 'MALFORMED_MULTIPART'],
  ['a field instead of a file', type(), body(fieldPart('record', RECORD.toString()), end), 400, 'MALFORMED_MULTIPART'],
  [
    'a field too large before the file',
    type(),
    body(fieldPart('note', 'x'.repeat(5000)), filePart(), end),
    400,
    'MALFORMED_MULTIPART',
  ],
  [
    'too many fields before the file',
    type(),
    body(...Array.from({ length: 6 }, (_, i) => fieldPart(`f${i}`, 'x')), filePart(), end),
    400,
    'MALFORMED_MULTIPART',
  ],
  [
    'a file past IMPORT_MAX_BYTES',
    type(),
    body(filePart('file', 'big.csa', Buffer.alloc(IMPORT_MAX + 1, 0x20)), end),
    413,
    'PAYLOAD_TOO_LARGE',
  ],
  [
    'a nested multipart/mixed part',
    type(),
    body(
      `--${B}${CRLF}Content-Disposition: form-data; name="files"${CRLF}Content-Type: multipart/mixed; boundary=inner${CRLF}${CRLF}`,
      `--inner${CRLF}Content-Disposition: file; filename="a.csa"${CRLF}${CRLF}`,
      RECORD,
      `${CRLF}--inner--${CRLF}`,
      CRLF,
      end,
    ),
    400,
    'MALFORMED_MULTIPART',
  ],
  [
    'binary garbage',
    type(),
    Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 131 + 7) % 256)),
    400,
    'MALFORMED_MULTIPART',
  ],
];

test.each(SHAPES)(
  '%s: refused, logged at debug, nothing written',
  async (_name, contentType, payload, status, code) => {
    const before = await written();
    const logged = lines.length;
    const res = await upload(contentType, payload);
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.body.detail ?? '').not.toBe('');
    expect(await written()).toBe(before);
    const said = lines.slice(logged);
    expect(said.filter((l) => l.level >= 40)).toEqual([]);
    expect(said.filter((l) => l.level === 20 && l.msg === 'client error').map((l) => l.code)).toEqual([code]);
  },
);

test('the well-formed upload beside them is imported', async () => {
  const res = await upload(type(), body(filePart(), end));
  expect(res.status).toBe(201);
});

test("header lines past the parser's limits are dropped, not failed: the record is read", async () => {
  // a record of its own per upload (a comment line first), so each is new
  const record = (n: number) => Buffer.concat([Buffer.from(`'header limits ${n}\n`), RECORD]);
  const manyHeaders = body(
    `--${B}${CRLF}Content-Disposition: form-data; name="file"; filename="a.csa"${CRLF}`,
    Array.from({ length: 200 }, (_, i) => `X-H${i}: v${CRLF}`).join(''),
    CRLF,
    record(1),
    CRLF,
    end,
  );
  const hugeHeader = body(
    `--${B}${CRLF}Content-Disposition: form-data; name="file"; filename="${'a'.repeat(100_000)}.csa"${CRLF}${CRLF}`,
    record(2),
    CRLF,
    end,
  );
  for (const payload of [manyHeaders, hugeHeader]) {
    const before = await written();
    const res = await upload(type(), payload);
    expect(res.status).toBe(201);
    expect(await written()).toBe(before + 1); // the comment makes the first record new; the second is there already
  }
});
