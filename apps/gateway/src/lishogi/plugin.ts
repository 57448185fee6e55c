/**
 * lishogi's Bot and Board API, served at the host root as lishogi serves it, so that a bot
 * or board client written for lishogi.org plays here with nothing changed but its base URL.
 * It is a front end only: every command goes through the same game service and lobby as the
 * rest of the API, and every game is an ordinary game here. Its routes answer in lishogi's
 * shapes, errors included (`{"error": ...}`), and take form-encoded bodies as lishogi does.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.js';
import { parseJsonBody } from '../domain/json-body.js';
import accountRoutes from './account-routes.js';
import challengeRoutes from './challenge-routes.js';
import { lishogiErrorHandler } from './errors.js';
import eventRoutes from './event-routes.js';
import gameRoutes from './game-routes.js';
import type { NdjsonStream } from './ndjson.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** the lishogi routes' open NDJSON streams, ended when the gateway closes */
    lishogiStreams: Set<NdjsonStream>;
  }
}

/** Not wrapped in fastify-plugin: the error handler and the body parsers stay inside. */
export default async function lishogi(app: FastifyInstance): Promise<void> {
  app.setErrorHandler(lishogiErrorHandler);
  await app.register(formbody);
  // lishogi's commands take no body, and some clients send an empty one typed as JSON
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    const parsed = parseJsonBody(bytes);
    if (parsed.ok) done(null, parsed.value);
    else done(new ApiError(parsed.code, parsed.detail), undefined);
  });

  const streams = new Set<NdjsonStream>();
  app.decorate('lishogiStreams', streams);
  app.addHook('preClose', async () => {
    for (const stream of [...streams]) stream.end();
  });
  await app.register(accountRoutes);
  await app.register(challengeRoutes);
  await app.register(eventRoutes);
  await app.register(gameRoutes, { api: 'bot', prefix: '/api/bot/game' });
  await app.register(gameRoutes, { api: 'board', prefix: '/api/board/game' });
}
