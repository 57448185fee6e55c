/** Every JSON body goes through parseJsonBody: its refusals are catalog errors like any other. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/api-error.js';
import { parseJsonBody } from '../domain/json-body.js';

export default fp(
  async (app: FastifyInstance) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      const parsed = parseJsonBody(body as Buffer);
      if (parsed.ok) done(null, parsed.value);
      else done(new ApiError(parsed.code, parsed.detail), undefined);
    });
  },
  { name: 'json-body' },
);
