/**
 * The lobby routes: seeks with automatic pairing, challenges, rematch offers, and the
 * per-player lobby WebSocket that pushes pairings, challenges and answers. The service and
 * the hub of the `player:<id>` channels are the lobby plugin's (plugins/lobby.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuthHeaders,
  ChallengeList,
  ChallengeView,
  CLOSE_CODES,
  CreateChallengeBody,
  CreateSeekBody,
  errorBody,
  GameParams,
  type LobbyMessage,
  LobbyParams,
  LobbyQuery,
  MAX_BAD_FRAMES,
  SeekList,
  SeekView,
} from '@shogi/protocol';
import { principalOf } from '../plugins/access.js';
import { ERROR_RESPONSES } from './error-responses.js';

const errors = ERROR_RESPONSES;
const authed = { security: [{ bearer: [] }], headers: AuthHeaders };

type App = Parameters<FastifyPluginAsyncTypebox>[0];

const lobby: FastifyPluginAsyncTypebox = async (app) => {
  seekRoutes(app);
  challengeRoutes(app);
  answerRoutes(app);
  lobbySocket(app);
};

function seekRoutes(app: App): void {
  const service = app.lobby;
  app.post(
    '/api/seeks',
    {
      config: app.limits.lobby,
      schema: {
        tags: ['lobby'],
        summary: 'Seek a game: paired at once with the closest compatible open seek, else left open for 10 minutes',
        ...authed,
        body: CreateSeekBody,
        response: { 201: SeekView, ...errors },
      },
    },
    async (request, reply) => {
      const player = principalOf(request);
      const seek = await service.createSeek(player, request.body, request.ip);
      request.log.debug({ seekId: seek.id, playerId: player.id, gameId: seek.gameId }, 'seek posted');
      return reply.code(201).send(seek);
    },
  );

  app.get(
    '/api/seeks',
    {
      schema: {
        tags: ['lobby'],
        summary:
          "Open seeks (at most 200): every player's oldest first, oldest first among them, then every player's second, and so on",
        response: { 200: SeekList, ...errors },
      },
    },
    async () => ({ seeks: await service.listSeeks() }),
  );

  app.get(
    '/api/seeks/:id',
    {
      schema: {
        tags: ['lobby'],
        summary: 'A seek: open, paired (with its game and side), cancelled or expired',
        params: LobbyParams,
        response: { 200: SeekView, ...errors },
      },
    },
    async (request) => service.seek(request.params.id),
  );

  app.delete(
    '/api/seeks/:id',
    {
      config: app.limits.lobby,
      schema: {
        tags: ['lobby'],
        summary: 'Cancel your open seek (409 SEEK_CLOSED once paired or expired)',
        ...authed,
        params: LobbyParams,
        response: { 200: SeekView, ...errors },
      },
    },
    async (request) => service.cancelSeek(principalOf(request), request.params.id),
  );
}

function challengeRoutes(app: App): void {
  const service = app.lobby;
  app.post(
    '/api/challenges',
    {
      config: app.limits.lobby,
      schema: {
        tags: ['lobby'],
        summary: 'Challenge a player (by id or exact name); pending for 5 minutes',
        ...authed,
        body: CreateChallengeBody,
        response: { 201: ChallengeView, ...errors },
      },
    },
    async (request, reply) => {
      const challenge = await service.createChallenge(principalOf(request), request.body);
      return reply.code(201).send(challenge);
    },
  );

  app.get(
    '/api/challenges',
    {
      schema: {
        tags: ['lobby'],
        summary: 'Your latest challenges, received and sent, newest first',
        ...authed,
        response: { 200: ChallengeList, ...errors },
      },
    },
    async (request) => service.challenges(principalOf(request)),
  );

  app.get(
    '/api/challenges/:id',
    {
      schema: {
        tags: ['lobby'],
        summary: 'A challenge you sent or received',
        ...authed,
        params: LobbyParams,
        response: { 200: ChallengeView, ...errors },
      },
    },
    async (request) => service.challenge(principalOf(request), request.params.id),
  );
}

/** Answers to a challenge, and rematch offers (challenges of a finished game's opponent). */
function answerRoutes(app: App): void {
  const service = app.lobby;
  const answer = (action: 'accept' | 'decline', summary: string) =>
    app.post(
      `/api/challenges/:id/${action}`,
      {
        config: app.limits.lobby,
        schema: {
          tags: ['lobby'],
          summary,
          ...authed,
          params: LobbyParams,
          response: { 200: ChallengeView, ...errors },
        },
      },
      async (request) => service[action](principalOf(request), request.params.id),
    );
  answer('accept', 'Accept a challenge sent to you: creates the game (a replay answers the same game)');
  answer('decline', 'Decline a challenge sent to you');

  app.delete(
    '/api/challenges/:id',
    {
      config: app.limits.lobby,
      schema: {
        tags: ['lobby'],
        summary: 'Withdraw a pending challenge you sent',
        ...authed,
        params: LobbyParams,
        response: { 200: ChallengeView, ...errors },
      },
    },
    async (request) => service.cancelChallenge(principalOf(request), request.params.id),
  );

  app.post(
    '/api/games/:id/rematch',
    {
      config: app.limits.lobby,
      schema: {
        tags: ['lobby'],
        summary:
          'Offer a rematch of an ended game (colours swapped; a handicap giver stays the giver); 201 when offered (a bot this server runs accepts a casual one at once: status accepted, with the game), 200 when it accepts the opponent’s offer or repeats yours',
        ...authed,
        params: GameParams,
        response: { 200: ChallengeView, 201: ChallengeView, ...errors },
      },
    },
    async (request, reply) => {
      const { challenge, created } = await service.rematch(principalOf(request), request.params.id);
      return reply.code(created ? 201 : 200).send(challenge);
    },
  );
}

