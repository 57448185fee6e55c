import { Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { sampledGauge, startMetricsServer } from '../src/index.js';

describe('sampledGauge', () => {
  test('sums what its readers say per label set, and forgets a removed reader', async () => {
    const registry = new Registry();
    const gauge = sampledGauge(registry, 'test_open', 'open things', ['kind']);
    const stopA = gauge.read(() => [
      [{ kind: 'player' }, 2],
      [{ kind: 'lobby' }, 1],
    ]);
    gauge.read(async () => [[{ kind: 'player' }, 3]]);
    // a reader whose source failed adds nothing, and spoils nothing
    gauge.read(() => Promise.reject(new Error('gone')));
    const text = await registry.metrics();
    expect(text).toContain('test_open{kind="player"} 5');
    expect(text).toContain('test_open{kind="lobby"} 1');
    stopA();
    const after = await registry.metrics();
    expect(after).toContain('test_open{kind="player"} 3');
    expect(after).not.toContain('kind="lobby"');
  });
});

describe('startMetricsServer', () => {
  test('serves the text format on GET /metrics and nothing else', async () => {
    const server = await startMetricsServer('127.0.0.1', 0);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const ok = await fetch(`${base}/metrics`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toContain('text/plain');
      const body = await ok.text();
      expect(body).toContain('# TYPE shogi_moves_submitted_total counter');
      expect(body).toContain('# TYPE shogi_move_verdict_seconds histogram');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
