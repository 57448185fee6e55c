/**
 * Calls made in the same turn of the event loop, run as one batch: the submissions an
 * append batch recorded together resolve together, so their validation jobs can leave as
 * one. The batch runs from setImmediate, after the turn's promise callbacks have queued
 * their items; nothing waits on a timer.
 */
export function tickBatcher<T>(run: (items: T[]) => Promise<void>, maxBatch: number): (item: T) => Promise<void> {
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

  return (item) =>
    new Promise<void>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ item, resolve, reject });
    });
}
