/**
 * Calls made in the same turns of the event loop, run as one batch: the submissions an
 * append batch recorded together resolve together, so their validation jobs can leave as
 * one. The batch runs from setImmediate, after the turn's promise callbacks have queued
 * their items; nothing waits on a timer.
 *
 * `turns` (default 1) gathers over that many turns: the batch runs from the `turns`-th
 * setImmediate after its first call. An idle loop goes through its turns at once, so this
 * costs an idle server nothing; a busy one gathers what its longer turns brought.
 */
export function tickBatcher<T>(
  run: (items: T[]) => Promise<void>,
  maxBatch: number,
  turns = 1,
): (item: T) => Promise<void> {
  if (!Number.isInteger(turns) || turns < 1) throw new Error(`turns must be a positive integer, got ${turns}`);
  let waiting: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];

  const flush = () => {
    const all = waiting;
    waiting = [];
    for (let i = 0; i < all.length; i += maxBatch) {
      const chunk = all.slice(i, i + maxBatch);
      run(chunk.map((w) => w.item)).then(
        () => {
          for (const w of chunk) w.resolve();
        },
        (err: unknown) => {
          for (const w of chunk) w.reject(err);
        },
      );
    }
  };
  const after = (left: number) => () => (left <= 1 ? flush() : setImmediate(after(left - 1)));

  return (item) =>
    new Promise<void>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(after(turns));
      waiting.push({ item, resolve, reject });
    });
}

/**
 * The turns a gateway gathers its recorded moves over before they leave as one job per
 * validate queue: one on a single queue (each turn's moves, one job), two per queue when the
 * moves are split. A split makes each queue's job out of a share of the moves; more turns
 * give each share as many moves again, and a cluster's turns are shorter than one Redis's
 * (each master's replies and deliveries wake the loop apart), hence two per queue.
 */
export function gatherTurns(queues: number): number {
  if (!Number.isInteger(queues) || queues < 1) throw new Error(`the validate queues must be at least 1, got ${queues}`);
  return queues === 1 ? 1 : 2 * queues;
}
