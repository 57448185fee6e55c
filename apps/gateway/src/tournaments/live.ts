/**
 * `GET /api/tournament/:id/ws`: a tournament page's live channel (lishogi's tournament socket).
 * On open, and after every change to the tournament (a join, a wave, a game scored, the start or
 * the end), from whichever gateway made it: a `tournament` frame with the tournament and the
 * standings page the socket follows (`?page=`, or a `{type: 'page', page}` frame later). Public;
 * counted with the spectators' sockets per address.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CLOSE_CODES, errorBody, MAX_BAD_FRAMES } from '@shogi/protocol';
import { tournamentRow } from '@shogi/store';
import { Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';
import { tooManyConnections } from '../domain/connection-caps.js';
import type { TournamentFeed, TournamentWatcher } from './feed.js';
import { MAX_PAGE } from './pages.js';

const KICK_GRACE_MS = 1000;
const TEXT = { binary: false } as const;
const IdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9]{1,32}$' }) }, { additionalProperties: false });
const PageQuery = Type.Object(
  { page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'from 1, at most 2000' })) },
  { additionalProperties: false },
);

/** A client frame: the page to follow, or why it is refused. */
export function pageOfFrame(data: string): { ok: true; page: number } | { ok: false; code: string; detail: string } {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    return { ok: false, code: 'MALFORMED_JSON', detail: 'the frame is not valid JSON' };
  }
  const { type, page } = (frame ?? {}) as { type?: unknown; page?: unknown };
  if (type !== 'page' || typeof page !== 'number' || !Number.isInteger(page) || page < 1 || page > MAX_PAGE)
    return { ok: false, code: 'BAD_REQUEST', detail: `the only frame is {"type":"page","page":1..${MAX_PAGE}}` };
  return { ok: true, page };
}

const tournamentLive: FastifyPluginAsyncTypebox<{ feed: TournamentFeed }> = async (app, { feed }) => {
  app.get(
    '/api/tournament/:id/ws',
    {
      websocket: true,
      schema: {
        tags: ['tournaments'],
        summary:
          'A tournament page live (WebSocket): a `tournament` frame with a standings page now and after every change; `{type: "page", page}` follows another page',
        params: IdParams,
        querystring: PageQuery,
      },
      preValidation: async (request) => {
        if (app.watchLimit.full(request.ip)) throw tooManyConnections('too many open connections from this address');
        const { id } = request.params as { id: string };
        if ((await tournamentRow(app.databases.reads, id)) === undefined) throw new ApiError('TOURNAMENT_NOT_FOUND');
      },
    },
    (socket, request) => {
      const { id } = request.params;
      const ip = request.ip;
      app.watchLimit.acquire(ip);
      app.heartbeat.track(socket);
      let closed = false;
      let leave: (() => void) | null = null;
      const watcher: TournamentWatcher = {
        page: Math.min(MAX_PAGE, Number(request.query.page ?? 1)),
        send(frame) {
          if (closed || socket.readyState !== socket.OPEN) return;
          if (socket.bufferedAmount > app.config.watchMaxBuffered) {
            stop();
            socket.close(CLOSE_CODES.SLOW_CONSUMER, 'SLOW_CONSUMER');
            setTimeout(() => socket.terminate(), KICK_GRACE_MS).unref();
            return;
          }
          socket.send(frame, TEXT);
        },
      };
      const stop = () => {
        if (closed) return;
        closed = true;
        leave?.();
      };
      let bad = 0;
      socket.on('message', (data, binary) => {
        const parsed = binary
          ? ({ ok: false, code: 'BAD_REQUEST', detail: 'frames are JSON text' } as const)
          : pageOfFrame(String(data));
        if (parsed.ok) {
          bad = 0;
          feed.follow(id, watcher, parsed.page);
          return;
        }
        if (socket.readyState === socket.OPEN)
          socket.send(JSON.stringify({ type: 'error', error: errorBody(parsed.code as 'BAD_REQUEST', parsed.detail) }));
        if (++bad >= MAX_BAD_FRAMES) {
          stop();
          socket.close(CLOSE_CODES.TOO_MANY_ERRORS, 'TOO_MANY_ERRORS');
        }
      });
      socket.on('pong', () => app.heartbeat.alive(socket));
      socket.on('close', () => {
        stop();
        app.heartbeat.untrack(socket);
        app.watchLimit.release(ip);
      });
      socket.on('error', (err) => request.log.debug({ err }, 'tournament live: socket error'));
      feed.add(id, watcher).then(
        (off) => {
          if (closed) off();
          else leave = off;
        },
        (err: unknown) => {
          request.log.warn({ err, tournamentId: id }, 'tournament live: subscribe failed');
          stop();
          socket.close(CLOSE_CODES.TRY_AGAIN_LATER, 'TRY_AGAIN_LATER');
        },
      );
    },
  );
};

export default tournamentLive;
