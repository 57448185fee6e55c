/**
 * Natural batching ("group commit" in the application): a request runs at once while
 * fewer than `maxInFlight` batches are running; otherwise it waits and joins the next
 * batch, sent when one finishes. No timers: an idle system adds no latency, a busy one
 * sends fewer, larger statements (one round trip and one commit for many games).
 */
export interface BatcherOptions<Req> {
  readonly maxBatch?: number;
  readonly maxInFlight?: number;
  /** Requests with the same key never share a batch (e.g. two appends to one game). */
  readonly key?: (req: Req) => string;
}

interface Waiting<Req, Res> {
  readonly req: Req;
  readonly resolve: (res: Res) => void;
  readonly reject: (err: unknown) => void;
}

export function createBatcher<Req, Res>(
  run: (batch: Req[]) => Promise<Res[]>,
  options: BatcherOptions<Req> = {},
): (req: Req) => Promise<Res> {
  const maxBatch = options.maxBatch ?? 64;
  const maxInFlight = options.maxInFlight ?? 1;
  const key = options.key;
  let queue: Waiting<Req, Res>[] = [];
  let inFlight = 0;

  function take(): Waiting<Req, Res>[] {
    if (key === undefined) return queue.splice(0, maxBatch);
    const taken: Waiting<Req, Res>[] = [];
    const rest: Waiting<Req, Res>[] = [];
    const keys = new Set<string>();
    for (const w of queue) {
      const k = key(w.req);
      if (taken.length < maxBatch && !keys.has(k)) {
        keys.add(k);
        taken.push(w);
      } else rest.push(w);
    }
    queue = rest;
    return taken;
  }

  function pump(): void {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = take();
      inFlight++;
      run(batch.map((w) => w.req))
        .then(
          (results) => {
            batch.forEach((w, i) => {
              w.resolve(results[i] as Res);
            });
          },
          (err: unknown) => {
            for (const w of batch) w.reject(err);
          },
        )
        .finally(() => {
          inFlight--;
          pump();
        });
    }
  }

  return (req) =>
    new Promise<Res>((resolve, reject) => {
      queue.push({ req, resolve, reject });
      pump();
    });
}
