/**
 * Every PostgreSQL pool of the gateway, opened here and closed here. They are apart so that
 * one kind of work cannot hold the connections another waits for:
 * - `games`: the event store and the players (appends, reads of the log);
 * - `lobby`: pairing holds one of its connections for a transaction while the game is created
 *   on the games pool, so the two must not share;
 * - `auth`: token lookups, never behind a burst of appends or pairings;
 * - `live`: the live games list, read on a timer;
 * - `reads`: the read-only routes over the projections and the log (statistics, records,
 *   profiles), whose aggregates must not queue behind appends, with PostgreSQL's analytic
 *   settings (see @shogi/store createDb);
 * - `imports`: record imports (POST /api/import), each a transaction that replays and writes
 *   whole games: two at a time per gateway, and never in the way of moves.
 * A pool opens its connections on its first query, so a pool nothing uses costs nothing.
 */
import { createDb, type Db } from '@shogi/store';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';

export type PoolName = 'games' | 'lobby' | 'auth' | 'live' | 'reads' | 'imports';

export type Databases = Readonly<Record<PoolName, Db>>;

declare module 'fastify' {
  interface FastifyInstance {
    databases: Databases;
  }
}

interface PoolSpec {
  readonly max: number;
  readonly applicationName: string;
  readonly analytic?: boolean;
}

export function poolSpecs(config: GatewayConfig): Readonly<Record<PoolName, PoolSpec>> {
  return {
    games: { max: config.dbPoolSize, applicationName: 'shogi-gateway' },
    lobby: { max: Math.max(2, Math.ceil(config.dbPoolSize / 2)), applicationName: 'shogi-lobby' },
    auth: { max: 4, applicationName: 'shogi-gateway-auth' },
    live: { max: 2, applicationName: 'shogi-gateway-live' },
    reads: { max: 4, applicationName: 'shogi-gateway-reads', analytic: true },
    imports: { max: 2, applicationName: 'shogi-gateway-imports' },
  };
}

export function openPool(config: GatewayConfig, name: PoolName): Db {
  return createDb(config.databaseUrl, poolSpecs(config)[name]);
}

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const names = Object.keys(poolSpecs(config)) as PoolName[];
    const databases = Object.fromEntries(names.map((name) => [name, openPool(config, name)])) as Databases;
    app.decorate('databases', databases);
    app.addHook('onClose', async () => {
      await Promise.all(Object.values(databases).map((db) => db.destroy()));
    });
  },
  { name: 'databases' },
);
