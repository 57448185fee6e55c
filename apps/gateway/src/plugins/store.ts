/** Opens @shogi/store for the gateway: the event store and the players repository. */
import type { EventStore } from '@shogi/game';
import type { GatewayConfig } from '../config.js';
import type { PlayerStore } from '../domain/game-service.js';

export interface OpenStore {
  readonly events: EventStore;
  readonly players: PlayerStore;
  close(): Promise<void>;
}

export async function openStore(_config: GatewayConfig): Promise<OpenStore> {
  throw new Error('store not wired yet');
}
