/**
 * lishogi's event stream, `GET /api/stream/event`: NDJSON (ndjson.ts: chunked, keep-alive
 * lines, cut off for a reader that does not keep up), open until the client leaves or the
 * gateway closes; what it says is event-feed.ts's. It counts with the player's sockets
 * (plugins/authed-sockets.ts). A stream that ends, whoever ends it, releases its subscriptions
 * and its slot.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listGames } from '@shogi/store';
import { principalOf } from '../plugins/access.js';
import { shaper } from './cards.js';
import { createEventFeed } from './event-feed.js';
import { openNdjson } from './ndjson.js';
import { originOf } from './origin.js';
import { LISHOGI_ERRORS } from './schemas.js';

/** ongoing games announced when a stream opens, the most recently active first */
const MAX_ANNOUNCED = 1000;

const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = app.databases.reads;

  app.get(
    '/api/stream/event',
    {
      schema: {
        tags: ['lishogi'],
        summary:
          'NDJSON stream of lishogi events: challenge, challengeDeclined, challengeCanceled, gameStart (also for each game running when it opens), gameFinish; an empty line as keep-alive',
        produces: ['application/x-ndjson'],
        response: LISHOGI_ERRORS,
      },
    },
    async (request, reply) => {
      const player = principalOf(request);
      const shape = shaper(reads, originOf(request));
      // counted with the player's sockets before the first byte (429 past a limit), ended when the token goes
      const release = app.authedSockets.openStream(request, () => stream.end());
      const stream = openNdjson(reply, { registry: app.lishogiStreams });
      stream.onClose(release);
      const log = request.log.child({ playerId: player.id });
      const feed = createEventFeed({
        joinPlayer: (listener, resync) => app.lobbyHub.join(player.id, listener, resync),
        joinGame: (gameId, listener, resync) => app.hub.join(gameId, listener, resync),
        ongoingGames: async () =>
          (await listGames(reads, { status: 'ongoing', playerId: player.id, limit: MAX_ANNOUNCED })).map((g) => g.id),
        incomingChallenges: async () =>
          (await app.lobby.challenges(player)).incoming.filter((c) => c.status === 'pending'),
        challenge: (id) => app.lobby.challenge(player, id),
        game: (gameId) => app.games.view(gameId),
        shapeChallenge: (challenge) => shape.challenge(challenge, player.id),
        shapeGame: (game) => shape.game(game, player.id),
        write: (line) => stream.line(line),
        log,
      });
      stream.onClose(() => feed.close());
      try {
        await feed.start();
      } catch (err) {
        // without its subscription the stream would say nothing: the client reconnects
        log.warn({ err }, 'lishogi event stream: subscribe failed');
        stream.end();
      }
    },
  );
};

export default eventRoutes;
