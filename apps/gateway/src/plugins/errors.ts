/** Every error answer is a catalog body; client mistakes are 4xx and never logged as errors. */
import type { IncomingMessage } from 'node:http';
import { errorBody } from '@shogi/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, toErrorBody } from '../domain/api-error.js';

export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error, request, reply) => {
      const { status, body } = toErrorBody(error);
      // a client that went away before its body was read (an abandoned upload) leaves a reset
      // socket that looks like a lost database connection: nothing for the operator to fix
      if (clientLeft(request.raw))
        request.log.debug({ code: (error as { code?: unknown }).code }, 'the client closed the connection mid-request');
      // a catalog 5xx (no engine running) is the server's state, not a fault: one line, no stack
      else if (status >= 500 && error instanceof ApiError) request.log.warn({ code: body.code }, 'request refused');
      else if (status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.debug({ code: body.code, detail: body.detail }, 'client error');
      if (error instanceof ApiError && error.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.retryAfterSeconds));
      // a route that set another type (a text or NDJSON stream failing) still answers JSON
      return reply.code(status).type('application/json; charset=utf-8').send(body);
    });
    // PostgreSQL text cannot hold NUL, and no id, name or filter of this API can: refused at
    // the door, before any hook or handler hands it to a query
    app.addHook('preValidation', async (request) => {
      if (hasNul(request.params) || hasNul(request.query)) throw new ApiError('BAD_REQUEST', 'NUL in the URL');
      // a route without a body schema takes no body: one sent is a client's mistake (a field it
      // thinks matters), not something to drop silently; an empty object is no body
      if (request.routeOptions.schema?.body === undefined && !isNoBody(request.body))
        throw new ApiError(
          'BAD_REQUEST',
          `${request.method} ${request.routeOptions.url} takes no body: send none, or {}`,
        );
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('NOT_FOUND')));
    // @fastify/websocket answers a plain GET on a WebSocket-only route with an empty 404
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode !== 404 || request.method === 'HEAD' || (payload !== undefined && payload !== ''))
        return payload;
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(errorBody('NOT_FOUND', 'this route is a WebSocket: send an upgrade request'));
    });
  },
  { name: 'errors' },
);

/** The request stream ended by the client's disconnection, not by its last byte. */
const clientLeft = (raw: IncomingMessage): boolean => raw.readableAborted && !raw.complete;

const isNoBody = (body: unknown): boolean =>
  body === undefined ||
  body === null ||
  (typeof body === 'object' && !Array.isArray(body) && Object.keys(body as object).length === 0);

const hasNul = (values: unknown): boolean =>
  typeof values === 'object' &&
  values !== null &&
  Object.values(values).some((v) => (typeof v === 'string' ? v.includes('\u0000') : Array.isArray(v) && hasNul(v)));
