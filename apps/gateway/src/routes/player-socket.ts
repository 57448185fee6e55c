/**
 * The player WebSocket `/api/games/:id/ws?ticket=...&after=SEQ`: moves and resignation in,
 * acks, verdicts, the game's events and error frames out (a submission's ack always before
 * any frame that tells its outcome: socket-order.ts). Authentication and the game membership
 * are checked before the upgrade, so a refused socket is a plain HTTP 4xx.
 */

import type { Socket } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toWire } from '@shogi/pipeline';
import {
  CLOSE_CODES,
  type ClientMessage,
  type ErrorCode,
  errorBody,
  GameParams,
  MAX_BAD_FRAMES,
  parseClientMessage,
  type ServerMessage,
  type Side,
  SocketQuery,
  type WireEvent,
} from '@shogi/protocol';
import type { FastifyRequest } from 'fastify';
import { ApiError, isUnavailable, toErrorBody } from '../domain/api-error.js';
import type { Principal } from '../domain/auth.js';
import { Feed } from '../domain/feed.js';
import { SocketOrder } from '../domain/socket-order.js';
import { principalOf } from '../plugins/access.js';

/** unsent bytes before a client counts as too slow to follow the game */
const MAX_BUFFERED = 1 << 20;

/**
 * A hub batch reaches both players' sockets of a game as the same array: its wire events and
 * its `events` frame are made once for both (by batch and by array identity) instead of once
 * per socket. Both are read-only from here on.
 */
const wireOfBatch = new WeakMap<readonly unknown[], readonly WireEvent[]>();
const eventsFrames = new WeakMap<readonly WireEvent[], string>();

function wireEvents(batch: readonly unknown[]): readonly WireEvent[] {
  const known = wireOfBatch.get(batch);
  if (known !== undefined) return known;
  const out: WireEvent[] = [];
  for (const e of batch) {
    const w = toWire(e);
    if (w) out.push(w);
  }
  wireOfBatch.set(batch, out);
  return out;
}

function eventsFrame(events: readonly WireEvent[]): string {
  let frame = eventsFrames.get(events);
  if (frame === undefined) {
    frame = JSON.stringify({ type: 'events', events: events as WireEvent[] } satisfies ServerMessage);
    eventsFrames.set(events, frame);
  }
  return frame;
}

interface SocketSession {
  readonly player: Principal;
  readonly side: Side;
  /** the player's submissions awaiting their verdict when the socket opened */
  readonly pending: readonly number[];
}

