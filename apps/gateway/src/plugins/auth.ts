/** Bearer-token authentication: `Authorization: Bearer <token>` or, for WebSockets, `?token=`. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/api-error.js';
import type { Player } from '../domain/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<Player>;
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,200})$/;

export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header !== undefined) return BEARER.exec(header)?.[1] ?? null;
  const query = request.query as Record<string, unknown> | undefined;
  const token = query?.token;
  return typeof token === 'string' && token.length > 0 && token.length <= 200 ? token : null;
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('authenticate', async (request: FastifyRequest): Promise<Player> => {
      const token = tokenOf(request);
      if (token === null) throw new ApiError('UNAUTHORIZED');
      const player = await app.games.authenticate(token);
      if (!player) throw new ApiError('UNAUTHORIZED');
      return player;
    });
  },
  { name: 'auth', dependencies: ['games'] },
);
