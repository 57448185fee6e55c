/** Opens @shogi/store for the gateway: the pool, the event store and the players repository. */
import type { EventStore } from '@shogi/game';
import { createDb, createPgEventStore, createPlayer, type Db, findPlayerByTokenHash, getPlayer } from '@shogi/store';
import type { GatewayConfig } from '../config.js';
import type { PlayerStore } from '../domain/game-service.js';

export interface OpenStore {
  readonly db: Db;
  readonly events: EventStore;
  readonly players: PlayerStore;
  close(): Promise<void>;
}

/** `events`: an event store to share (a worker's in the same process), else one of its own. */
export function openStore(config: GatewayConfig, events?: EventStore): OpenStore {
  const db = createDb(config.databaseUrl, { max: config.dbPoolSize, applicationName: 'shogi-gateway' });
  const players: PlayerStore = {
    insert: async (p) => {
      await createPlayer(db, p);
    },
    byTokenHash: async (hash) => {
      const row = await findPlayerByTokenHash(db, hash);
      return row ? { id: row.id, name: row.name } : null;
    },
    byId: async (id) => {
      const row = await getPlayer(db, id);
      return row ? { id: row.id, name: row.name } : null;
    },
  };
  return { db, events: events ?? createPgEventStore(db), players, close: () => db.destroy() };
}
