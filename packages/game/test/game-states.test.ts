import { describe, expect, it } from 'vitest';
import { type EventStore, fold, GameStates, initialState, type RecordedEvent } from '../src/index.js';
import { createInMemoryEventStore, gameCreated, moveSubmitted } from '../src/testing/index.js';

const stateAt = (n: number) =>
  fold([gameCreated('g'), ...Array.from({ length: n }, () => moveSubmitted('7g7f', 0))], initialState());
const ended = () =>
  fold([{ type: 'GameEnded', data: { winner: null, reason: 'abort', at: '2026-01-01T00:00:00.000Z' } }], stateAt(3));

/** An event store that counts its stream reads and remembers what they returned. */
function countedStore() {
  const inner = createInMemoryEventStore();
  const reads: { after: number; got: number }[] = [];
  const store: EventStore = {
    ...inner,
    async readStream(gameId, after = 0) {
      const got = await inner.readStream(gameId, after);
      reads.push({ after, got: got.length });
      return got;
    },
  };
  return { store, reads };
}

describe('GameStates', () => {
  it('keeps the most advanced state; ended games leave unless kept on purpose', () => {
    const store = createInMemoryEventStore();
    const worker = new GameStates(store, { limit: 10, keepEnded: false });
    worker.keep('g', stateAt(3));
    worker.keep('g', stateAt(1));
    expect(worker.get('g')?.seq).toBe(4);
    worker.keep('g', ended());
    expect(worker.get('g')).toBeUndefined();
    const gateway = new GameStates(store, { limit: 10, keepEnded: true });
    gateway.keep('g', ended());
    expect(gateway.get('g')?.status).toBe('ended');
    gateway.keep('nothing', initialState());
    expect(gateway.peek('nothing')).toBeUndefined();
  });

  it('lets the least recently used game go beyond its limit', () => {
    const states = new GameStates(createInMemoryEventStore(), { limit: 2, keepEnded: false });
    states.keep('a', stateAt(0));
    states.keep('b', stateAt(0));
    states.get('a');
    states.keep('c', stateAt(0));
    expect(['a', 'b', 'c'].map((g) => states.peek(g) !== undefined)).toEqual([true, false, true]);
  });

  it('catches a kept state up with the events it has not seen, and returns them', async () => {
    const { store, reads } = countedStore();
    await store.append('g', 0, [gameCreated('g'), moveSubmitted('7g7f', 0)]);
    const states = new GameStates(store, { limit: 10, keepEnded: false });
    const first = await states.current('g');
    expect([first.state.seq, first.read.length]).toEqual([2, 2]);
    await store.append('g', 2, [
      { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'stale_ply' } },
    ]);
    const second = await states.current('g');
    expect(second.read.map((e) => e.seq)).toEqual([3]);
    expect(second.state.pending).toEqual([]);
    expect(reads).toEqual([
      { after: 0, got: 2 },
      { after: 2, got: 1 },
    ]);
  });

  it('reads a game again from its start when the tail does not follow the kept state', async () => {
    const { store, reads } = countedStore();
    await store.append('g', 0, [gameCreated('g'), moveSubmitted('7g7f', 0)]);
    // the tail after the kept state skips a seq: the kept state is wrong
    const gapped: EventStore = {
      ...store,
      readStream: async (gameId, after = 0) =>
        after === 0 ? store.readStream(gameId, 0) : [{ seq: 9 } as unknown as RecordedEvent],
    };
    const again = new GameStates(gapped, { limit: 10, keepEnded: false });
    again.keep('g', stateAt(0));
    expect((await again.current('g')).state.seq).toBe(2);
    expect(reads.at(-1)).toEqual({ after: 0, got: 2 });
  });

  it('folds published events that follow the kept state exactly, and nothing else', async () => {
    const store = createInMemoryEventStore();
    const { events } = await store.append('g', 0, [gameCreated('g'), moveSubmitted('7g7f', 0)]);
    const [created, submitted] = events as [RecordedEvent, RecordedEvent];
    const states = new GameStates(store, { limit: 10, keepEnded: true });
    states.observe('g', [created]);
    expect(states.peek('g')).toBeUndefined();
    states.keep('g', fold([created], initialState()));
    states.observe('g', [{ ...submitted, seq: 3 }]);
    expect(states.peek('g')?.seq).toBe(1);
    states.observe('g', [created, submitted]);
    expect(states.peek('g')?.seq).toBe(2);
  });
});
