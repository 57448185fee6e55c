/**
 * The spectator WebSocket `/api/games/:id/watch[?since=SEQ][&ticket=T]`, open to anyone for
 * public games. A socket ticket (POST /api/socket-ticket) says who watches: the game's own
 * players follow it there without counting among its spectators; a bad ticket is a 401. First frame: the snapshot (or, with `since`, a `resume` frame and the events
 * after SEQ from PostgreSQL); then every event of the game in seq order, no gap, no
 * repeat; `spectators` frames when the count changes, and `analysis` frames while the game is
 * being analysed (from the analysis channel, apart from the events), and the chat rooms the
 * socket may read (watch-chat.ts). Read-only: a frame from the client
 * is answered with an error frame. A client that does not read fast enough is closed with
 * RESYNC (4010) and reconnects with `since`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CLOSE_CODES, errorBody, GameParams, MAX_BAD_FRAMES, WatchQuery, watchAnalysisOf } from '@shogi/protocol';
import { ApiError } from '../domain/api-error.js';
import { tooManyConnections } from '../domain/connection-caps.js';
import type { Member } from '../domain/spectators.js';
import { followWatchChat } from './watch-chat.js';

/** how long a socket closed for being slow may take to go before it is cut */
const KICK_GRACE_MS = 1000;
/** frames go out as text (the bytes are UTF-8 JSON encoded once per batch); one options object for every send */
const TEXT = { binary: false } as const;

const watch: FastifyPluginAsyncTypebox = async (app) => {
  const { watchMaxBuffered } = app.config;
  /** the player a ticket named, from the check before the upgrade to the socket */
  const viewers = new WeakMap<object, string>();

  app.get(
    '/api/games/:id/watch',
    {
      websocket: true,
      schema: {
        tags: ['spectating'],
        summary:
          'Spectator WebSocket (upgrade): a snapshot, then every event in seq order; ?since=SEQ resumes after SEQ',
        params: GameParams,
        querystring: WatchQuery,
      },
      preValidation: async (request) => {
        if (app.watchLimit.full(request.ip)) throw tooManyConnections('too many open connections from this address');
        if ((request.query as { ticket?: string }).ticket !== undefined)
          viewers.set(request, (await app.authenticate(request, { socket: true })).id);
        const { id } = request.params as { id: string };
        const sinceText = (request.query as { since?: string }).since;
        const room = app.spectators.rooms.get(id);
        if (room && (sinceText === undefined || Number(sinceText) <= room.seq)) return;
        const { lastSeq } = await app.games.view(id); // GAME_NOT_FOUND: a 404 before the upgrade
        if (sinceText !== undefined && Number(sinceText) > lastSeq)
          throw new ApiError('BAD_REQUEST', `since=${sinceText} is ahead of the game (last seq ${lastSeq})`);
      },
    },
    (socket, request) => {
      const gameId = request.params.id;
      const since = request.query.since === undefined ? undefined : Number(request.query.since);
      const ip = request.ip;
      const log = request.log.child({ gameId });
      // the check before the upgrade lets through every upgrade started before one finishes
      // (it awaits a read); the count is taken here, where no await comes between
      if (app.watchLimit.full(ip)) {
        socket.close(CLOSE_CODES.TRY_AGAIN_LATER, 'TOO_MANY_CONNECTIONS');
        return;
      }
      app.watchLimit.acquire(ip);
      app.heartbeat.track(socket);
      let left = false;
      let badFrames = 0;
      let leaveAnalysis: (() => void) | null = null;
      let closed = false;
      // the snapshot (or resume) frame is the first a watcher gets
      let started = false;

      const leave = () => {
        if (left) return;
        left = true;
        app.spectators.leave(gameId, member);
      };
      const kick = () => {
        leave();
        socket.close(CLOSE_CODES.RESYNC, 'RESYNC');
        // a stalled reader never takes the close frame off the wire
        setTimeout(() => socket.terminate(), KICK_GRACE_MS).unref();
      };
      const write = (data: Buffer | string) => {
        if (left || socket.readyState !== socket.OPEN) return;
        if (socket.bufferedAmount > watchMaxBuffered) return kick();
        socket.send(data, TEXT);
      };
      const chat = followWatchChat({ chat: app.gameChat, gameId, write, log });
      let ended = () => false;
      const member: Member = {
        write: (batch) => {
          write(batch.wsFrame());
          chat.afterBatch(ended());
        },
        count: (frame) => write(frame),
      };

      // progress frames are news, not part of the game: one lost while the socket catches up costs nothing
      app.analysis.hub
        .join(gameId, (messages) => {
          for (const message of messages) {
            const progress = watchAnalysisOf(message);
            if (progress !== null && started) write(JSON.stringify(progress));
          }
        })
        .then((leaveHub) => {
          if (closed) leaveHub();
          else leaveAnalysis = leaveHub;
        })
        .catch((err: unknown) => log.warn({ err }, 'watch: analysis progress unavailable'));

      socket.on('message', () => {
        write(JSON.stringify({ type: 'error', error: errorBody('SPECTATOR_READ_ONLY') }));
        if (++badFrames >= MAX_BAD_FRAMES) {
          leave();
          socket.close(CLOSE_CODES.TOO_MANY_ERRORS, 'TOO_MANY_ERRORS');
        }
      });
      socket.on('pong', () => app.heartbeat.alive(socket));
      socket.on('close', () => {
        leave();
        closed = true;
        leaveAnalysis?.();
        chat.close();
        app.heartbeat.untrack(socket);
        app.watchLimit.release(ip);
      });
      socket.on('error', (err) => log.debug({ err }, 'watch: socket error'));

      const viewer = viewers.get(request);
      const options = { ...(since === undefined ? {} : { since }), ...(viewer === undefined ? {} : { viewer }) };
      app.spectators
        .join(gameId, member, options, (room, count) => {
          write(
            since === undefined
              ? room.snapshotFrame(count)
              : JSON.stringify({ type: 'resume', gameId, since, spectators: count }),
          );
          started = true;
          ended = () => room.snapshot.status === 'ended';
          chat.start(room.players.has(member), ended());
        })
        .then(() => {
          // closed while the room was opening
          if (left || socket.readyState !== socket.OPEN) {
            left = false;
            leave();
          }
        })
        .catch((err: unknown) => {
          left = true;
          if (err instanceof ApiError && err.code === 'GAME_NOT_FOUND') {
            socket.close(CLOSE_CODES.GAME_NOT_FOUND, 'GAME_NOT_FOUND');
            return;
          }
          log.error({ err }, 'watch: join failed');
          socket.close(CLOSE_CODES.INTERNAL, 'INTERNAL');
        });
    },
  );
};

export default watch;
