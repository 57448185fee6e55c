/**
 * Fan-out of games to spectators. Per watched game, one room: one hub listener, one
 * ordered Feed (feed.ts: gaps and repeats on pub/sub repaired from PostgreSQL), one
 * snapshot kept current, and the set of its members (watch sockets, NDJSON streams).
 * Each batch of events is serialized once per wire format and the same bytes are written
 * to every member. A member that resumes from an older seq reads the missing events from
 * PostgreSQL first while the room's live batches queue for it, then drains the queue:
 * no gap, no duplicate.
 */
import type { GameView, WireEvent } from '@shogi/protocol';
import { Feed } from './feed.js';
import { applyEvent, clockNow, type SnapshotState, snapshotOfView } from './game-snapshot.js';
import type { Hub } from './hub.js';

/** Events in seq order with no gap; their wire forms are built on first use and shared. */
export class Batch {
  readonly events: readonly WireEvent[];
  private frame: Buffer | null = null;
  private lines: Buffer | null = null;

  constructor(events: readonly WireEvent[]) {
    this.events = events;
  }

  get first(): number {
    return (this.events[0] as WireEvent).seq;
  }

  get last(): number {
    return (this.events[this.events.length - 1] as WireEvent).seq;
  }

  /** The watch-socket frame, UTF-8 encoded once so ws does not re-encode per socket. */
  wsFrame(): Buffer {
    this.frame ??= Buffer.from(JSON.stringify({ type: 'events', events: this.events }));
    return this.frame;
  }

  /** NDJSON: one event per line. */
  ndjson(): Buffer {
    this.lines ??= Buffer.from(this.events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    return this.lines;
  }

  after(seq: number): Batch {
    return new Batch(this.events.filter((e) => e.seq > seq));
  }
}

/** A watcher of one game: receives batches that continue exactly from its seq. */
export interface Member {
  write(batch: Batch): void;
  /** the spectator count of the game changed (frames are built once by the room) */
  count?(frame: Buffer, count: number): void;
}

export interface SpectatorDeps {
  readonly hub: Hub;
  view(gameId: string): Promise<GameView>;
  eventsAfter(gameId: string, afterSeq: number, limit?: number): Promise<WireEvent[]>;
  toWire(published: unknown): WireEvent | null;
  readonly log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** sees every ordered batch of every watched game (the live feed) */
  onBatch?(gameId: string, batch: Batch, snapshot: SnapshotState): void;
  /** watchers of the game on the other gateways (spectator-counts.ts) */
  remoteCount?(gameId: string): number;
}

/** One member's place in the game: delivers in order, catching up from PostgreSQL when behind. */
class Cursor {
  seq: number;
  catching = false;
  readonly queue: Batch[] = [];
  readonly member: Member;

  constructor(seq: number, member: Member) {
    this.seq = seq;
    this.member = member;
  }

  /** Returns false when the batch leaves a gap (the caller catches the cursor up). */
  offer(batch: Batch): boolean {
    if (this.catching) {
      this.queue.push(batch);
      return true;
    }
    if (batch.last <= this.seq) return true;
    if (batch.first > this.seq + 1) return false;
    this.member.write(batch.first === this.seq + 1 ? batch : batch.after(this.seq));
    this.seq = batch.last;
    return true;
  }
}

export class Room {
  readonly gameId: string;
  readonly snapshot: SnapshotState;
  readonly cursors = new Map<Member, Cursor>();
  /** the members that are the game's own players: they follow it, they are not its spectators */
  readonly players = new Set<Member>();
  readonly feed: Feed;
  leaveHub: () => void = () => {};
  closed = false;
  /** the spectator count last sent to the members */
  sentCount = -1;
  /** when the last batch went out (ms since epoch): idle rooms re-read their tail now and then */
  lastBatchAt = Date.now();
  private snapshotJson: string | null = null;

  constructor(gameId: string, view: GameView, feed: (room: Room) => Feed) {
    this.gameId = gameId;
    this.snapshot = snapshotOfView(view);
    this.feed = feed(this);
  }

