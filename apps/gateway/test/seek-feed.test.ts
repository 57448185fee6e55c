import type { SeekView } from '@shogi/protocol';
import { expect, test } from 'vitest';
import { createSeekFeed } from '../src/domain/seek-feed.js';

const seek = (id: string) => ({ id }) as SeekView;
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

test('a burst of changes is read once and sent to every socket; nothing is read without sockets', async () => {
  let reads = 0;
  let current: SeekView[] = [];
  const feed = createSeekFeed({
    list: async () => {
      reads++;
      return current;
    },
    announce: async () => undefined,
    onError: (err) => {
      throw err;
    },
    settleMs: 10,
  });
  feed.refresh();
  await tick(30);
  expect(reads).toBe(0);

  const a: (readonly SeekView[])[] = [];
  const b: (readonly SeekView[])[] = [];
  const offA = feed.add((s) => a.push(s));
  feed.add((s) => b.push(s));
  await tick(5);
  expect([a, b]).toEqual([[[]], [[]]]);
  reads = 0;

  current = [seek('s1')];
  feed.refresh();
  feed.refresh();
  feed.refresh();
  await tick(30);
  expect(reads).toBe(1);
  expect(a.at(-1)).toEqual([seek('s1')]);
  expect(b.at(-1)).toEqual([seek('s1')]);

  offA();
  current = [];
  feed.refresh();
  await tick(30);
  expect(a.at(-1)).toEqual([seek('s1')]);
  expect(b.at(-1)).toEqual([]);
});

test("a socket's first list, read before a change but answered after it, is not sent over the newer one", async () => {
  const answers: ((seeks: SeekView[]) => void)[] = [];
  const feed = createSeekFeed({
    list: () => new Promise((resolve) => answers.push(resolve)),
    announce: async () => undefined,
    onError: (err) => {
      throw err;
    },
    settleMs: 0,
  });
  const got: (readonly SeekView[])[] = [];
  feed.add((s) => got.push(s));
  feed.refresh();
  await tick(5);
  expect(answers).toHaveLength(2);
  answers[1]?.([seek('new')]);
  await tick();
  answers[0]?.([]);
  await tick();
  expect(got).toEqual([[seek('new')]]);
});
