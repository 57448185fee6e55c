/**
 * Game records out, built from the event log with the rules package's exporters:
 * `GET /api/games/:id/record.kif|.csa|.sfen` (or `/record?format=`), and a player's
 * finished games as streamed NDJSON (one JSON object a line, keyset-paged from the
 * finished_games projection, so memory stays flat for any number of games).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, GameParams } from '@shogi/protocol';
import { exportCsa, exportKif, type GameRecord } from '@shogi/rules';
import { type Db, playerGames, readStream } from '@shogi/store';
import { Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';
import { recordOf } from '../domain/game-record.js';

export const RECORD_OUT_FORMATS = ['kif', 'csa', 'sfen'] as const;
type OutFormat = (typeof RECORD_OUT_FORMATS)[number];

function render(record: GameRecord, format: OutFormat): string {
  if (format === 'sfen') return `sfen ${record.sfen}${record.moves.length ? ` moves ${record.moves.join(' ')}` : ''}\n`;
  const text = format === 'kif' ? exportKif(record) : exportCsa(record, { version: '3.0' });
  if (!text.ok) throw new Error(`record export failed: ${text.error.message}`);
  return text.value;
}

const CONTENT_TYPES: Record<OutFormat, string> = {
  kif: 'text/plain; charset=utf-8',
  csa: 'text/plain; charset=utf-8',
  sfen: 'text/plain; charset=utf-8',
};

async function send(db: Db, id: string, format: OutFormat) {
  const record = recordOf(await readStream(db, id, 0));
  if (record === null) throw new ApiError('GAME_NOT_FOUND');
  return render(record, format);
}

const records: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.databases.reads;
  const text = Type.String({ description: 'the record as text' });

  // `/api/games/:id.kif` is the statistics issue's shape; `/record.kif` came first and stays
  for (const [format, path] of RECORD_OUT_FORMATS.flatMap((f) => [
    [f, `/api/games/:id.${f}`] as const,
    [f, `/api/games/:id/record.${f}`] as const,
  ])) {
    app.get(
      path,
      {
        schema: {
          tags: ['records'],
          summary: `A game as ${format === 'sfen' ? 'SFEN + USI moves (a USI position command)' : format.toUpperCase()}`,
          params: GameParams,
          produces: ['text/plain'],
          response: { 200: text, 400: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request, reply) => reply.type(CONTENT_TYPES[format]).send(await send(db, request.params.id, format)),
    );
  }

  app.get(
    '/api/games/:id/record',
    {
      schema: {
        tags: ['records'],
        summary: 'A game as KIF, CSA or SFEN + USI moves, chosen by ?format=',
        params: GameParams,
        querystring: Type.Object(
          { format: Type.Optional(Type.String({ enum: [...RECORD_OUT_FORMATS] })) },
          { additionalProperties: false },
        ),
        produces: ['text/plain'],
        response: { 200: text, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const format = (request.query.format ?? 'kif') as OutFormat;
      return reply.type(CONTENT_TYPES[format]).send(await send(db, request.params.id, format));
    },
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

  app.get(
    '/api/players/:id/games.csa',
    {
      schema: {
        tags: ['records'],
        summary: "A player's finished games, newest first, as one streamed CSA file (records separated by '/')",
        description: 'Filters as for games.ndjson.',
        params: PlayerGamesParams,
        querystring: PlayerGamesQuery,
        produces: ['text/plain'],
        response: { 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const options = optionsOf(request.query);
      async function* records() {
        let first = true;
        for await (const g of playerGames(db, request.params.id, { ...options, pageSize: 100 })) {
          const record = recordOf(await readStream(db, g.game_id, 0));
          if (record === null) continue;
          yield `${first ? '' : '/\n'}${render(record, 'csa')}`;
          first = false;
        }
      }
      return reply.type('text/plain; charset=utf-8').send(Readable.from(records()) as never);
    },
  );

  app.get(
    '/api/players/:id/games.ndjson',
    {
      schema: {
        tags: ['records'],
        summary: "A player's finished games, newest first, as streamed NDJSON (one game a line)",
        description: "Filters: color, result (the player's: win, loss, draw), timeCategory, since/until (ended at).",
        params: PlayerGamesParams,
        querystring: PlayerGamesQuery,
        produces: ['application/x-ndjson'],
        response: { 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const options = optionsOf(request.query);
      async function* lines() {
        for await (const g of playerGames(db, request.params.id, options))
          yield `${JSON.stringify({
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
          })}\n`;
      }
      return reply.type('application/x-ndjson').send(Readable.from(lines()) as never);
    },
  );
};

export default records;
