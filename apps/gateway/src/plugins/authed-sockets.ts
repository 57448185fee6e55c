/**
 * The gateway's authenticated sockets (player and lobby): at most SOCKET_MAX_PER_IP per client
 * IP and SOCKET_MAX_PER_PLAYER per player, and each closed with 4001 UNAUTHORIZED as soon as
 * its token is revoked (here or, through the Redis notice, on another gateway) or expires.
 */
import { CLOSE_CODES } from '@shogi/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import type { GatewayConfig } from '../config.js';
import { ApiError } from '../domain/api-error.js';
import { AuthedSockets } from '../domain/authed-sockets.js';
import { principalOf } from './access.js';

declare module 'fastify' {
  interface FastifyInstance {
    authedSockets: {
      /** Before the upgrade: 429 TOO_MANY_CONNECTIONS when the caller's IP or player is at its limit. */
      check(request: FastifyRequest): void;
      /**
       * After the upgrade: counts the socket and closes it when its token goes; false (the
       * socket closed) when a limit was reached meanwhile.
       */
      open(request: FastifyRequest, socket: WebSocket): boolean;
    };
  }
}

/** setTimeout's longest delay; a later expiry is checked again when it fires */
const MAX_TIMER_MS = 2 ** 31 - 1;

export default fp<{ config: GatewayConfig }>(
  async (app: FastifyInstance, { config }) => {
    const sockets = new AuthedSockets<WebSocket>({
      perIp: config.socketMaxPerIp,
      perPlayer: config.socketMaxPerPlayer,
    });
    const timers = new Map<WebSocket, NodeJS.Timeout>();
    const refusedText = { ip: 'from this address', player: 'for this player' } as const;

    const close = (socket: WebSocket) => {
      clearTimeout(timers.get(socket));
      timers.delete(socket);
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
        socket.close(CLOSE_CODES.UNAUTHORIZED, 'UNAUTHORIZED');
    };
    const revoke = (tokenHash: string) => {
      for (const socket of sockets.revoke(tokenHash)) close(socket);
    };
    const offRevoked = app.auth.onRevoked(revoke);
    // after notices may have been lost, every open socket's token is looked up again
    const offForgetAll = app.auth.onForgetAll(() => {
      for (const tokenHash of sockets.tokenHashes())
        app.auth.byHash(tokenHash).then(
          (principal) => principal === null && revoke(tokenHash),
          (err: unknown) => app.log.warn({ err }, 'sockets: token check failed'),
        );
    });

    const watchExpiry = (socket: WebSocket, tokenHash: string, expiresAt: Date | null) => {
      if (expiresAt === null) return;
      const delay = Math.max(0, expiresAt.getTime() - Date.now());
      const timer = setTimeout(
        async () => {
          if (delay < MAX_TIMER_MS || (await app.auth.byHash(tokenHash)) === null) {
            sockets.delete(socket);
            close(socket);
          } else watchExpiry(socket, tokenHash, expiresAt);
        },
        Math.min(delay, MAX_TIMER_MS),
      );
      timer.unref();
      timers.set(socket, timer);
    };

    app.decorate('authedSockets', {
      check(request: FastifyRequest) {
        const { id } = principalOf(request);
        const refused = sockets.refusal({ ip: request.ip, playerId: id, exempt: app.runsBot(id) });
        if (refused !== null)
          throw new ApiError('TOO_MANY_CONNECTIONS', `too many open sockets ${refusedText[refused]}`);
      },
      open(request: FastifyRequest, socket: WebSocket) {
        const principal = principalOf(request);
        const refused = sockets.add(socket, {
          ip: request.ip,
          playerId: principal.id,
          tokenHash: principal.tokenHash,
          exempt: app.runsBot(principal.id),
        });
        if (refused !== null) {
          socket.close(CLOSE_CODES.TRY_AGAIN_LATER, 'TOO_MANY_CONNECTIONS');
          return false;
        }
        socket.on('close', () => {
          clearTimeout(timers.get(socket));
          timers.delete(socket);
          sockets.delete(socket);
        });
        watchExpiry(socket, principal.tokenHash, principal.token.expiresAt);
        return true;
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
