import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

const health: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: PostgreSQL and Redis answer',
        response: { 200: Type.Object({ ok: Type.Boolean(), games: Type.Integer() }, { additionalProperties: false }) },
      },
    },
    async () => {
      await app.redis.ping();
      return { ok: true, games: app.hub.size };
    },
  );
};

export default health;
