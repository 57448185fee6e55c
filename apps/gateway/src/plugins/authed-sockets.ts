/**
 * The gateway's authenticated long-lived connections: player and lobby sockets, and the NDJSON
 * streams a token opens (lishogi's event stream and game streams). Together at most
 * SOCKET_MAX_PER_IP per client address and SOCKET_MAX_PER_PLAYER per player on each gateway,
 * and each closed as soon as its token is revoked (here or, through the Redis notice, on
 * another gateway) or expires: a socket with 4001 UNAUTHORIZED, a stream ended.
 */
import { CLOSE_CODES } from '@shogi/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import type { GatewayConfig } from '../config.js';
import { AuthedSockets, type Refusal } from '../domain/authed-sockets.js';
import { tooManyConnections } from '../domain/connection-caps.js';
import { principalOf } from './access.js';

declare module 'fastify' {
  interface FastifyInstance {
    authedSockets: {
      /** Before the upgrade: 429 TOO_MANY_CONNECTIONS when the caller's address or player is at its limit. */
      check(request: FastifyRequest): void;
      /**
       * After the upgrade: counts the socket and closes it when its token goes; false (the
       * socket closed) when a limit was reached meanwhile.
       */
      open(request: FastifyRequest, socket: WebSocket): boolean;
      /**
       * Before a stream's first byte: counts it under the same limits as the sockets (429
       * TOO_MANY_CONNECTIONS past one) and calls `end` when its token goes. The stream hands
       * its slot back with the function returned, when it closes for whatever reason.
       */
      openStream(request: FastifyRequest, end: () => void): () => void;
    };
  }
}

/** setTimeout's longest delay; a later expiry is checked again when it fires */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One counted connection: how to close it when its token goes. */
interface Held {
  close(): void;
}

const refusedText = { ip: 'from this address', player: 'for this player' } as const;
const refusalOf = (refused: Refusal) => tooManyConnections(`too many open connections ${refusedText[refused]}`);

export default fp<{ config: GatewayConfig }>(
  async (app: FastifyInstance, { config }) => {
    const held = new AuthedSockets<Held>({
      perIp: config.socketMaxPerIp,
      perPlayer: config.socketMaxPerPlayer,
    });
    const timers = new Map<Held, NodeJS.Timeout>();

    /** Forgets a connection: its slot and its expiry timer. */
    const drop = (connection: Held) => {
      clearTimeout(timers.get(connection));
      timers.delete(connection);
      held.delete(connection);
    };
    const revoke = (tokenHash: string) => {
      for (const connection of held.revoke(tokenHash)) {
        drop(connection);
        connection.close();
      }
    };
    const offRevoked = app.auth.onRevoked(revoke);
    // after notices may have been lost, every open connection's token is looked up again
    const offForgetAll = app.auth.onForgetAll(() => {
      for (const tokenHash of held.tokenHashes())
        app.auth.byHash(tokenHash).then(
          (principal) => principal === null && revoke(tokenHash),
          (err: unknown) => app.log.warn({ err }, 'sockets: token check failed'),
        );
    });

    const watchExpiry = (connection: Held, tokenHash: string, expiresAt: Date | null) => {
      if (expiresAt === null) return;
      const delay = Math.max(0, expiresAt.getTime() - Date.now());
      const timer = setTimeout(
        async () => {
          if (delay < MAX_TIMER_MS || (await app.auth.byHash(tokenHash)) === null) {
            drop(connection);
            connection.close();
          } else watchExpiry(connection, tokenHash, expiresAt);
        },
        Math.min(delay, MAX_TIMER_MS),
      );
      timer.unref();
      timers.set(connection, timer);
    };

    /** Counts the request's connection (null) or names the limit it would pass. */
    const hold = (request: FastifyRequest, connection: Held): Refusal | null => {
      const principal = principalOf(request);
      const refused = held.add(connection, {
        ip: request.ip,
        playerId: principal.id,
        tokenHash: principal.tokenHash,
        exempt: app.runsBot(principal.id),
      });
      if (refused === null) watchExpiry(connection, principal.tokenHash, principal.token.expiresAt);
      return refused;
    };

    app.decorate('authedSockets', {
      check(request: FastifyRequest) {
        const { id } = principalOf(request);
        const refused = held.refusal({ ip: request.ip, playerId: id, exempt: app.runsBot(id) });
        if (refused !== null) throw refusalOf(refused);
      },
      open(request: FastifyRequest, socket: WebSocket) {
        const connection: Held = {
          close: () => {
            if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
              socket.close(CLOSE_CODES.UNAUTHORIZED, 'UNAUTHORIZED');
          },
        };
        if (hold(request, connection) !== null) {
          socket.close(CLOSE_CODES.TRY_AGAIN_LATER, 'TOO_MANY_CONNECTIONS');
          return false;
        }
        socket.on('close', () => drop(connection));
        return true;
      },
      openStream(request: FastifyRequest, end: () => void) {
        const connection: Held = { close: end };
        const refused = hold(request, connection);
        if (refused !== null) throw refusalOf(refused);
        return () => drop(connection);
      },
    });
    app.addHook('onClose', async () => {
      offRevoked();
      offForgetAll();
      for (const timer of timers.values()) clearTimeout(timer);
    });
  },
  { name: 'authed-sockets', dependencies: ['auth', 'access'] },
);
