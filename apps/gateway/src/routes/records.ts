/**
 * Game records out, built from the event log with the rules package's exporters:
 * `GET /api/games/:id.kif|.kifu|.ki2|.csa|.jkf|.sfen` (also `/record.kif|.ki2|.csa|.sfen` and
 * `/record?format=`), each a file download in the encoding its kind calls for
 * (domain/record-downloads.ts); a player's finished games as streamed NDJSON or CSA; and every
 * finished game of a period (`GET /api/games/export`), oldest end first, resumable after the
 * last game a download got. Streams are keyset-paged from the finished_games projection, so
 * memory stays flat for any number of games, and each open one counts against its address's
 * public connections.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordOfEvents } from '@shogi/game';
import { ErrorResponse, GameParams } from '@shogi/protocol';
import type { GameRecord } from '@shogi/rules';
import {
  type Db,
  type FinishedGamesTable,
  fairplayDb,
  finishedGameEnd,
  markedAmong,
  periodGames,
  playerGames,
  readStream,
} from '@shogi/store';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';
import {
  attachment,
  CSA_VERSIONS,
  type CsaVersion,
  charsetOf,
  DOWNLOAD_FORMATS,
  type DownloadFormat,
  encodeText,
  fileBaseName,
  recordFile,
  recordText,
} from '../domain/record-downloads.js';

/** The formats of `/api/games/:id/record.<ext>`, the first shape, kept as it was. */
const FIRST_SHAPE_FORMATS = ['kif', 'ki2', 'csa', 'sfen'] as const satisfies readonly DownloadFormat[];

type Marked = readonly ('sente' | 'gote')[];

/** The sides whose player a moderator has marked for engine use now: the exports flag their games. */
async function markedSides(db: Db, senteId: string, goteId: string): Promise<Marked> {
  const marked = await markedAmong(fairplayDb(db), [senteId, goteId]);
  return (['sente', 'gote'] as const).filter((side) => marked.has(side === 'sente' ? senteId : goteId));
}

async function recordOfGame(db: Db, id: string): Promise<{ record: GameRecord; marked: Marked }> {
  const events = await readStream(db, id, 0);
  const record = recordOfEvents(events);
  if (record === null) throw new ApiError('GAME_NOT_FOUND');
  const created = events.find((e) => e.type === 'GameCreated');
  const marked =
    created?.type === 'GameCreated' ? await markedSides(db, created.data.sente.id, created.data.gote.id) : [];
  return { record, marked };
}

async function sendRecord(
  reply: FastifyReply,
  db: Db,
  id: string,
  format: DownloadFormat,
  csaVersion: CsaVersion | undefined,
) {
  const { record, marked } = await recordOfGame(db, id);
  const file = recordFile(record, format, {
    ...(csaVersion === undefined ? {} : { csaVersion }),
    engineMarked: marked,
  });
  return reply
    .type(file.contentType)
    .header('content-disposition', attachment(`${fileBaseName(record, id)}.${file.extension}`))
    .send(file.bytes);
}

type Row = Pick<
  FinishedGamesTable,
  | 'game_id'
  | 'sente_id'
  | 'sente_name'
  | 'gote_id'
  | 'gote_name'
  | 'ruleset'
  | 'handicap'
  | 'rated'
  | 'result'
  | 'end_reason'
  | 'plies'
  | 'opening'
  | 'imported'
> & { started_at: Date; ended_at: Date };

/** A game's NDJSON line: its summary, and with `record` the whole game (start SFEN, every move and its seconds). */
function gameLine(g: Row, record: GameRecord | null, engineMarked: Marked): string {
  const summary = {
    id: g.game_id,
    sente: { id: g.sente_id, name: g.sente_name },
    gote: { id: g.gote_id, name: g.gote_name },
    ruleset: g.ruleset,
    handicap: g.handicap,
    rated: g.rated,
    result: g.result,
    reason: g.end_reason,
    plies: g.plies,
    opening: g.opening,
    startedAt: g.started_at.toISOString(),
    endedAt: g.ended_at.toISOString(),
    imported: g.imported,
    engineMarked,
  };
  if (record === null) return `${JSON.stringify(summary)}\n`;
  const full = { ...summary, sfen: record.sfen, moves: record.moves, times: record.times, comments: record.comments };
  return `${JSON.stringify(full)}\n`;
}