const playerSocket: FastifyPluginAsyncTypebox = async (app) => {
  const sessions = new WeakMap<FastifyRequest, SocketSession>();

  app.get(
    '/api/games/:id/ws',
    {
      websocket: true,
      schema: {
        tags: ['moves'],
        summary:
          'Player WebSocket (upgrade): send {type:"move",usi,ply}, {type:"resign"}, {type:"abort"}, {type:"impasse"}, {type:"berserk"} or {type:"takeback",action:"propose"|"accept"|"decline"}; receive acks, verdicts, events',
        params: GameParams,
        querystring: SocketQuery,
      },
      preValidation: async (request) => {
        const player = principalOf(request);
        app.authedSockets.check(request);
        const { id } = request.params as { id: string };
        const { side, lastSeq, pending } = await app.games.seatOf(id, player.id);
        const after = Number((request.query as { after?: string }).after ?? 0);
        if (after > lastSeq)
          throw new ApiError('BAD_REQUEST', `after=${after} is ahead of the game (last seq ${lastSeq})`);
        sessions.set(request, { player, side, pending });
      },
    },
    (socket, request) => {
      const session = sessions.get(request);
      if (!session) {
        socket.close(CLOSE_CODES.UNAUTHORIZED, 'UNAUTHORIZED');
        return;
      }
      if (!app.authedSockets.open(request, socket)) return;
      const { id: gameId } = request.params;
      const after = Number(request.query.after ?? 0);
      const log = request.log.child({ gameId, playerId: session.player.id });
      // the spectators' heartbeat: a socket that misses a ping (a client gone without a FIN,
      // from a game where nothing is written) is dropped, and gives back its player's slot
      app.heartbeat.track(socket);
      socket.on('pong', () => app.heartbeat.alive(socket));
      // frames sent in one tick (events, then a verdict) leave in one write: the TCP
      // socket is corked until the next tick
      const tcp = (socket as unknown as { _socket?: Socket })._socket;
      let corked = false;
      const uncork = () => {
        corked = false;
        tcp?.uncork();
      };
      /** `frame` is a ServerMessage in JSON */
      const sendFrame = (frame: string) => {
        if (socket.readyState !== socket.OPEN) return;
        if (socket.bufferedAmount > MAX_BUFFERED) {
          socket.close(CLOSE_CODES.SLOW_CONSUMER, 'SLOW_CONSUMER');
          return;
        }
        if (tcp && !corked) {
          corked = true;
          tcp.cork();
          process.nextTick(uncork);
        }
        socket.send(frame);
      };
      const send = (message: ServerMessage) => sendFrame(JSON.stringify(message));
      // no frame that tells a submission's outcome leaves before its ack (socket-order.ts)
      const order = new SocketOrder(session.side, sendFrame, session.pending);
      const feed = new Feed(after, {
        readAfter: (seq) => app.games.eventsAfter(gameId, seq),
        send: (events) => order.events(events, eventsFrame(events)),
        onError: (err) => {
          // a lost database connection is not our bug: the client reconnects with after=
          if (isUnavailable(err)) {
            log.warn({ err }, 'ws: catch-up read failed, database unavailable');
            socket.close(CLOSE_CODES.TRY_AGAIN_LATER, 'TRY_AGAIN_LATER');
            return;
          }
          log.error({ err }, 'ws: catch-up read failed');
          socket.close(CLOSE_CODES.INTERNAL, 'INTERNAL');
        },
      });
      let leave: (() => void) | null = null;
      let closed = false;
      let badFrames = 0;
      // frames are handled one after another, so acks come back in the order sent
      let queue: Promise<void> = Promise.resolve();

      const fail = (code: ErrorCode, detail?: string, extra: { ply?: number; idempotencyKey?: string } = {}) => {
        send({ type: 'error', error: errorBody(code, detail), ...extra });
        if (++badFrames >= MAX_BAD_FRAMES) socket.close(CLOSE_CODES.TOO_MANY_ERRORS, 'TOO_MANY_ERRORS');
      };

      const handle = async (message: ClientMessage) => {
        // frames that arrived behind the one that closed the socket (20 bad ones, a revoked
        // token) are not acted on: the client was told the socket is closed
        if (socket.readyState !== socket.OPEN) return;
        const extra = {
          ...(message.type === 'move' ? { ply: message.ply } : {}),
          ...('idempotencyKey' in message && message.idempotencyKey !== undefined
            ? { idempotencyKey: message.idempotencyKey }
            : {}),
        };
        order.begin();
        try {
          // a token revoked or expired while the socket is open stops here (the auth cache
          // drops a revoked token at once on every gateway, at most AUTH_CACHE_MS on a lost notice)
          if ((await app.auth.byHash(session.player.tokenHash)) === null) {
            send({ type: 'error', error: errorBody('UNAUTHORIZED', 'the token was revoked or has expired'), ...extra });
            socket.close(CLOSE_CODES.UNAUTHORIZED, 'UNAUTHORIZED');
            return;
          }
          // every game command counts, not only moves: a flood of replayed resignations is
          // refused here before it reaches the game service
          await app.consumeLimit('moves', request);
          if (message.type === 'move') {
            const { seq } = await app.games.submitMove(gameId, session.player, message);
            const ack = { type: 'ack', seq, ply: message.ply, usi: message.usi, ...extra } satisfies ServerMessage;
            order.acked(seq, JSON.stringify(ack), true);
          } else if (message.type === 'berserk') {
            const { seq } = await app.tournamentBerserk(gameId, session.player);
            order.acked(seq, JSON.stringify({ type: 'ack', seq, ...extra } satisfies ServerMessage), false);
          } else if (message.type === 'takeback') {
            const { seq } = await app.games.takeback(gameId, session.player, message.action);
            order.acked(seq, JSON.stringify({ type: 'ack', seq, ...extra } satisfies ServerMessage), false);
          } else {
            const act =
              message.type === 'resign'
                ? app.games.resign
                : message.type === 'abort'
                  ? app.games.abort
                  : app.games.declareImpasse;
            const { seq } = await act(gameId, session.player, message.idempotencyKey);
            order.acked(seq, JSON.stringify({ type: 'ack', seq, ...extra } satisfies ServerMessage), false);
          }
          badFrames = 0;
        } catch (err) {
          const { status, body } = toErrorBody(err);
          if (status >= 500) log.error({ err }, 'ws: command failed');
          fail(body.code, body.detail, extra);
        } finally {
          order.settled();
        }
      };

      // bad frames wait their turn too, so "20 in a row" counts frames in the order sent
      const refuse = (code: ErrorCode, detail?: string) => {
        queue = queue.then(() => {
          if (socket.readyState === socket.OPEN) fail(code, detail);
        });
      };
      socket.on('message', (data, isBinary) => {
        if (isBinary) return refuse('BAD_REQUEST', 'send JSON text frames');
        const parsed = parseClientMessage(String(data));
        if (!parsed.ok) return refuse(parsed.code, parsed.detail);
        const message = parsed.value;
        queue = queue.then(() => handle(message));
      });
      socket.on('close', () => {
        closed = true;
        app.heartbeat.untrack(socket);
        feed.close();
        leave?.();
      });
      socket.on('error', (err) => log.debug({ err }, 'ws: socket error'));

      send({ type: 'hello', gameId, side: session.side, lastSeq: after });
      // subscribe first, then read what was missed: nothing falls between the two
      app.hub
        .join(
          gameId,
          (batch) => feed.push(wireEvents(batch)),
          // Redis came back: verdicts published while it was away are only in PostgreSQL
          () => feed.catchUp(),
        )
        .then((off) => {
          if (closed) off();
          else {
            leave = off;
            feed.catchUp();
          }
        })
        .catch((err: unknown) => {
          log.error({ err }, 'ws: hub join failed');
          socket.close(CLOSE_CODES.INTERNAL, 'INTERNAL');
        });
    },
  );
};

export default playerSocket;
