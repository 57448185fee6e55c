import type { WireEvent } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { Feed } from '../src/domain/feed.js';

const ev = (seq: number): WireEvent => ({ seq, type: 'E', payload: {}, recordedAt: '2026-01-01T00:00:00.000Z' });
const flush = () => new Promise((r) => setTimeout(r, 0));

function harness(log: number[], afterSeq = 0) {
  const sent: number[] = [];
  const reads: number[] = [];
  const feed = new Feed(afterSeq, {
    readAfter: async (seq) => {
      reads.push(seq);
      return log.filter((s) => s > seq).map(ev);
    },
    send: (events) => sent.push(...events.map((e) => e.seq)),
    onError: (err) => {
      throw err;
    },
  });
  return { feed, sent, reads };
}

describe('Feed: every event once, in order, gaps filled from the log', () => {
  test('contiguous pushes go straight out', () => {
    const { feed, sent, reads } = harness([]);
    feed.push([ev(1)]);
    feed.push([ev(2), ev(3)]);
    expect(sent).toEqual([1, 2, 3]);
    expect(reads).toEqual([]);
  });

  test('the next events in order go out as the batch itself, so feeds given one batch send one array', () => {
    const got: (readonly WireEvent[])[] = [];
    const feeds = [0, 0].map(
      (after) => new Feed(after, { readAfter: async () => [], send: (e) => got.push(e), onError: () => undefined }),
    );
    const batch = [ev(1), ev(2)];
    for (const feed of feeds) feed.push(batch);
    expect(got).toEqual([batch, batch]);
    expect(got[0]).toBe(batch);
    expect(got[1]).toBe(batch);
  });

  test('duplicates and old events are dropped', () => {
    const { feed, sent } = harness([]);
    feed.push([ev(1), ev(2)]);
    feed.push([ev(2)]);
    feed.push([ev(1), ev(2), ev(3)]);
    expect(sent).toEqual([1, 2, 3]);
  });

  test('a gap (a lost publish) is filled from the log, then the queue drains', async () => {
    const { feed, sent, reads } = harness([1, 2, 3, 4, 5]);
    feed.push([ev(1)]);
    feed.push([ev(3)]); // 2 was lost
    feed.push([ev(5)]); // arrives while catching up
    await flush();
    expect(reads).toEqual([1]);
    expect(sent).toEqual([1, 2, 3, 4, 5]);
  });

  test('out-of-order events within one batch are sorted', () => {
    const { feed, sent } = harness([]);
    feed.push([ev(2), ev(1)]);
    expect(sent).toEqual([1, 2]);
  });

  test('a reconnect resumes after the seq the client saw', async () => {
    const { feed, sent, reads } = harness([1, 2, 3, 4], 2);
    feed.catchUp();
    await flush();
    expect(reads).toEqual([2]);
    expect(sent).toEqual([3, 4]);
  });

  test('nothing is sent after close', async () => {
    const { feed, sent } = harness([1, 2]);
    feed.catchUp();
    feed.close();
    await flush();
    feed.push([ev(3)]);
    expect(sent).toEqual([]);
  });

  test('a catch-up asked for while one is reading reads again: the first read may predate the event', async () => {
    const log = [1];
    const sent: number[] = [];
    const reads: number[] = [];
    let release: () => void = () => undefined;
    const feed = new Feed(0, {
      readAfter: async (seq) => {
        reads.push(seq);
        // the first read sees the log as it was when it started
        const seen = log.filter((s) => s > seq).map(ev);
        if (reads.length === 1) await new Promise<void>((r) => (release = r));
        return seen;
      },
      send: (events) => sent.push(...events.map((e) => e.seq)),
      onError: (err) => {
        throw err;
      },
    });
    feed.catchUp();
    await flush();
    // a verdict appended while Redis was away, then Redis is back: the hub asks again
    log.push(2);
    feed.catchUp();
    release();
    await flush();
    await flush();
    expect(reads).toEqual([0, 1]);
    expect(sent).toEqual([1, 2]);
  });
});
