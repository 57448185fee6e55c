import type { FastifyRequest } from 'fastify';

/** The server's origin as the client reached it (lishogi's answers carry absolute URLs). */
export const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;
