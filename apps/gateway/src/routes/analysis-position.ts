/**
 * `POST /api/analysis/position`: the engine's evaluation of any position, streamed as NDJSON
 * while it deepens (protocol position-eval.ts). The position is checked by the rules first;
 * then the player's running evaluation, if any, is ended (one per player), the evaluation is
 * queued for the engine role, and its lines are forwarded from its channel as they come. A
 * client that closes the connection stops the search; so does the gateway when the engine
 * role stops answering.
 */

import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuthHeaders,
  ErrorResponse,
  type PositionEvalEnd,
  type PositionEvalLine,
  PositionEvalRequest,
  positionEvalLineOf,
} from '@shogi/protocol';
import { ApiError } from '../domain/api-error.js';
import { checkPosition } from '../domain/position-check.js';
import { principalOf } from '../plugins/access.js';
import { ERROR_RESPONSES } from './error-responses.js';

/** Past its time, how long the engine role may stay silent before the stream ends `unavailable`. */
const ENGINE_SILENCE_MS = 30_000;

const analysisPosition: FastifyPluginAsyncTypebox = async (app) => {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of open) res.destroy();
  });

  app.post(
    '/api/analysis/position',
    {
      schema: {
        tags: ['analysis'],
        summary:
          "The server's engine evaluates a position, streamed as NDJSON: a `start` line, a `depth` line per depth reached (score from sente's side, the line in USI), an `end` line (depth or time reached, superseded by the player's next request, stopped). One running per player: a new request ends the previous one. 400 INVALID_SFEN / MALFORMED_USI, 422 ILLEGAL_MOVE / POSITION_OVER, 503 ENGINE_UNAVAILABLE; limited per account and per address (RATE_LIMIT_POSITION_ANALYSIS_*)",
        security: [{ bearer: [] }],
        headers: AuthHeaders,
        body: PositionEvalRequest,
        produces: ['application/x-ndjson'],
        response: { ...ERROR_RESPONSES, 503: ErrorResponse },
      },
      config: app.limits.positionAnalysis,
    },
    async (request, reply) => {
      const evals = app.positionEvals;
      const playerId = principalOf(request).id;
      const { sfen, moves = [], multiPv = 1 } = request.body;
      const { sideToMove } = checkPosition(sfen, moves);
      const engineName = await evals.engineName();
      if (engineName === null) throw new ApiError('ENGINE_UNAVAILABLE');
      const maxDepth = Math.min(request.body.depth ?? evals.maxDepth, evals.maxDepth);
      const id = evals.newId();
      const log = request.log.child({ evaluation: id, playerId });

      reply.hijack();
      const res = reply.raw;
      open.add(res);
      let done = false;
      let depth = 0;
      let bestmove: string | null = null;
      let silence: NodeJS.Timeout | undefined;
      let leave: () => void = () => {};
      const finish = (end: PositionEvalEnd | null) => {
        if (done) return;
        done = true;
        clearTimeout(silence);
        leave();
        open.delete(res);
        void evals.release(playerId, id);
        if (end !== null && !res.destroyed) res.end(`${JSON.stringify(end)}\n`);
        else res.end();
      };
      const ended = (reason: PositionEvalEnd['reason']): PositionEvalEnd => ({ type: 'end', reason, depth, bestmove });
      const hush = () => {
        clearTimeout(silence);
        silence = setTimeout(() => {
          log.warn('position evaluation: the engine role stopped answering');
          void evals.stop(id);
          finish(ended('unavailable'));
        }, evals.maxMs + ENGINE_SILENCE_MS);
      };
      const write = (line: PositionEvalLine) => {
        if (done) return;
        if (line.type === 'end') {
          // a superseding gateway knows nothing of this stream's depths
          finish({ ...line, depth: Math.max(depth, line.depth), bestmove: line.bestmove ?? bestmove });
          return;
        }
        if (line.type === 'depth' && line.multipv === 1) {
          depth = Math.max(depth, line.depth);
          bestmove = line.pv[0] ?? bestmove;
        }
        res.write(`${JSON.stringify(line)}\n`);
        hush();
      };
      // the client gone (or gone while the position was checked): its search is stopped
      res.on('close', () => {
        if (done) return;
        void evals.stop(id);
        finish(null);
      });
      if (res.req.socket.destroyed) return finish(null);

      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache' });
      try {
        leave = await evals.follow(id, (raw) => {
          const line = positionEvalLineOf(raw);
          if (line === null) log.warn('position evaluation: dropped a line that is not one');
          else write(line);
        });
        if (done) return leave();
        await evals.claim(playerId, id);
        write({ type: 'start', id, engine: { name: engineName }, sideToMove, multiPv, maxDepth, maxMs: evals.maxMs });
        await evals.enqueue({ id, sfen, moves, multiPv, maxDepth, maxMs: evals.maxMs });
        log.info({ sfen, moves: moves.length, multiPv, maxDepth }, 'position evaluation requested');
      } catch (err) {
        log.error({ err }, 'position evaluation: could not queue it');
        finish(ended('unavailable'));
      }
    },
  );
};

export default analysisPosition;
