/**
 * The pool of the read-only routes over the projections and the log (statistics, records,
 * profiles): apart from the games pool, so their aggregates never queue behind move appends,
 * with PostgreSQL's analytic settings (see @shogi/store createDb).
 */
import { createDb, type Db } from '@shogi/store';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    readDb: Db;
  }
}

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const db = createDb(config.databaseUrl, { max: 4, applicationName: 'shogi-gateway-reads', analytic: true });
    app.decorate('readDb', db);
    app.addHook('onClose', async () => db.destroy());
  },
  { name: 'read-db' },
);
