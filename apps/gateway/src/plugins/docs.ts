/** OpenAPI from the route schemas, served at /docs (UI) and /docs/json. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * SHA-256 of `.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}`, the
 * <style> of the Swagger logo. Another @fastify/swagger-ui version may change it: the e2e
 * test of /docs then reports the violation (and only the logo loses its colours).
 */
const SWAGGER_LOGO_STYLE = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Shogi server',
          version: '0.1.0',
          description:
            'Event-sourced online shogi. Errors are `{code, message, detail?}` with codes from @shogi/protocol. ' +
            'Moves: POST /api/games/{id}/moves answers 202 once the submission is durable; the verdict arrives on ' +
            'the player WebSocket /api/games/{id}/ws and in GET /api/games/{id}/events.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        },
      },
      // @fastify/websocket hides its routes from the document; they are part of the API too
      transform: ({ schema, url, route }) => {
        if ((route as { websocket?: boolean }).websocket !== true) return { schema, url };
        const { hide: _hidden, ...shown } = schema ?? {};
        return {
          url,
          schema: {
            ...shown,
            description:
              'A WebSocket: open it with a GET carrying `Upgrade: websocket`. Every frame is one JSON object ' +
              'with a `type`; docs/api.md lists them. A refused upgrade is an HTTP error with a catalog body.',
            response: { 101: { description: 'Switching Protocols: the socket is open', type: 'null' } },
          },
        };
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // the UI runs under the gateway's policy (plugins/security-headers.ts): its scripts are
      // files; the one inline <style> it renders, the colours of its logo, is allowed by hash
      transformStaticCSP: (header) => header.replace("style-src 'self'", `style-src 'self' '${SWAGGER_LOGO_STYLE}'`),
    });
  },
  { name: 'docs' },
);
