/**
 * `POST /api/import`: a player brings in a game record (KIF or CSA, one record or a CSA file
 * of several) as raw bytes (`text/plain` in any charset, or `application/octet-stream`), a
 * `multipart/form-data` upload, or JSON `{record}`. The bytes go to the same function as
 * `npm run import` (domain/record-import.ts), which detects the encoding and the format;
 * 201 with the games, 400 INVALID_RECORD naming the record, line, ply and reason, 409
 * RECORD_ALREADY_IMPORTED when every record is already there. Bodies up to
 * IMPORT_MAX_BYTES (413 above), files of up to IMPORT_MAX_RECORDS records (413
 * TOO_MANY_RECORDS), IMPORT_MAX_RECORDS_PER_DAY new records a day per account and per client
 * address (429 IMPORT_QUOTA_EXCEEDED), requests limited per token (RATE_LIMIT_IMPORTS_*).
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuthHeaders,
  ErrorResponse,
  ImportDuplicate,
  ImportJsonBody,
  ImportQuery,
  ImportRefusal,
  ImportResponse,
} from '@shogi/protocol';
import type { FastifyRequest } from 'fastify';
import { ApiError, ApiErrorWithFields } from '../domain/api-error.js';
import { addressKey } from '../domain/client-address.js';
import { type FileImport, importRecordFile } from '../domain/record-import.js';
import { principalOf } from '../plugins/access.js';

/** The record's bytes and the uploaded file's name (null for a body that is the record itself). */
async function recordBytes(request: FastifyRequest): Promise<{ bytes: Uint8Array; fileName: string | null }> {
  if (request.isMultipart()) return uploadedFile(request);
  const body = request.body;
  if (Buffer.isBuffer(body)) return { bytes: body, fileName: null };
  if (typeof body === 'object' && body !== null && typeof (body as ImportJsonBody).record === 'string')
    return { bytes: Buffer.from((body as ImportJsonBody).record, 'utf8'), fileName: null };
  throw new ApiError(
    'BAD_REQUEST',
    'send the record as text/plain bytes, a multipart/form-data file, or JSON {"record": "..."}',
  );
}

/**
 * The one file part of a form, read to the end of the body so that a second file, a field
 * or a body cut short is seen. The parser's errors are all the body's: a boundary missing
 * from the header or the body, a part cut short, a header that is no header. They answer
 * 400 MALFORMED_MULTIPART (its size limits keep their 413).
 */
async function uploadedFile(request: FastifyRequest): Promise<{ bytes: Uint8Array; fileName: string }> {
  let file: { bytes: Uint8Array; fileName: string } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field')
        throw new ApiError(
          'MALFORMED_MULTIPART',
          `the form holds a field (${clip(part.fieldname)}): send only the file`,
        );
      if (file !== null)
        throw new ApiError('MALFORMED_MULTIPART', 'the form holds two files: import one file at a time');
      // throws 413 past the limit (limits.fileSize below)
      file = { bytes: await part.toBuffer(), fileName: part.filename };
    }
  } catch (e) {
    if (e instanceof ApiError || (e as { statusCode?: unknown }).statusCode === 413) throw e;
    throw new ApiError('MALFORMED_MULTIPART', `the form cannot be read: ${clip((e as Error).message)}`);
  }
  if (file === null)
    throw new ApiError('MALFORMED_MULTIPART', 'the form holds no file: send the record as a file part');
  return file;
}

/** A name or message from the body, short enough for an answer. */
const clip = (text: string): string => (text.length > 100 ? `${text.slice(0, 100)}…` : text);

/** The CLI's report of a record it refused: `FILE: ply N (line L): reason`. */
const refusalDetail = (r: Extract<FileImport, { kind: 'invalid' }>) =>
  `${r.file}: ply ${r.ply}${r.line > 0 ? ` (line ${r.line})` : ''}: ${r.message}`;

