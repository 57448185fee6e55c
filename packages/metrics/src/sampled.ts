/**
 * A gauge read when Prometheus scrapes: the parts of a process that hold a count (a socket
 * set, a pool, a queue) register a reader, and the gauge sums what the readers say per label
 * set. Nothing is incremented or decremented along the way, so no missed close path can make
 * the figure drift, and a part that stops (a gateway closed in a test) takes its reader away.
 */
import { Gauge, type Registry } from 'prom-client';

/** label values → value; a reader returns one entry per label set it knows (none: it adds nothing). */
export type Sample<L extends string> = ReadonlyArray<readonly [Partial<Record<L, string>>, number]>;
export type Reader<L extends string> = () => Sample<L> | Promise<Sample<L>>;

export interface SampledGauge<L extends string> {
  /** Adds a reader; the function returned removes it. */
  read(reader: Reader<L>): () => void;
}

export function sampledGauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): SampledGauge<L> {
  const readers = new Set<Reader<L>>();
  new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      const samples = await Promise.allSettled([...readers].map((r) => r()));
      const sums = new Map<string, { labels: Partial<Record<L, string>>; value: number }>();
      for (const s of samples) {
        // a reader whose source is gone (a closed pool, Redis down) leaves its figures out
        if (s.status !== 'fulfilled') continue;
        for (const [labels, value] of s.value) {
          const key = JSON.stringify(labelNames.map((l) => labels[l] ?? ''));
          const sum = sums.get(key);
          if (sum === undefined) sums.set(key, { labels, value });
          else sum.value += value;
        }
      }
      for (const { labels, value } of sums.values()) this.set(labels, value);
    },
  });
  return {
    read(reader) {
      readers.add(reader);
      return () => readers.delete(reader);
    },
  };
}
