import { ErrorResponse } from '@shogi/protocol';

/** The error answers a route that acts on games or the lobby can give: each a catalog body. */
export const ERROR_RESPONSES = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  422: ErrorResponse,
  429: ErrorResponse,
} as const;