const importRoute: FastifyPluginAsyncTypebox = async (app) => {
  const maxBytes = app.config.importMaxBytes;
  // only this route takes bodies other than JSON: a record file as it is, whatever its encoding
  app.addContentTypeParser(['text/plain', 'application/octet-stream'], { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  await app.register(multipart, {
    // one more file and one field than a form may hold, so that they reach uploadedFile and are
    // refused as what they are rather than dropped
    limits: { fileSize: maxBytes, files: 2, fields: 1, fieldSize: 1024, parts: 3, headerPairs: 20 },
  });

  app.post(
    '/api/import',
    {
      bodyLimit: maxBytes,
      config: app.limits.imports,
      schema: {
        tags: ['records'],
        summary:
          'Import a game record (KIF or CSA; a CSA file of several records imports all of them or none): raw text in any encoding, a multipart/form-data file (one file part), or JSON {record}. 201 with the games; 400 INVALID_RECORD naming the record, line, ply and reason; 400 MALFORMED_MULTIPART; 409 RECORD_ALREADY_IMPORTED. At most IMPORT_MAX_BYTES (413 PAYLOAD_TOO_LARGE) and IMPORT_MAX_RECORDS records (413 TOO_MANY_RECORDS); IMPORT_MAX_RECORDS_PER_DAY new records a day per account and per address (429 IMPORT_QUOTA_EXCEEDED, Retry-After); limited per token (RATE_LIMIT_IMPORTS_MAX). Imported games count in the statistics only under source=imported or all',
        security: [{ bearer: [] }],
        headers: AuthHeaders,
        querystring: ImportQuery,
        body: {
          content: {
            'application/json': { schema: ImportJsonBody },
            'text/plain': { schema: { description: "the record file's bytes, in any encoding (UTF-8, Shift_JIS)" } },
            'application/octet-stream': { schema: { description: "the record file's bytes" } },
            'multipart/form-data': { schema: { description: 'one file part: the record file' } },
          },
        },
        response: {
          201: ImportResponse,
          400: ImportRefusal,
          401: ErrorResponse,
          403: ErrorResponse,
          409: ImportDuplicate,
          413: ErrorResponse,
          415: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const importer = principalOf(request);
      const { bytes, fileName } = await recordBytes(request);
      const ruleset = request.query.ruleset === 'jsa' ? 'jsa' : 'default';
      const result = await importRecordFile(app.databases.imports, bytes, {
        fileName,
        importerId: importer.id,
        ruleset,
        caps: {
          maxRecords: app.config.importMaxRecords,
          maxRecordsPerDay: app.config.importMaxRecordsPerDay,
          address: addressKey(request.ip),
        },
      });
      if (result.kind === 'too-many-records')
        throw new ApiError(
          'TOO_MANY_RECORDS',
          `the file holds more than ${result.max} records (IMPORT_MAX_RECORDS): split it into files of at most ${result.max}`,
        );
      if (result.kind === 'over-quota')
        throw new ApiError(
          'IMPORT_QUOTA_EXCEEDED',
          `${result.owner === 'account' ? 'your account' : 'your network address'} may import ${result.left} more of ${result.max} records a day (IMPORT_MAX_RECORDS_PER_DAY); this file holds ${result.records}`,
          { retryAfterSeconds: result.retryAfterSeconds },
        );
      if (result.kind === 'invalid')
        throw new ApiErrorWithFields('INVALID_RECORD', refusalDetail(result), {
          file: result.file,
          record: result.record,
          records: result.records,
          line: result.line,
          ply: result.ply,
          reason: result.message,
        });
      const [first] = result.games;
      if (first === undefined) throw new Error('an import without a game');
      if (result.kind === 'duplicate')
        throw new ApiErrorWithFields('RECORD_ALREADY_IMPORTED', `game ${first.gameId}`, {
          gameId: first.gameId,
          games: result.games,
        });
      request.log.info(
        { playerId: importer.id, games: result.games.filter((g) => !g.duplicate).length, gameId: first.gameId },
        'records imported',
      );
      return reply.code(201).send({ gameId: first.gameId, games: [...result.games], importedBy: importer.id });
    },
  );
};

export default importRoute;
