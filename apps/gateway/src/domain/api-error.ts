/** An expected failure with a catalog code, thrown inside handlers and mapped to a 4xx. */
import { type ErrorBody, type ErrorCode, errorBody, statusOf } from '@shogi/protocol';

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  /** for a 429: the seconds to wait, sent as Retry-After */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, detail?: string, options: { retryAfterSeconds?: number } = {}) {
    super(detail === undefined ? code : `${code}: ${detail}`);
    this.name = 'ApiError';
    this.code = code;
    this.detail = detail;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get statusCode(): number {
    return statusOf(this.code);
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.detail);
  }
}

/**
 * An ApiError whose body carries fields beside the catalog's (the record, line and ply of a
 * refused import); the route's response schema names them.
 */
export class ApiErrorWithFields extends ApiError {
  readonly fields: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, detail: string, fields: Readonly<Record<string, unknown>>) {
    super(code, detail);
    this.fields = fields;
  }

  override toBody(): ErrorBody {
    return { ...this.fields, ...super.toBody() };
  }
}

/** Fastify's own client errors, mapped onto the catalog. */
const FASTIFY_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_VALIDATION: 'BAD_REQUEST',
};

/** Other client errors of Fastify's plugins, by status. */
const FASTIFY_STATUSES: Readonly<Record<number, ErrorCode>> = {
  403: 'NOT_FOUND',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message: string;
  validation?: unknown;
}

/** The catalog answer for any error a handler or Fastify raised; 5xx only for our bugs and I/O. */
export function toErrorBody(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof ApiError) return { status: error.statusCode, body: error.toBody() };
  const e = error as FastifyLikeError;
  const mapped = e.code === undefined ? undefined : FASTIFY_CODES[e.code];
  if (mapped) return { status: statusOf(mapped), body: errorBody(mapped, e.message) };
  if (e.validation !== undefined) return { status: 400, body: errorBody('BAD_REQUEST', e.message) };
  if (e instanceof SyntaxError) return { status: 400, body: errorBody('MALFORMED_JSON', e.message) };
  if (isUnavailable(error)) return { status: statusOf('UNAVAILABLE'), body: errorBody('UNAVAILABLE') };
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // the answer's status is always its code's (a plugin's 403, e.g. @fastify/static refusing
    // a path outside its root, is a plain 404: nothing is there)
    const code = FASTIFY_STATUSES[e.statusCode] ?? 'BAD_REQUEST';
    return { status: statusOf(code), body: errorBody(code, e.message) };
  }
  return { status: 500, body: errorBody('INTERNAL') };
}

/** PostgreSQL connection classes: 08 connection exception, 57 operator intervention (a terminated backend). */
const UNAVAILABLE_SQLSTATE = /^(08|57)/;
const UNAVAILABLE_NODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const UNAVAILABLE_MESSAGE = /^(Connection terminated|Client has encountered a connection error|Client was closed)/;

/**
 * A lost or refused database connection: the request may not have happened (or, if the
 * commit's answer was lost, may have), so the client retries it, with its idempotency key.
 */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_NODE.has(e.code))) return true;
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message);
}
