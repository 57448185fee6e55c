// Loaded into each server process by the soak (NODE_OPTIONS="--expose-gc --import ..."):
// every 10 s it runs a full garbage collection and appends "<epoch ms> <heapUsed bytes>"
// to $SOAK_HEAP_DIR/<pid>, so each line is the live heap: what the process retains.
// Neither RSS nor heapUsed sampled at random tells that: V8 keeps the heap it grew for a
// high allocation rate, and garbage waits for the next major collection.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.SOAK_HEAP_DIR;
const gc = globalThis.gc;
if (dir && typeof gc === 'function') {
  const file = join(dir, String(process.pid));
  setInterval(() => {
    gc();
    appendFileSync(file, `${Date.now()} ${process.memoryUsage().heapUsed}\n`);
  }, 10_000).unref();
}
