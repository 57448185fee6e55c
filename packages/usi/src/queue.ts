/** A waiting line with priorities: higher priority first, first come first served within one. */
export class PriorityQueue<T> {
  private readonly items: Array<{ readonly priority: number; readonly value: T }> = [];

  get length(): number {
    return this.items.length;
  }

  push(value: T, priority: number): void {
    // queues here are short (bounded by the pool), so a linear insert is enough
    let i = this.items.length;
    while (i > 0 && (this.items[i - 1] as { priority: number }).priority < priority) i--;
    this.items.splice(i, 0, { priority, value });
  }

  shift(): T | undefined {
    return this.items.shift()?.value;
  }

  /** The waiting items' priorities, in the order they will be served. */
  priorities(): number[] {
    return this.items.map((item) => item.priority);
  }

  /** Takes `value` out of the line; false when it was not in it. */
  remove(value: T): boolean {
    const i = this.items.findIndex((item) => item.value === value);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }

  /** Empties the line, returning what was in it in order. */
  drain(): T[] {
    return this.items.splice(0).map((item) => item.value);
  }
}
