/**
 * The tournament pages' live channel, as lishogi's tournament socket: whoever appends to a
 * tournament's stream (a join on any gateway, the director's wave or score) announces it on the
 * Redis channel `tournament:<id>`; every gateway with a socket on that tournament is subscribed
 * to it and, once a burst of announcements has settled, reads each standings page its sockets
 * follow ONCE and sends the same frame to all of them. One read per page per gateway per burst,
 * whatever the number of sockets; none for a tournament nobody watches here.
 */

/** A socket on a tournament page: the standings page it follows, and how to send it a frame. */
export interface TournamentWatcher {
  page: number;
  /** the frame as UTF-8 JSON text, encoded once for every socket it goes to */
  send(frame: Buffer): void;
}

export interface TournamentFeedDeps {
  /** Subscribes to the tournament's channel (resolves once subscribed); `resync` after a lost connection. */
  join(tournamentId: string, listener: (messages: readonly unknown[]) => void, resync: () => void): Promise<() => void>;
  /** The tournament with a page of its standings (`GET /api/tournament/:id?page=`'s body). */
  read(tournamentId: string, page: number): Promise<unknown>;
  /** Publishes `message` on the tournament's channel. */
  announce(tournamentId: string, message: string): Promise<void>;
  onError(err: unknown): void;
  /** announcements this close together make one push */
  readonly settleMs?: number;
}

export interface TournamentFeed {
  /** Adds a socket: sent its page now, then after every change; the returned function removes it. */
  add(tournamentId: string, watcher: TournamentWatcher): Promise<() => void>;
  /** The socket follows another page: sent it now. */
  follow(tournamentId: string, watcher: TournamentWatcher, page: number): void;
  /** Tells every gateway (this one too, through Redis) that the tournament changed. */
  changed(tournamentId: string, version: number): void;
  /** tournaments with at least one socket here */
  readonly size: number;
}

interface Watched {
  readonly watchers: Set<TournamentWatcher>;
  /** settles once the channel is subscribed */
  joined: Promise<void>;
  leave: (() => void) | null;
  timer: ReturnType<typeof setTimeout> | null;
  reading: boolean;
  again: boolean;
  /** the highest stream version announced: a client tells pushes apart by it */
  version: number;
  /** the first page sent to sockets just opened, one read a page while it is in flight */
  readonly opening: Map<number, Promise<Buffer>>;
}

/** The frame a socket gets: `{type: 'tournament', version, tournament}` (the page body). */
export const tournamentFrame = (version: number, tournament: unknown): Buffer =>
  Buffer.from(JSON.stringify({ type: 'tournament', version, tournament }));

export function createTournamentFeed(deps: TournamentFeedDeps): TournamentFeed {
  const watched = new Map<string, Watched>();
  const settleMs = deps.settleMs ?? 20;

  // stamped with the version known when the read began: the page holds at least that
  const readFrame = async (id: string, w: Watched, page: number) => {
    const version = w.version;
    return tournamentFrame(version, await deps.read(id, page));
  };

  /**
   * A page for sockets just opened (or turning the page): a crowd opening at once shares one
   * read. A push never shares a read begun before its change: it reads afresh (`sendPage`).
   */
  const openingFrame = (id: string, w: Watched, page: number): Promise<Buffer> => {
    let pending = w.opening.get(page);
    if (pending === undefined) {
      pending = readFrame(id, w, page).finally(() => w.opening.delete(page));
      w.opening.set(page, pending);
    }
    return pending;
  };

  const send = (frame: Buffer, page: number, to: Iterable<TournamentWatcher>) => {
    for (const watcher of to)
      if (watcher.page === page)
        try {
          watcher.send(frame);
        } catch (err) {
          deps.onError(err);
        }
  };

  const sendPage = async (id: string, w: Watched, page: number, to: Iterable<TournamentWatcher>) =>
    send(await readFrame(id, w, page), page, to);

  const push = async (id: string) => {
    const w = watched.get(id);
    if (w === undefined) return;
    w.timer = null;
    if (w.reading) {
      // a change during a read: read again once it is done, so the last page sent is current
      w.again = true;
      return;
    }
    w.reading = true;
    try {
      const pages = new Set([...w.watchers].map((x) => x.page));
      await Promise.all([...pages].map((page) => sendPage(id, w, page, [...w.watchers])));
    } catch (err) {
      deps.onError(err);
    } finally {
      w.reading = false;
      if (w.again) {
        w.again = false;
        schedule(id);
      }
    }
  };

  const schedule = (id: string) => {
    const w = watched.get(id);
    if (w === undefined || w.watchers.size === 0 || w.timer !== null) return;
    w.timer = setTimeout(() => void push(id), settleMs);
  };

  const heard = (id: string, messages: readonly unknown[]) => {
    const w = watched.get(id);
    if (w === undefined) return;
    for (const m of messages) {
      const version = (m as { version?: unknown } | null)?.version;
      if (typeof version === 'number' && version > w.version) w.version = version;
    }
    schedule(id);
  };

  const remove = (id: string, watcher: TournamentWatcher) => {
    const w = watched.get(id);
    if (w === undefined || !w.watchers.delete(watcher) || w.watchers.size > 0) return;
    watched.delete(id);
    if (w.timer !== null) clearTimeout(w.timer);
    w.leave?.();
  };

  return {
    async add(id, watcher) {
      let w = watched.get(id);
      if (w === undefined) {
        const fresh: Watched = {
          watchers: new Set(),
          joined: Promise.resolve(),
          leave: null,
          timer: null,
          reading: false,
          again: false,
          version: 0,
          opening: new Map(),
        };
        fresh.joined = deps
          .join(
            id,
            (messages) => heard(id, messages),
            () => schedule(id),
          )
          .then((leave) => {
            // every socket may have gone while subscribing
            if (watched.get(id) === fresh) fresh.leave = leave;
            else leave();
          });
        watched.set(id, fresh);
        w = fresh;
      }
      w.watchers.add(watcher);
      try {
        await w.joined;
        // subscribed before the first read: no change falls between the two
        send(await openingFrame(id, w, watcher.page), watcher.page, [watcher]);
      } catch (err) {
        remove(id, watcher);
        throw err;
      }
      return () => remove(id, watcher);
    },
    follow(id, watcher, page) {
      const w = watched.get(id);
      watcher.page = page;
      if (w === undefined) return;
      openingFrame(id, w, page).then((frame) => send(frame, page, [watcher]), deps.onError);
    },
    changed(id, version) {
      deps.announce(id, JSON.stringify({ version })).catch(deps.onError);
    },
    get size() {
      return watched.size;
    },
  };
}
