/**
 * Game records out, built from the event log with the rules package's exporters:
 * `GET /api/games/:id/record.kif|.csa|.sfen` (or `/record?format=`), and a player's
 * finished games as streamed NDJSON (one JSON object a line, keyset-paged from the
 * finished_games projection, so memory stays flat for any number of games).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type GameCreated, type GameEnded, type RecordedEvent, sideOfSfen } from '@shogi/game';
import { ErrorResponse, GameParams } from '@shogi/protocol';
import { type EndingKind, exportCsa, exportKif, type GameRecord } from '@shogi/rules';
import { type Db, playerGames, readStream } from '@shogi/store';
import { Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';

export const RECORD_OUT_FORMATS = ['kif', 'csa', 'sfen'] as const;
type OutFormat = (typeof RECORD_OUT_FORMATS)[number];

type Side = 'sente' | 'gote';

/**
 * How a record states a game's end. KIF ending words and CSA `%` lines speak of the side to
 * move (`投了`/`%TORYO`: the side to move resigned), so each is used only when that is who
 * lost. An end neither format can state (a resignation on the opponent's turn) is left
 * without an ending line and said in a comment and in the CSA server's summary line (which
 * names the winner, and which this server's importer reads): a record may lack a result,
 * but it never names the wrong winner.
 */
function endingOf(
  ended: GameEnded['data'],
  toMove: Side,
  names: { readonly sente: string; readonly gote: string },
): { kind: EndingKind | null; comment: string | null; summary: string | null } {
  const stated = (kind: EndingKind) => ({ kind, comment: null, summary: null });
  const { winner, reason } = ended;
  // a foul (an imported illegal move, a wrong impasse declaration) is the loser's action
  const foulBy = (side: Side): EndingKind => (side === 'sente' ? '+illegal_action' : '-illegal_action');
  if (winner === null) {
    if (reason === 'sennichite' || reason === 'perpetual_check') return stated('sennichite');
    if (reason === 'impasse') return stated('jishogi');
    if (reason === 'stalemate') return stated('other');
    if (reason === 'max_moves') return stated('max_moves');
    return stated('chudan');
  }
  const loser: Side = winner === 'sente' ? 'gote' : 'sente';
  switch (reason) {
    case 'perpetual_check':
      return stated('oute_sennichite');
    case 'sennichite':
    case 'stalemate':
      return stated('other');
    case 'abort':
      return stated(foulBy(loser));
    case 'impasse':
      return stated(winner === toMove ? 'kachi' : foulBy(toMove));
    // the illegal move is not in the record: its mover is the side to move
    case 'illegal_move':
      return stated(loser === toMove ? 'illegal_move' : foulBy(loser));
    default:
      break;
  }
  const kind: EndingKind = reason === 'checkmate' ? 'tsumi' : reason === 'timeout' ? 'time_up' : 'toryo';
  if (loser === toMove) return stated(kind);
  const summaryReason = reason === 'timeout' ? 'time up' : reason === 'checkmate' ? 'tsumi' : 'toryo';
  return {
    kind: null,
    comment: `${reason} by ${loser} while ${toMove} was to move: ${winner} wins`,
    summary: `${summaryReason}:${names[loser]} lose:${names[winner]} win`,
  };
}

/** JST (+09:00) `YYYY/MM/DD HH:MM:SS`, the header time both formats use. */
const headerTime = (iso: string): string =>
  new Date(Date.parse(iso) + 9 * 3600_000).toISOString().replace('T', ' ').replace(/-/g, '/').slice(0, 19);

/** The record of a game from its events; null when the game does not exist. */
export function recordOf(events: readonly RecordedEvent[]): GameRecord | null {
  const created = events.find((e): e is RecordedEvent<GameCreated> => e.type === 'GameCreated');
  if (created === undefined) return null;
  const moves: string[] = [];
  const times: (number | null)[] = [];
  let last = Date.parse(created.data.createdAt);
  let submitted = last;
  let ended: GameEnded['data'] | null = null;
  // the players' words with their moves (a CSA engine's score and line), after each move
  const comments: { ply: number; text: string }[] = [];
  const commentOf = new Map<number, string>();
  for (const e of events) {
    if (e.type === 'MoveSubmitted') {
      submitted = Date.parse(e.data.receivedAt);
      if (e.data.comment !== undefined) commentOf.set(e.seq, e.data.comment);
    } else if (e.type === 'MoveAccepted') {
      moves.push(e.data.usi);
      times.push(Math.max(0, Math.floor((submitted - last) / 1000)));
      last = submitted;
      const comment = commentOf.get(e.data.submittedSeq);
      // a player's comment never reads as the server's summary line when the record is imported
      if (comment !== undefined)
        comments.push({ ply: moves.length, text: comment.startsWith('summary:') ? ` ${comment}` : comment });
    } else if (e.type === 'GameEnded') ended = e.data;
  }
  const names = { sente: created.data.sente.name, gote: created.data.gote.name };
  const first: Side = sideOfSfen(created.data.initialSfen);
  const toMove: Side = moves.length % 2 === 0 ? first : first === 'sente' ? 'gote' : 'sente';
  const end = ended === null ? null : endingOf(ended, toMove, names);
  return {
    sfen: created.data.initialSfen,
    moves,
    times,
    ending: end?.kind == null ? null : { kind: end.kind, raw: '', seconds: null },
    summary: end?.summary ?? null,
    players: names,
    info: {
      start_time: headerTime(created.data.createdAt),
      ...(ended === null ? {} : { end_time: headerTime(ended.at) }),
    },
    extraInfo: [],
    comments: end?.comment == null ? comments : [...comments, { ply: moves.length, text: end.comment }],
  };
}

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
