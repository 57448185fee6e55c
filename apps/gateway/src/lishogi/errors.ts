/**
 * Errors as lishogi gives them: `{"error": "..."}` with the HTTP status, which its clients
 * read (a 4xx is final, a 5xx is retried). The catalog's code rides along for clients of
 * this server's own API.
 */
import type { ErrorCode } from '@shogi/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, toErrorBody } from '../domain/api-error.js';

export interface LishogiError {
  readonly error: string;
  readonly code: string;
}

/** A group of routes' own status for a catalog code (the catalog's status is `status`). */
export type StatusFor = (code: ErrorCode, status: number) => number;

const catalogStatus: StatusFor = (_code, status) => status;

export function lishogiErrorOf(
  error: unknown,
  statusFor: StatusFor = catalogStatus,
): { status: number; body: LishogiError } {
  const { status, body } = toErrorBody(error);
  const detail = body.detail === undefined ? '' : `: ${body.detail}`;
  return { status: statusFor(body.code, status), body: { error: `${body.message}${detail}`, code: body.code } };
}

/** The error handler of routes that answer as lishogi does, with their statuses. */
export function lishogiErrorHandlerWith(statusFor: StatusFor) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = lishogiErrorOf(error, statusFor);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ code: body.code }, 'client error');
    if (error instanceof ApiError && error.retryAfterSeconds !== undefined)
      reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  };
}

/** The paths of lishogi's routes, whose every answer is lishogi's, the router's refusals too. */
const LISHOGI_PATHS = /^\/api\/(bot|board)\//;

export const isLishogiPath = (url: string): boolean => LISHOGI_PATHS.test(url);

/** The error handler of the lishogi routes' plugin. */
export const lishogiErrorHandler = lishogiErrorHandlerWith(catalogStatus);
