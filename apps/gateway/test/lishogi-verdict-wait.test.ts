/**
 * Waiting for a submission's verdict with no Redis and no database: a fake hub and log. The
 * verdict is found whether it comes before it is asked for, while it is waited for, or only
 * in the log; a subscription that never completes (Redis away) delays nothing past its bound.
 */
import type { WireEvent } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import type { Hub, HubListener } from '../src/domain/hub.js';
import { watchVerdicts } from '../src/lishogi/verdict-wait.js';

const accepted = (seq: number, submittedSeq: number) => ({
  gameId: 'g',
  seq,
  type: 'MoveAccepted',
  data: { submittedSeq, ply: 1, usi: '7g7f', sfen: 'x', check: false },
  recordedAt: '2026-01-01T00:00:00.000Z',
});
const rejected = (seq: number, submittedSeq: number, reason: string) => ({
  gameId: 'g',
  seq,
  type: 'MoveRejected',
  data: { submittedSeq, ply: 0, usi: '1a1b', reason },
  recordedAt: '2026-01-01T00:00:00.000Z',
});
const wire = (e: ReturnType<typeof accepted>): WireEvent => ({
  seq: e.seq,
  type: e.type,
  payload: e.data,
  recordedAt: e.recordedAt,
});

function fakeHub(joins: 'at once' | 'never' = 'at once') {
  const listeners = new Set<HubListener>();
  const hub: Hub = {
    join(_gameId, listener) {
      if (joins === 'never') return new Promise(() => {});
      listeners.add(listener);
      return Promise.resolve(() => listeners.delete(listener));
    },
    deliver: () => {},
    get size() {
      return listeners.size;
    },
    async close() {},
  };
  const publish = (events: unknown[]) => {
    for (const l of listeners) l(events);
  };
  return { hub, listeners, publish };
}

const noLog = async () => [];

describe('a submission`s verdict', () => {
  test('published before it is asked for, or while it is waited for', async () => {
    const { hub, listeners, publish } = fakeHub();
    const watch = await watchVerdicts(hub, 'g', noLog, 1000);
    publish([accepted(3, 2)]);
    expect(await watch.of(2, 1000)).toMatchObject({ submittedSeq: 2, accepted: true });
    setTimeout(() => publish([{ seq: 4, type: 'MoveSubmitted', data: {} }, rejected(5, 4, 'perpetual_check')]), 10);
    expect(await watch.of(4, 1000)).toMatchObject({ submittedSeq: 4, accepted: false, reason: 'perpetual_check' });
    watch.close();
    expect(listeners.size).toBe(0);
  });

  test('missed on the hub: read from the log once the wait is over; none there: null', async () => {
    const { hub } = fakeHub();
    const log = [wire(accepted(3, 2))];
    const watch = await watchVerdicts(hub, 'g', async (after) => log.filter((e) => e.seq > after), 1000);
    expect(await watch.of(2, 20)).toMatchObject({ submittedSeq: 2, accepted: true });
    expect(await watch.of(7, 20)).toBeNull();
    const unreadable = await watchVerdicts(hub, 'g', () => Promise.reject(new Error('database away')), 1000);
    expect(await unreadable.of(2, 20)).toBeNull();
  });

  test('a subscription that does not complete holds the move for its bound only', async () => {
    const { hub } = fakeHub('never');
    const started = Date.now();
    const watch = await watchVerdicts(hub, 'g', async () => [wire(accepted(3, 2))], 50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await watch.of(2, 20)).toMatchObject({ accepted: true });
    watch.close();
  });
});
