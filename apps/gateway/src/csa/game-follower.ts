/**
 * Following one game's events in seq order, as the player socket does: the hub's channel
 * first, then the log for what was published before the subscription, for gaps, and after
 * Redis comes back (a Feed). A CSA player's session and an x1 monitor follow their games so.
 */
import type { WireEvent } from '@shogi/protocol';
import { Feed } from '../domain/feed.js';
import type { GameService } from '../domain/game-service.js';
import type { Hub } from '../domain/hub.js';

export interface FollowDeps {
  readonly games: Pick<GameService, 'eventsAfter' | 'toWire'>;
  readonly hub: Hub;
}

export interface Following {
  close(): void;
}

/** Calls `send` with the game's events after `afterSeq`, in order, until closed; `failed` when it cannot go on. */
export function followGame(
  deps: FollowDeps,
  gameId: string,
  afterSeq: number,
  send: (events: readonly WireEvent[]) => void,
  failed: (err: unknown) => void,
): Following {
  const { games, hub } = deps;
  let closed = false;
  let leave: (() => void) | null = null;
  const feed = new Feed(afterSeq, { readAfter: (seq) => games.eventsAfter(gameId, seq), send, onError: failed });
  hub
    .join(
      gameId,
      (batch) => {
        const events: WireEvent[] = [];
        for (const item of batch) {
          const event = games.toWire(item);
          if (event !== null) events.push(event);
        }
        feed.push(events);
      },
      () => feed.catchUp(),
    )
    .then((off) => {
      if (closed) off();
      else leave = off;
      // what was published before the subscription
      feed.catchUp();
    })
    .catch(failed);
  return {
    close() {
      if (closed) return;
      closed = true;
      feed.close();
      leave?.();
    },
  };
}
