/**
 * Tournaments in the gateway: the command handler over the tournament streams, the routes, and
 * the director, which runs on the one gateway holding the Redis lease. Wrapped in
 * fastify-plugin for its decorator (`tournamentDirector`); the routes are a plugin of their own,
 * which keeps the form-body parser inside.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  activeTournamentIds,
  createPgTournamentEventStore,
  endedGames,
  existingGames,
  tournamentOfGame,
  tournamentsToEjectFrom,
} from '@shogi/store';
import { TournamentCommandHandler } from '@shogi/tournament';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { ApiError } from '../domain/api-error.js';
import type { Player } from '../domain/player.js';
import arrangementRoutes from './arrangement-routes.js';
import { type Director, startDirector } from './director.js';
import { redisLease } from './lease.js';
import tournamentRoutes from './routes.js';
import swissRoutes from './swiss-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** this gateway's tournament director: a tick now (tests), its lease permitting */
    tournamentDirector: Director;
    /**
     * A tournament player's berserk (lishogi's): checked against the tournament (an arena that
     * allows it, the game still played), then the game's clock halved and the tournament told.
     * The one path of both the HTTP routes and the player socket's `berserk` frame; answers the
     * seq to ack. Throws NOT_BERSERKABLE, NOT_A_PLAYER...
     */
    tournamentBerserk(gameId: string, player: Player): Promise<{ seq: number }>;
    /**
     * Takes an engine-marked player out of every tournament not finished and every one finished
     * in the last `EJECT_FINISHED_DAYS` days (a PlayerEjected event on each stream); answers how
     * many it was taken out of. Again for the same player: none (it stands in none).
     */
    tournamentEject(playerId: string, now: Date): Promise<number>;
  }
}

/** issue 47: a marked account is removed from the results of the last 14 days' tournaments */
export const EJECT_FINISHED_DAYS = 14;

/** The lease's key: one director per database (tests run many databases on one Redis). */
export const directorLeaseKey = (config: GatewayConfig): string =>
  `${config.channelPrefix}tournaments:director:${createHash('sha256').update(config.databaseUrl).digest('hex').slice(0, 16)}`;

async function tournaments(app: FastifyInstance, { config }: { config: GatewayConfig }): Promise<void> {
  const handler = new TournamentCommandHandler({ store: createPgTournamentEventStore(app.databases.lobby) });
  const lease = redisLease(app.redis, directorLeaseKey(config), randomUUID(), config.tournamentLeaseMs);
  const log = app.log.child({ component: 'tournaments' });
  const games = app.databases.games;
  let director: Director | null = null;
  const directorProxy: Director = {
    stop: async () => director?.stop(),
    tick: async () => director?.tick(),
  };
  app.decorate('tournamentDirector', directorProxy);
  app.decorate('tournamentBerserk', async (gameId: string, player: Player) => {
    const tournamentId = await tournamentOfGame(app.databases.reads, gameId);
    if (tournamentId === null) throw new ApiError('NOT_BERSERKABLE', 'not a tournament game');
    const state = await handler.current(tournamentId);
    const pairing = state.pairings.get(gameId);
    if (state.terms?.format !== 'arena' || !state.terms.berserkable)
      throw new ApiError('NOT_BERSERKABLE', 'this tournament has no berserk');
    if (pairing === undefined || pairing.result !== undefined || state.status !== 'started')
      throw new ApiError('NOT_BERSERKABLE', 'the game is over');
    const done = await app.games.berserk(gameId, player);
    // the tournament hears of it now for its pages; scoring reads the game's log anyway
    await handler.handle(tournamentId, { type: 'Berserk', gameId, playerId: player.id });
    return done;
  });
  app.decorate('tournamentEject', async (playerId: string, now: Date) => {
    const since = new Date(now.getTime() - EJECT_FINISHED_DAYS * 24 * 3600 * 1000);
    let ejected = 0;
    for (const id of await tournamentsToEjectFrom(app.databases.lobby, playerId, since)) {
      const handled = await handler.handle(id, { type: 'EjectPlayer', playerId });
      if (handled.kind === 'appended') ejected++;
    }
    return ejected;
  });
  app.addHook('onReady', async () => {
    director = startDirector({
      handler,
      tickMs: config.tournamentTickMs,
      holdLease: () => lease.hold(),
      releaseLease: () => lease.release(),
      activeIds: () => activeTournamentIds(games),
      now: () => new Date(),
      log,
      games: {
        ended: (ids) => endedGames(games, ids),
        existing: (ids) => existingGames(games, ids),
        async create(state, p) {
          const terms = state.terms;
          if (terms === null) return;
          try {
            await app.games.createGame(
              {
                sente: p.sente,
                gote: p.gote,
                timeControl: terms.clock,
                rated: terms.rated,
                ...(terms.position === null ? {} : { sfen: terms.position }),
              },
              { gameId: p.gameId, noTakebacks: true, tournamentId: state.tournamentId },
            );
          } catch (err) {
            // made already (a director before this one got that far): the game stands
            if (err instanceof ApiError && err.code === 'CONFLICT') return;
            throw err;
          }
        },
      },
    });
  });
  app.addHook('preClose', async () => {
    await director?.stop();
  });
  const nudge = () => {
    void directorProxy.tick().catch(() => undefined);
  };
  await app.register(tournamentRoutes, { handler, nudge });
  await app.register(swissRoutes, { handler, nudge });
  await app.register(arrangementRoutes, { handler, nudge });
}

export default fp(tournaments, { name: 'tournaments' });
