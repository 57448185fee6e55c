/**
 * Errors as lishogi gives them: `{"error": "..."}` with the HTTP status, which its clients
 * read (a 4xx is final, a 5xx is retried). The catalog's code rides along for clients of
 * this server's own API.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, toErrorBody } from '../domain/api-error.js';

export interface LishogiError {
  readonly error: string;
  readonly code: string;
}

export function lishogiErrorOf(error: unknown): { status: number; body: LishogiError } {
  const { status, body } = toErrorBody(error);
  const detail = body.detail === undefined ? '' : `: ${body.detail}`;
  return { status, body: { error: `${body.message}${detail}`, code: body.code } };
}

/** The error handler of the lishogi routes' plugin. */
export function lishogiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = lishogiErrorOf(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.debug({ code: body.code }, 'client error');
  if (error instanceof ApiError && error.retryAfterSeconds !== undefined)
    reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
