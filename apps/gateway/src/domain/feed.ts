/**
 * One subscriber's ordered view of a game's stream: events go out in seq order with no
 * gaps and no repeats. Pub/sub messages that arrive out of order, twice, or not at all
 * are repaired from PostgreSQL (a reconnecting client resumes the same way).
 */
import type { WireEvent } from '@shogi/protocol';

export interface FeedDeps {
  readAfter(afterSeq: number): Promise<WireEvent[]>;
  send(events: readonly WireEvent[]): void;
  onError(err: unknown): void;
}

export class Feed {
  private lastSeq: number;
  private catching = false;
  /** a catch-up was asked for while one was reading: its read may predate what was asked for */
  private again = false;
  private readonly pending: WireEvent[] = [];
  private readonly deps: FeedDeps;
  private closed = false;

  constructor(afterSeq: number, deps: FeedDeps) {
    this.lastSeq = afterSeq;
    this.deps = deps;
  }

  get seq(): number {
    return this.lastSeq;
  }

  close(): void {
    this.closed = true;
  }

  /** Events published on the hub. */
  push(events: readonly WireEvent[]): void {
    if (this.closed) return;
    if (this.catching) {
      this.pending.push(...events);
      return;
    }
    // the usual batch (the next events, in order) goes out as it came: the sockets that got
    // the same batch then share its frame
    if (events[0]?.seq === this.lastSeq + 1 && contiguous(events)) {
      this.emit(events);
      return;
    }
    const fresh = events.filter((e) => e.seq > this.lastSeq).sort((a, b) => a.seq - b.seq);
    const first = fresh[0];
    if (first === undefined) return;
    if (first.seq !== this.lastSeq + 1 || !contiguous(fresh)) {
      this.catchUp();
      return;
    }
    this.emit(fresh);
  }

  /**
   * Reads everything after the last seq sent from PostgreSQL, then drains what arrived
   * meanwhile. Asked for again while reading (Redis came back: what was published while it
   * was away is only in PostgreSQL, and the read under way may have started before it was
   * appended), it reads once more when this read is done.
   */
  catchUp(): void {
    if (this.closed) return;
    if (this.catching) {
      this.again = true;
      return;
    }
    this.catching = true;
    this.again = false;
    this.deps
      .readAfter(this.lastSeq)
      .then((events) => {
        if (this.closed) return;
        const fresh = events.filter((e) => e.seq > this.lastSeq);
        if (fresh.length > 0) this.emit(fresh);
        this.catching = false;
        if (this.again) {
          this.catchUp();
          return;
        }
        const queued = this.pending.splice(0);
        if (queued.length > 0) this.push(queued);
      })
      .catch((err: unknown) => {
        this.catching = false;
        this.deps.onError(err);
      });
  }

  private emit(events: readonly WireEvent[]): void {
    this.lastSeq = (events[events.length - 1] as WireEvent).seq;
    this.deps.send(events);
  }
}

function contiguous(events: readonly WireEvent[]): boolean {
  for (let i = 1; i < events.length; i++) {
    if ((events[i] as WireEvent).seq !== (events[i - 1] as WireEvent).seq + 1) return false;
  }
  return true;
}
