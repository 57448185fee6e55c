/**
 * The long-lived connections of this gateway for /metrics (docs/operations.md#metrics): each
 * WebSocket and NDJSON stream route has a kind, and a connection counts from its request to
 * its close. Counted here, at the door, rather than in each route, so a new route needs one
 * line in the table below; a connection its route then refuses (401, 429) counts only until
 * that answer closes it.
 */
import type { Socket } from 'node:net';
import { metrics } from '@shogi/metrics';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type Kind =
  | { readonly socket: string; readonly spectator?: true }
  | { readonly stream: string; readonly spectator?: true };

/** Route → kind of connection; labels are these fixed names, never a game id. */
export const CONNECTION_KINDS: Readonly<Record<string, Kind>> = {
  'GET /api/games/:id/ws': { socket: 'player' },
  'GET /api/games/:id/watch': { socket: 'spectator', spectator: true },
  'GET /api/live/ws': { socket: 'live' },
  'GET /api/lobby/ws': { socket: 'lobby' },
  'GET /api/games/:id/stream': { stream: 'game', spectator: true },
  'GET /api/stream/event': { stream: 'lishogi-event' },
  'GET /api/bot/game/stream/:id': { stream: 'lishogi-game' },
  'GET /api/board/game/stream/:id': { stream: 'lishogi-game' },
};

export default fp(
  async (app: FastifyInstance) => {
    const open = new Map<object, Kind>();
    app.addHook('onRequest', async (request, reply) => {
      const kind = CONNECTION_KINDS[`${request.method} ${request.routeOptions.url ?? ''}`];
      if (kind === undefined) return;
      // an upgraded socket outlives its request; a stream ends with its response
      const closes: Socket | typeof reply.raw = 'socket' in kind ? request.raw.socket : reply.raw;
      const key = {};
      open.set(key, kind);
      closes.once('close', () => open.delete(key));
    });
    const count = (pick: (kind: Kind) => string | undefined) => {
      const counts = new Map<string, number>();
      for (const kind of open.values()) {
        const label = pick(kind);
        if (label !== undefined) counts.set(label, (counts.get(label) ?? 0) + 1);
      }
      return [...counts].map(([kind, n]) => [{ kind }, n] as const);
    };
    const readers = [
      metrics.sockets.read(() => count((k) => ('socket' in k ? k.socket : undefined))),
      metrics.streams.read(() => count((k) => ('stream' in k ? k.stream : undefined))),
      metrics.spectators.read(() => [[{}, count((k) => (k.spectator ? 'all' : undefined))[0]?.[1] ?? 0]]),
    ];
    app.addHook('onClose', async () => {
      for (const stop of readers) stop();
    });
  },
  { name: 'connection-metrics' },
);
