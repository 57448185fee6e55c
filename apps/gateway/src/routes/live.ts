/**
 * Live games, like lichess TV's mini boards. `GET /api/live`: ongoing games, most recently
 * active first, with their latest positions and spectator counts. `GET /api/live/ws`
 * (WebSocket): a `live` frame with the featured list, then `updates` frames twice a second
 * with what changed (position, last move, end, spectators), and a new `live` frame when
 * the list itself changes. Read-only like the watch socket.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CLOSE_CODES, ErrorResponse, errorBody, LiveQuery, LiveResponse, MAX_BAD_FRAMES } from '@shogi/protocol';
import { tooManyConnections } from '../domain/connection-caps.js';
import type { FeedSocket } from '../domain/live-games.js';

const KICK_GRACE_MS = 1000;
/** frames go out as text (the bytes are UTF-8 JSON encoded once per batch); one options object for every send */
const TEXT = { binary: false } as const;

const live: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/live',
    {
      schema: {
        tags: ['spectating'],
        summary: 'Ongoing games with their latest positions and spectator counts (on this gateway)',
        querystring: LiveQuery,
        response: { 200: LiveResponse, 400: ErrorResponse },
      },
    },
    async (request) => ({ games: await app.liveGames.list(Math.min(200, Number(request.query.limit ?? 50))) }),
  );

  app.get(
    '/api/live/ws',
    {
      websocket: true,
      schema: { tags: ['spectating'], summary: 'Live games feed (WebSocket): a `live` frame, then `updates` frames' },
      preValidation: async (request) => {
        if (app.watchLimit.full(request.ip)) throw tooManyConnections('too many open connections from this address');
      },
    },
    (socket, request) => {
      const ip = request.ip;
      app.watchLimit.acquire(ip);
      app.heartbeat.track(socket);
      let gone = false;
      const feed: FeedSocket = {
        send(frame) {
          if (gone || socket.readyState !== socket.OPEN) return;
          if (socket.bufferedAmount > app.config.watchMaxBuffered) {
            stop();
            socket.close(CLOSE_CODES.RESYNC, 'RESYNC');
            setTimeout(() => socket.terminate(), KICK_GRACE_MS).unref();
            return;
          }
          socket.send(frame, TEXT);
        },
      };
      const stop = () => {
        if (gone) return;
        gone = true;
        if (app.liveGames.feeds.delete(feed)) app.liveSubscription.unref();
      };
      // read-only, like a watch socket: each frame gets an error frame, and 20 close it
      let frames = 0;
      socket.on('message', () => {
        feed.send(Buffer.from(JSON.stringify({ type: 'error', error: errorBody('SPECTATOR_READ_ONLY') })));
        if (++frames >= MAX_BAD_FRAMES) {
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
      socket.on('error', (err) => request.log.debug({ err }, 'live: socket error'));
      // subscribed before the list is read: no change falls between the two
      app.liveSubscription
        .ref()
        .then(async () => {
          if (gone) return app.liveSubscription.unref();
          if (app.liveGames.feeds.size === 0) await app.liveGames.refresh();
          if (gone) return app.liveSubscription.unref();
          app.liveGames.feeds.add(feed);
          feed.send(app.liveGames.frame());
        })
        .catch((err: unknown) => {
          request.log.error({ err }, 'live: feed failed');
          if (!app.liveGames.feeds.has(feed)) app.liveSubscription.unref();
          stop();
          socket.close(CLOSE_CODES.INTERNAL, 'INTERNAL');
        });
    },
  );
};

export default live;