const records: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.databases.reads;
  /**
   * A streamed download holds one of its address's public connections (WATCH_MAX_PER_IP: 429
   * TOO_MANY_CONNECTIONS when none is left) until its response closes, finished or cut off.
   */
  const holdSlot = (request: FastifyRequest, reply: FastifyReply) => {
    const release = app.watchLimit.hold(request.ip);
    // a client gone already brought its 'close' before anyone listened
    if (reply.raw.req.socket.destroyed) release();
    else reply.raw.once('close', release);
  };
  const file = Type.String({ description: 'the record file' });
  const CsaVersionParam = Type.Optional(
    Type.String({
      enum: [...CSA_VERSIONS],
      description: 'CSA only: 3.0 (the default, UTF-8) or 2.2 (Shift_JIS)',
    }),
  );
  const downloadResponses = { 200: file, 400: ErrorResponse, 404: ErrorResponse };
  const downloadNote = 'A file download (Content-Disposition: attachment with a file name).';

  const routes: [DownloadFormat, string][] = [
    ...DOWNLOAD_FORMATS.map((f): [DownloadFormat, string] => [f, `/api/games/:id.${f}`]),
    // `/api/games/:id.kif` is the statistics issue's shape; `/record.kif` came first and stays
    ...FIRST_SHAPE_FORMATS.map((f): [DownloadFormat, string] => [f, `/api/games/:id/record.${f}`]),
  ];
  for (const [format, path] of routes) {
    const summaries: Record<DownloadFormat, string> = {
      kif: 'A game as KIF in Shift_JIS, as KIF readers expect (a character Shift_JIS lacks is written ?)',
      kifu: 'A game as KIF in UTF-8 (.kifu)',
      ki2: 'A game as KI2 in Shift_JIS: the moves as players write them (▲７六歩, ▲５八金右), without times',
      csa: 'A game as CSA: V3.0 in UTF-8, or ?version=2.2 in Shift_JIS',
      jkf: 'A game as JKF (JSON Kifu Format), with its variations when imported with them',
      sfen: 'A game as SFEN + USI moves (a USI position command)',
    };
    app.get(
      path,
      {
        schema: {
          tags: ['records'],
          summary: summaries[format],
          description: downloadNote,
          params: GameParams,
          ...(format === 'csa'
            ? { querystring: Type.Object({ version: CsaVersionParam }, { additionalProperties: false }) }
            : {}),
          produces: [format === 'jkf' ? 'application/json' : 'text/plain'],
          response: downloadResponses,
        },
      },
      async (request, reply) => {
        const version = (request.query as { version?: CsaVersion }).version;
        return sendRecord(reply, db, request.params.id, format, version);
      },
    );
  }

  app.get(
    '/api/games/:id/record',
    {
      schema: {
        tags: ['records'],
        summary:
          'A game as KIF (Shift_JIS), KIFU (KIF in UTF-8), KI2, CSA, JKF or SFEN + USI moves, chosen by ?format=',
        description: downloadNote,
        params: GameParams,
        querystring: Type.Object(
          { format: Type.Optional(Type.String({ enum: [...DOWNLOAD_FORMATS] })), version: CsaVersionParam },
          { additionalProperties: false },
        ),
        produces: ['text/plain', 'application/json'],
        response: downloadResponses,
      },
    },
    async (request, reply) =>
      sendRecord(
        reply,
        db,
        request.params.id,
        (request.query.format ?? 'kif') as DownloadFormat,
        request.query.version as CsaVersion | undefined,
      ),
  );

  // no control characters in a player id: PostgreSQL refuses NUL in text
  const PlayerGamesParams = Type.Object(
    { id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }) },
    { additionalProperties: false },
  );
  const PlayerGamesQuery = Type.Object(
    {
      color: Type.Optional(Type.String({ enum: ['sente', 'gote'] })),
      result: Type.Optional(Type.String({ enum: ['win', 'loss', 'draw'], description: "the player's result" })),
      timeCategory: Type.Optional(Type.String({ maxLength: 32 })),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'ended at or after' })),
      until: Type.Optional(Type.String({ format: 'date-time', description: 'ended before' })),
    },
    { additionalProperties: false },
  );
  const optionsOf = (q: {
    color?: string | undefined;
    result?: string | undefined;
    timeCategory?: string | undefined;
    since?: string | undefined;
    until?: string | undefined;
  }) => ({
    ...(q.color === undefined ? {} : { color: q.color as 'sente' | 'gote' }),
    ...(q.result === undefined ? {} : { outcome: q.result as 'win' | 'loss' | 'draw' }),
    ...(q.timeCategory === undefined ? {} : { timeCategory: q.timeCategory }),
    ...(q.since === undefined ? {} : { since: q.since }),
    ...(q.until === undefined ? {} : { until: q.until }),
  });

  /**
   * Records as one CSA file, `/` between them (the format's separator), encoded record by
   * record; `tail` adds lines after a record (the bulk export's game id).
   */
  async function* csaRecords(
    games: AsyncIterable<Pick<Row, 'game_id' | 'sente_id' | 'gote_id'>>,
    version: CsaVersion,
    tail: (gameId: string) => string = () => '',
  ) {
    let first = true;
    const charset = charsetOf('csa', { csaVersion: version });
    for await (const g of games) {
      const record = recordOfEvents(await readStream(db, g.game_id, 0));
      if (record === null) continue;
      const engineMarked = await markedSides(db, g.sente_id, g.gote_id);
      const text = `${first ? '' : '/\n'}${recordText(record, 'csa', { csaVersion: version, engineMarked })}${tail(g.game_id)}`;
      yield encodeText(text, charset);
      first = false;
    }
  }

  async function* ndjsonLines(games: AsyncIterable<Row>, full: boolean) {
    for await (const g of games) {
      const record = full ? recordOfEvents(await readStream(db, g.game_id, 0)) : null;
      if (full && record === null) continue;
      yield gameLine(g, record, await markedSides(db, g.sente_id, g.gote_id));
    }
  }

  app.get(
    '/api/players/:id/games.csa',
    {
      schema: {
        tags: ['records'],
        summary: "A player's finished games, newest first, as one streamed CSA file (records separated by '/')",
        description: 'Filters as for games.ndjson; ?version=2.2 for CSA V2.2 in Shift_JIS (V3.0, UTF-8, by default).',
        params: PlayerGamesParams,
        querystring: Type.Object(
          { ...PlayerGamesQuery.properties, version: CsaVersionParam },
          { additionalProperties: false },
        ),
        produces: ['text/plain'],
        response: { 400: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const version = (request.query.version ?? '3.0') as CsaVersion;
      const games = playerGames(db, request.params.id, { ...optionsOf(request.query), pageSize: 100 });
      holdSlot(request, reply);
      return reply
        .type(`text/plain; charset=${charsetOf('csa', { csaVersion: version })}`)
        .send(Readable.from(csaRecords(games, version)) as never);
    },
  );

  app.get(
    '/api/players/:id/games.ndjson',
    {
      schema: {
        tags: ['records'],
        summary: "A player's finished games, newest first, as streamed NDJSON (one game a line)",
        description:
          "Filters: color, result (the player's: win, loss, draw), timeCategory, since/until (ended at). Each line is a summary (the first 12 plies as `opening`); with ?full=true it also carries the whole game: the start position `sfen`, every move `moves` (USI), their `times` (seconds) and the `comments`.",
        params: PlayerGamesParams,
        querystring: Type.Object(
          {
            ...PlayerGamesQuery.properties,
            full: Type.Optional(Type.String({ enum: ['true', 'false'], description: 'whole games, not summaries' })),
          },
          { additionalProperties: false },
        ),
        produces: ['application/x-ndjson'],
        response: { 400: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const full = request.query.full === 'true';
      const games = playerGames(db, request.params.id, {
        ...optionsOf(request.query),
        ...(full ? { pageSize: 100 } : {}),
      });
      holdSlot(request, reply);
      return reply.type('application/x-ndjson').send(Readable.from(ndjsonLines(games, full)) as never);
    },
  );

  const Instant = Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date' })]);
  app.get(
    '/api/games/export',
    {
      config: app.limits.exports,
      schema: {
        tags: ['records'],
        summary:
          'Every finished game of a period (by its end), oldest first, streamed: NDJSON of whole games (the default) or one CSA file',
        description:
          "since (ended at or after) and until (ended before): an ISO date or date-time (a date is midnight UTC). The order (end time, game id) is stable: a download cut short resumes with ?after=<the id of the last game it got> and the same since/until. NDJSON lines are those of games.ndjson?full=true; in CSA each record ends with the comment line `'id:<game id>`. Limited per client address (RATE_LIMIT_EXPORTS_MAX).",
        querystring: Type.Object(
          {
            since: Type.Optional(Instant),
            until: Type.Optional(Instant),
            after: Type.Optional(
              Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'a game id' }),
            ),
            format: Type.Optional(Type.String({ enum: ['ndjson', 'csa'] })),
            version: CsaVersionParam,
          },
          { additionalProperties: false },
        ),
        produces: ['application/x-ndjson', 'text/plain'],
        response: { 400: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { since, until, after } = request.query;
      if (since !== undefined && until !== undefined && Date.parse(since) >= Date.parse(until))
        throw new ApiError('BAD_REQUEST', 'since must be before until');
      if (after !== undefined && (await finishedGameEnd(db, after)) === null)
        throw new ApiError('BAD_REQUEST', `after: no finished game has the id ${after}`);
      const games = periodGames(db, {
        ...(since === undefined ? {} : { since }),
        ...(until === undefined ? {} : { until }),
        ...(after === undefined ? {} : { after }),
      });
      holdSlot(request, reply);
      const name = `games_${since?.slice(0, 10) ?? 'start'}_${until?.slice(0, 10) ?? 'now'}${after === undefined ? '' : `_after_${after}`}`;
      if (request.query.format === 'csa') {
        const version = (request.query.version ?? '3.0') as CsaVersion;
        return reply
          .type(`text/plain; charset=${charsetOf('csa', { csaVersion: version })}`)
          .header('content-disposition', attachment(`${name}.csa`))
          .send(Readable.from(csaRecords(games, version, (id) => `'id:${id}\n`)) as never);
      }
      return reply
        .type('application/x-ndjson')
        .header('content-disposition', attachment(`${name}.ndjson`))
        .send(Readable.from(ndjsonLines(games, true)) as never);
    },
  );
};

export default records;
