/**
 * Which evaluations are to stop. A stop may come before its job starts (the job still waited
 * in Redis, or was being fetched while the gateway removed it): it is remembered a while, so
 * that the job, when it comes, stops at once.
 */
const REMEMBERED_MS = 5 * 60_000;
const MAX_REMEMBERED = 10_000;

export class PositionStops {
  private readonly running = new Map<string, AbortController>();
  private readonly early = new Map<string, number>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** The evaluation's signal, already fired when its stop came first. */
  begin(id: string): AbortSignal {
    const controller = new AbortController();
    if (this.early.delete(id)) controller.abort();
    else this.running.set(id, controller);
    return controller.signal;
  }

  end(id: string): void {
    this.running.delete(id);
  }

  stop(id: string): void {
    const controller = this.running.get(id);
    if (controller !== undefined) {
      controller.abort();
      return;
    }
    const now = this.now();
    this.early.set(id, now);
    for (const [old, at] of this.early) {
      if (now - at < REMEMBERED_MS && this.early.size <= MAX_REMEMBERED) break;
      this.early.delete(old);
    }
  }

  /** Stops every running evaluation (the engine role is stopping). */
  stopAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }
}
