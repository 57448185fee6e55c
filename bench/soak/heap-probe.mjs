// Loaded into each server process by the soak (NODE_OPTIONS=--import): appends
// "<epoch ms> <heapUsed bytes>" twice a second to $SOAK_HEAP_DIR/<pid>. The lowest heap in
// use over a window bounds the live heap from above, which RSS does not: V8 keeps the heap
// it grew for a high allocation rate, so RSS rises without anything being retained.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.SOAK_HEAP_DIR;
if (dir) {
  const file = join(dir, String(process.pid));
  setInterval(() => appendFileSync(file, `${Date.now()} ${process.memoryUsage().heapUsed}\n`), 500).unref();
}
