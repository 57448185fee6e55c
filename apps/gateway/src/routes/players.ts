import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreatePlayerBody, CreatePlayerResponse, ErrorResponse } from '@shogi/protocol';
import { hashToken } from '../domain/auth.js';

const players: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/players',
    {
      schema: {
        tags: ['players'],
        summary:
          "Create a guest player; the bearer token is returned once and stored only as a SHA-256 hash. 409 NAME_TAKEN for an account's username; limited per client IP (RATE_LIMIT_GUESTS_MAX)",
        body: CreatePlayerBody,
        response: { 201: CreatePlayerResponse, 400: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse },
      },
      config: app.limits.guests,
    },
    async (request, reply) => {
      const player = await app.guests.create(request.body.name);
      // in every gateway's filter of valid tokens before its first use
      app.auth.issued(hashToken(player.token));
      request.log.debug({ playerId: player.id }, 'player created');
      return reply.code(201).send(player);
    },
  );
};

export default players;
