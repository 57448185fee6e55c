/**
 * The alerting rules and the dashboard in infra/prometheus/ name only metrics this server
 * exports: a renamed metric fails here, not silently in an operator's Grafana.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { registry } from '../src/index.js';

const infra = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../../../infra/prometheus/${file}`, import.meta.url)), 'utf8');

test('every shogi_ metric the rules and the dashboard use is one the registry holds', async () => {
  const exported = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
  const used = new Set(
    [infra('rules.yml'), infra('grafana-dashboard.json')]
      .flatMap((text) => text.match(/shogi_[a-z_]+/g) ?? [])
      .map((name) => name.replace(/_(bucket|sum|count)$/, '')),
  );
  expect(used.size).toBeGreaterThan(10);
  for (const name of used) expect(exported, name).toContain(name);
});