function lobbySocket(app: App): void {
  app.get(
    '/api/lobby/ws',
    {
      websocket: true,
      schema: {
        tags: ['lobby'],
        summary:
          'Lobby WebSocket (upgrade, read-only: a client frame gets an error frame): hello, the open seeks with follow=seeks (seeks, again on every change), then paired / challenge / rematch / accepted / declined / cancelled / started',
        querystring: LobbyQuery,
      },
      preValidation: async (request) => app.authedSockets.check(request),
    },
    (socket, request) => {
      const player = principalOf(request);
      if (!app.authedSockets.open(request, socket)) return;
      let leave: (() => void) | null = null;
      let unfollow: (() => void) | null = null;
      let closed = false;
      // a lobby page follows the seeks: a person looking at the lobby, to whom the house seek
      // answerer leaves seeks (a game page's socket, waiting for a rematch answer, is not)
      const followsSeeks = request.query.follow === 'seeks';
      const away = followsSeeks ? app.lobbyPresence.enter(player.id) : () => undefined;
      const send = (message: LobbyMessage) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      // the spectators' heartbeat: a socket that misses a ping (a vanished client) is dropped
      app.heartbeat.track(socket);
      socket.on('pong', () => app.heartbeat.alive(socket));
      socket.on('error', (err) => request.log.debug({ err }, 'lobby: socket error'));
      socket.on('close', () => {
        closed = true;
        app.heartbeat.untrack(socket);
        away();
        leave?.();
        unfollow?.();
      });
      // read-only, like a watch socket: each frame gets an error frame, and MAX_BAD_FRAMES close it
      let frames = 0;
      socket.on('message', () => {
        send({ type: 'error', error: errorBody('LOBBY_READ_ONLY') });
        if (++frames >= MAX_BAD_FRAMES) socket.close(CLOSE_CODES.TOO_MANY_ERRORS, 'TOO_MANY_ERRORS');
      });
      app.lobbyHub
        .join(player.id, (messages) => {
          for (const m of messages) send(m as LobbyMessage);
        })
        .then(
          (off) => {
            if (closed) off();
            else {
              leave = off;
              send({ type: 'hello', playerId: player.id });
              if (followsSeeks) unfollow = app.seekFeed.add((seeks) => send({ type: 'seeks', seeks }));
            }
          },
          (err: unknown) => {
            request.log.warn({ err, playerId: player.id }, 'lobby: subscribe failed');
            socket.close(CLOSE_CODES.TRY_AGAIN_LATER, 'TRY_AGAIN_LATER');
          },
        );
    },
  );
}

export default lobby;
