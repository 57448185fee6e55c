/** @shogi/store for the game service: the event store and the players repository over the games pool. */
import type { EventStore } from '@shogi/game';
import { createPgEventStore, createPlayer, type Db, findPlayerByTokenHash, getPlayer } from '@shogi/store';
import type { PlayerStore } from '../domain/game-service.js';

export interface GameStore {
  readonly db: Db;
  readonly events: EventStore;
  readonly players: PlayerStore;
}

/**
 * The store over a pool its caller owns (`app.databases.games`). `events`: an event store to
 * share (a worker's in the same process), else one over `db`.
 */
export function storeOver(db: Db, events?: EventStore): GameStore {
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
  return { db, events: events ?? createPgEventStore(db), players };
}
