/**
 * The live seek list of the lobby sockets: a change to the seeks anywhere (a seek posted,
 * paired, cancelled, withdrawn by a game starting) is announced to every gateway on one Redis
 * channel, and each gateway then reads the open seeks once and sends them to all its lobby
 * sockets. One read per gateway per burst of changes, whatever the number of sockets; none
 * while a gateway has no lobby socket.
 */
import type { SeekView } from '@shogi/protocol';

export type SeekListener = (seeks: readonly SeekView[]) => void;

export interface SeekFeed {
  /** A lobby socket: sent the open seeks now, then after every change; the returned function removes it. */
  add(listener: SeekListener): () => void;
  /** Tells every gateway (this one included) that the seeks changed. */
  changed(): void;
  /** A change was announced: read the seeks and send them to this gateway's sockets. */
  refresh(): void;
  readonly size: number;
}

export interface SeekFeedDeps {
  readonly list: () => Promise<SeekView[]>;
  /** publishes the change on the lobby's seek channel */
  readonly announce: () => Promise<void>;
  readonly onError: (err: unknown) => void;
  /** changes this close together are read once */
  readonly settleMs?: number;
}

export function createSeekFeed(deps: SeekFeedDeps): SeekFeed {
  // each listener, and whether a list read after it came has been sent to it (then the
  // first read, which may finish later, is stale and dropped)
  const listeners = new Map<SeekListener, boolean>();
  const settleMs = deps.settleMs ?? 50;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let reading = false;
  let again = false;

  const send = (seeks: readonly SeekView[], to: Iterable<SeekListener>) => {
    for (const listener of to) {
      listeners.set(listener, true);
      try {
        listener(seeks);
      } catch (err) {
        deps.onError(err);
      }
    }
  };

  const read = async () => {
    timer = null;
    if (reading) {
      // a change during a read: read again once it is done, so the last list sent is current
      again = true;
      return;
    }
    reading = true;
    try {
      if (listeners.size > 0) send(await deps.list(), [...listeners.keys()]);
    } catch (err) {
      deps.onError(err);
    } finally {
      reading = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  };

  const refresh = () => {
    if (listeners.size === 0 || timer !== null) return;
    timer = setTimeout(() => void read(), settleMs);
  };

  return {
    add(listener) {
      listeners.set(listener, false);
      deps.list().then(
        (seeks) => {
          if (listeners.get(listener) === false) send(seeks, [listener]);
        },
        (err: unknown) => deps.onError(err),
      );
      return () => {
        listeners.delete(listener);
      };
    },
    changed() {
      deps.announce().catch(deps.onError);
    },
    refresh,
    get size() {
      return listeners.size;
    },
  };
}
