import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AcceptedResponse,
  AuthHeaders,
  CreateGameBody,
  EventsQuery,
  EventsResponse,
  GameActionBody,
  GameParams,
  GameView,
  ResignBody,
  SubmitMoveBody,
} from '@shogi/protocol';
import { ApiError } from '../domain/api-error.js';
import { principalOf } from '../plugins/access.js';
import { ERROR_RESPONSES } from './error-responses.js';

const errors = ERROR_RESPONSES;

/** The idempotency key of a request: the header wins; a body field must agree with it. */
function keyOf(header: string | undefined, body: string | undefined): string | undefined {
  if (header !== undefined && body !== undefined && header !== body) {
    throw new ApiError('BAD_REQUEST', 'the Idempotency-Key header and the idempotencyKey field differ');
  }
  return header ?? body;
}

const TAKEBACK_ROUTES = [
  ['', 'propose', 'Propose to take back your last move (and the reply to it, on your turn)'],
  ['/accept', 'accept', "Accept your opponent's takeback proposal: the moves are undone"],
  ['/decline', 'decline', "Decline your opponent's takeback proposal, or withdraw your own"],
] as const;

const games: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        summary:
          'Operators and tests: create a game between two players (optional ruleset, and a handicap or an initial SFEN); players start games through seeks, challenges, rematches and bots',
        body: CreateGameBody,
        response: { 201: GameView, ...errors },
      },
    },
    async (request, reply) => {
      const game = await app.games.createGame(request.body);
      request.log.info(
        { gameId: game.id, sente: game.players.sente.id, gote: game.players.gote.id, by: principalOf(request).id },
        'game created by an operator',
      );
      return reply.code(201).send(game);
    },
  );

  app.get(
    '/api/games/:id',
    {
      schema: {
        tags: ['games'],
        summary: 'The state of a game: SFEN, moves in USI, side to move, status, result, last seq',
        params: GameParams,
        response: { 200: GameView, ...errors },
      },
    },
    async (request) => app.games.view(request.params.id),
  );

  app.get(
    '/api/games/:id/events',
    {
      schema: {
        tags: ['games'],
        summary: 'The events of a game with seq > after, in order',
        params: GameParams,
        querystring: EventsQuery,
        response: { 200: EventsResponse, ...errors },
      },
    },
    async (request) => {
      const after = Number(request.query.after ?? 0);
      const limit = request.query.limit === undefined ? 1000 : Math.min(1000, Number(request.query.limit));
      const events = await app.games.eventsAfter(request.params.id, after, limit);
      return { gameId: request.params.id, events };
    },
  );

  app.post(
    '/api/games/:id/moves',
    {
      schema: {
        tags: ['moves'],
        summary: 'Submit a move as the player on move; 202 once the submission is durable and queued for its verdict',
        security: [{ bearer: [] }],
        params: GameParams,
        headers: AuthHeaders,
        body: SubmitMoveBody,
        response: { 202: AcceptedResponse, ...errors },
      },
      config: app.limits.moves,
    },
    async (request, reply) => {
      const player = principalOf(request);
      const { usi, ply, blur } = request.body;
      const idempotencyKey = keyOf(request.headers['idempotency-key'], request.body.idempotencyKey);
      const log = request.log.child({ gameId: request.params.id, playerId: player.id });
      const { seq } = await app.games.submitMove(request.params.id, player, { usi, ply, idempotencyKey, blur });
      log.debug({ seq, usi, ply }, 'move submitted');
      return reply.code(202).send({ seq });
    },
  );

  app.post(
    '/api/games/:id/resign',
    {
      schema: {
        tags: ['moves'],
        summary: 'Resign the game',
        security: [{ bearer: [] }],
        params: GameParams,
        headers: AuthHeaders,
        body: ResignBody,
        response: { 202: AcceptedResponse, ...errors },
      },
      config: app.limits.moves,
      // a bodiless POST is the common way to resign: treat it as {}
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) => {
      const player = principalOf(request);
      const idempotencyKey = keyOf(request.headers['idempotency-key'], request.body.idempotencyKey);
      const { seq } = await app.games.resign(request.params.id, player, idempotencyKey);
      request.log.info({ gameId: request.params.id, playerId: player.id, seq }, 'player resigned');
      return reply.code(202).send({ seq });
    },
  );

  for (const action of ['abort', 'impasse'] as const) {
    app.post(
      `/api/games/:id/${action}`,
      {
        schema: {
          tags: ['moves'],
          summary:
            action === 'abort'
              ? 'Abort the game before your first move (before both sides have moved): it ends unrated, no winner'
              : 'Declare impasse (27-point rule) on your turn: a valid declaration wins, a wrong one loses',
          security: [{ bearer: [] }],
          params: GameParams,
          headers: AuthHeaders,
          body: GameActionBody,
          response: { 202: AcceptedResponse, ...errors },
        },
        config: app.limits.moves,
        // bodiless, like resign
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
      },
      async (request, reply) => {
        const player = principalOf(request);
        const idempotencyKey = keyOf(request.headers['idempotency-key'], request.body.idempotencyKey);
        const gameId = request.params.id;
        const { seq } =
          action === 'abort'
            ? await app.games.abort(gameId, player, idempotencyKey)
            : await app.games.declareImpasse(gameId, player, idempotencyKey);
        request.log.info(
          { gameId, playerId: player.id, seq },
          action === 'abort' ? 'game aborted' : 'impasse declared',
        );
        return reply.code(202).send({ seq });
      },
    );
  }
  // takebacks: one route per action, each through the game service's one takeback path
  for (const [path, action, summary] of TAKEBACK_ROUTES) {
    app.post(
      `/api/games/:id/takeback${path}`,
      {
        schema: {
          tags: ['moves'],
          summary,
          security: [{ bearer: [] }],
          params: GameParams,
          headers: AuthHeaders,
          response: { 202: AcceptedResponse, ...errors },
        },
        config: app.limits.moves,
      },
      async (request, reply) => {
        const player = principalOf(request);
        const gameId = request.params.id;
        const { seq } = await app.games.takeback(gameId, player, action);
        request.log.info({ gameId, playerId: player.id, seq, action }, 'takeback');
        return reply.code(202).send({ seq });
      },
    );
  }
};

export default games;