  get seq(): number {
    return this.snapshot.seq;
  }

  /** The snapshot frame: the game is serialized once per change, the clocks at read time and the count spliced in. */
  snapshotFrame(count = this.cursors.size): string {
    this.snapshotJson ??= JSON.stringify({ ...this.snapshot, clock: undefined }).slice(0, -1);
    const clock = JSON.stringify(clockNow(this.snapshot));
    return `{"type":"snapshot","game":${this.snapshotJson},"clock":${clock},"spectators":${count}}}`;
  }

  /** Folds an ordered batch into the snapshot and hands it to every member. */
  apply(events: readonly WireEvent[], onGap: (cursor: Cursor) => void): Batch {
    for (const e of events) applyEvent(this.snapshot, e);
    this.snapshotJson = null;
    this.lastBatchAt = Date.now();
    const batch = new Batch(events);
    for (const cursor of this.cursors.values()) if (!cursor.offer(batch)) onGap(cursor);
    return batch;
  }
}

export interface JoinOptions {
  /** resume after this seq (events from PostgreSQL first); absent: start at the snapshot */
  readonly since?: number;
  /**
   * The player the socket authenticated as, if any: one of the game's own players follows
   * it without being counted among its spectators (lishogi counts only the others).
   */
  readonly viewer?: string;
}

export interface Spectators {
  /**
   * Adds a member to the game's room (opening it: hub subscription, then the snapshot).
   * `first(room, count)` runs before any batch reaches the member, so it can send the
   * snapshot (`count`: the spectators on every gateway). Throws GAME_NOT_FOUND.
   */
  join(gameId: string, member: Member, options: JoinOptions, first: (room: Room, count: number) => void): Promise<Room>;
  leave(gameId: string, member: Member): void;
  /** spectators of the game on every gateway (this one's exactly, the others' as last heard) */
  count(gameId: string): number;
  /** spectators of the game on this gateway */
  localCount(gameId: string): number;
  /**
   * Rooms of ongoing games idle for `idleMs` read the tail of their stream from PostgreSQL:
   * with 0 (after Redis came back) all do, since messages published meanwhile are lost and
   * a game that ended then would never publish the event that reveals the gap.
   */
  resync(idleMs: number): void;
  /** Sends spectator counts that changed since last sent (call on a timer). */
  flushCounts(): void;
  readonly rooms: ReadonlyMap<string, Room>;
  close(): void;
}

export function createSpectators(deps: SpectatorDeps): Spectators {
  const rooms = new Map<string, Room>();
  const opening = new Map<string, Promise<Room>>();
  const localCount = (gameId: string) => {
    const room = rooms.get(gameId);
    return room ? room.cursors.size - room.players.size : 0;
  };
  const count = (gameId: string) => localCount(gameId) + (deps.remoteCount?.(gameId) ?? 0);

  const catchUp = (room: Room, cursor: Cursor) => {
    if (cursor.catching) return;
    cursor.catching = true;
    const step = async (): Promise<void> => {
      for (;;) {
        const events = await deps.eventsAfter(room.gameId, cursor.seq, 1000);
        const fresh = events.filter((e) => e.seq > cursor.seq);
        if (fresh.length > 0 && room.cursors.get(cursor.member) === cursor) {
          cursor.member.write(new Batch(fresh));
          cursor.seq = (fresh[fresh.length - 1] as WireEvent).seq;
        }
        if (events.length < 1000) break;
      }
      cursor.catching = false;
      for (const batch of cursor.queue.splice(0)) {
        if (!cursor.offer(batch)) return catchUp(room, cursor);
      }
    };
    step().catch((err: unknown) => {
      cursor.catching = false;
      deps.log.warn({ err, gameId: room.gameId }, 'spectators: catch-up read failed');
      setTimeout(() => room.cursors.get(cursor.member) === cursor && catchUp(room, cursor), 1000).unref();
    });
  };

  async function open(gameId: string): Promise<Room> {
    let room: Room | null = null;
    const early: WireEvent[][] = [];
    const listener = (published: readonly unknown[]) => {
      const events: WireEvent[] = [];
      for (const p of published) {
        const w = deps.toWire(p);
        if (w) events.push(w);
      }
      if (room) room.feed.push(events);
      else early.push(events);
    };
    // subscribed before the snapshot is read: nothing falls between the two
    const off = await deps.hub.join(gameId, listener);
    let view: GameView;
    try {
      view = await deps.view(gameId);
    } catch (err) {
      off();
      throw err;
    }
    const opened = new Room(
      gameId,
      view,
      (r) =>
        new Feed(view.lastSeq, {
          readAfter: (seq) => deps.eventsAfter(gameId, seq, 1000),
          send: (events) => {
            const batch = r.apply(events, (cursor) => catchUp(r, cursor));
            deps.onBatch?.(gameId, batch, r.snapshot);
          },
          onError: (err) => deps.log.warn({ err, gameId }, 'spectators: feed catch-up failed'),
        }),
    );
    opened.leaveHub = off;
    room = opened;
    for (const events of early) opened.feed.push(events);
    return opened;
  }

  async function roomOf(gameId: string): Promise<Room> {
    for (;;) {
      const ready = rooms.get(gameId);
      if (ready && !ready.closed) return ready;
      let pending = opening.get(gameId);
      if (!pending) {
        // listed in the same step that ends the opening: a join in between would open a
        // second room, whose members no leave could find
        pending = open(gameId).then(
          (room) => {
            opening.delete(gameId);
            rooms.set(gameId, room);
            return room;
          },
          (err: unknown) => {
            opening.delete(gameId);
            throw err;
          },
        );
        opening.set(gameId, pending);
      }
      const room = await pending;
      if (!room.closed) return room;
    }
  }

  /** The room each member is in: a leave finds it even if the game has a newer room. */
  const memberRooms = new Map<Member, Room>();

  const closeRoom = (room: Room) => {
    room.closed = true;
    room.feed.close();
    room.leaveHub();
    if (rooms.get(room.gameId) === room) rooms.delete(room.gameId);
  };

  return {
    rooms,
    async join(gameId, member, options, first) {
      let room = await roomOf(gameId);
      // the last member may have left (closing the room) while this join awaited it
      while (room.closed) room = await roomOf(gameId);
      memberRooms.set(member, room);
      const since = options.since;
      const cursor = new Cursor(since ?? room.seq, member);
      room.cursors.set(member, cursor);
      const { sente, gote } = room.snapshot.players;
      if (options.viewer !== undefined && (options.viewer === sente.id || options.viewer === gote.id))
        room.players.add(member);
      // synchronous with the line above: no batch reaches the member before its first frame
      first(room, count(gameId));
      if (since !== undefined && since < room.seq) catchUp(room, cursor);
      return room;
    },
    leave(_gameId, member) {
      const room = memberRooms.get(member);
      memberRooms.delete(member);
      room?.players.delete(member);
      if (!room?.cursors.delete(member)) return;
      if (room.cursors.size === 0) closeRoom(room);
    },
    count,
    localCount,
    resync(idleMs) {
      const before = Date.now() - idleMs;
      for (const room of rooms.values()) {
        if (idleMs > 0 && (room.snapshot.status === 'ended' || room.lastBatchAt > before)) continue;
        room.feed.catchUp();
      }
    },
    flushCounts() {
      for (const room of rooms.values()) {
        const n = count(room.gameId);
        if (n === room.sentCount) continue;
        room.sentCount = n;
        const frame = Buffer.from(`{"type":"spectators","count":${n}}`);
        for (const member of room.cursors.keys()) member.count?.(frame, n);
      }
    },
    close() {
      for (const room of [...rooms.values()]) closeRoom(room);
      memberRooms.clear();
    },
  };
}
