import { describe, expect, it } from 'vitest';
import {
  CommandHandler,
  type EventStore,
  fold,
  GameStates,
  type Handled,
  initialState,
  TooManyConflictsError,
} from '../src/index.js';
import { createInMemoryEventStore, GOTE, gameCreated, moveSubmitted, SENTE, T0 } from '../src/testing/index.js';

/** A store whose reads and appends are counted, and whose appends may be preceded by another writer's. */
function setup(options: { maxConflicts?: number; keepEnded?: boolean } = {}) {
  const inner = createInMemoryEventStore({ now: () => T0 });
  const counts = { reads: 0, appends: 0 };
  let racer: (() => Promise<void>) | null = null;
  const store: EventStore = {
    ...inner,
    readStream: (...args) => {
      counts.reads++;
      return inner.readStream(...args);
    },
    append: async (...args) => {
      counts.appends++;
      const race = racer;
      racer = null;
      await race?.();
      return inner.append(...args);
    },
  };
  const states = new GameStates(store, { limit: 10, keepEnded: options.keepEnded ?? true });
  const handler = new CommandHandler({ events: store, states, maxConflicts: options.maxConflicts ?? 3, now: () => T0 });
  return {
    inner,
    states,
    handler,
    counts,
    /** Another writer appends `events` just before the handler's next append. */
    raceWith: (append: () => Promise<unknown>) => {
      racer = async () => {
        await append();
      };
    },
  };
}

const kindOf = (h: Handled) => h.kind;
const sentesMove = { type: 'SubmitMove', playerId: SENTE.id, usi: '7g7f', ply: 0 } as const;

describe('CommandHandler', () => {
  it('decides on the log, appends at its version, keeps the state after', async () => {
    const { inner, handler, states } = setup();
    await inner.append('g', 0, [gameCreated('g')]);
    const handled = await handler.handle('g', sentesMove);
    expect(handled.kind).toBe('appended');
    if (handled.kind !== 'appended') return;
    expect(handled.appended.map((e) => [e.seq, e.type])).toEqual([[2, 'MoveSubmitted']]);
    expect(handled.appended[0]?.data).toMatchObject({ receivedAt: T0.toISOString() });
    expect([handled.state.seq, handled.after.seq, handled.conflicts]).toEqual([1, 2, 0]);
    expect(handled.read.map((e) => e.type)).toEqual(['GameCreated']);
    expect(states.peek('g')).toBe(handled.after);
  });

  it('on a version conflict reads again and decides again', async () => {
    const { inner, handler, raceWith } = setup();
    await inner.append('g', 0, [gameCreated('g'), moveSubmitted('7g7f', 0)]);
    // the worker and another one both validate seq 2; the other appends first
    raceWith(() =>
      inner.append('g', 2, [
        { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'stale_ply' } },
      ]),
    );
    const handled = await handler.handle('g', { type: 'ValidatePending', seq: 2 });
    expect(handled).toMatchObject({ kind: 'unchanged', conflicts: 1, duplicateOf: null });
    expect((await inner.readStream('g')).length).toBe(3);
  });

  it('gives up after as many conflicts as it may meet, plus one', async () => {
    const { inner, handler, raceWith, counts } = setup({ maxConflicts: 2 });
    await inner.append('g', 0, [gameCreated('g')]);
    // another writer gets in first every time (sente's submission, then gote's, ...)
    let n = 0;
    const race = () =>
      raceWith(async () => {
        const seq = (await inner.readStream('g')).length;
        await inner.append('g', seq, [
          { type: 'MoveRejected', data: { submittedSeq: 1, usi: 'x', ply: 0, reason: 'stale_ply' } },
        ]);
        n++;
        if (n < 5) race();
      });
    race();
    const failed = await handler.handle('g', { type: 'Resign', playerId: SENTE.id }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TooManyConflictsError);
    expect((failed as TooManyConflictsError).attempts).toBe(3);
    expect(counts.appends).toBe(3);
  });

  it('decides on the kept state without a read; a rejection there is confirmed on the log', async () => {
    const { inner, handler, states, counts } = setup();
    await inner.append('g', 0, [gameCreated('g')]);
    await handler.handle('g', sentesMove);
    const readsBefore = counts.reads;
    // the kept state has sente's move pending; meanwhile the log got its verdict
    await inner.append('g', 2, [
      {
        type: 'MoveAccepted',
        data: {
          submittedSeq: 2,
          ply: 1,
          usi: '7g7f',
          sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2',
          check: false,
        },
      },
    ]);
    expect(states.peek('g')?.seq).toBe(2);
    const gotes = await handler.handle('g', { type: 'SubmitMove', playerId: GOTE.id, usi: '3c3d', ply: 1 }, 'kept');
    expect(gotes).toMatchObject({ kind: 'appended', state: { seq: 3 } });
    expect(counts.reads - readsBefore).toBe(1);
    // accepted on the kept state: no read at all
    const resigned = await handler.handle('g', { type: 'Resign', playerId: SENTE.id }, 'kept');
    expect(resigned.kind).toBe('appended');
    expect(counts.reads - readsBefore).toBe(1);
  });

  it('answers from a kept ended game without reading, and replays a request by its key', async () => {
    const { inner, handler, counts } = setup();
    await inner.append('g', 0, [gameCreated('g')]);
    const first = await handler.handle('g', { type: 'Resign', playerId: SENTE.id, idempotencyKey: 'k' }, 'kept');
    const before = counts.reads;
    const again = await handler.handle('g', { type: 'Resign', playerId: SENTE.id, idempotencyKey: 'k' }, 'kept');
    const late = await handler.handle('g', sentesMove, 'kept');
    expect([first.kind, again.kind, late.kind]).toEqual(['appended', 'unchanged', 'rejected']);
    expect(again).toMatchObject({ duplicateOf: 2 });
    expect(late).toMatchObject({ rejection: { code: 'game_over' } });
    expect(counts.reads).toBe(before);
  });

  it('decides on a state the caller made: a new game on the empty state, without a read', async () => {
    const { handler, counts, inner } = setup();
    const created = await handler.handle(
      'new',
      { type: 'CreateGame', gameId: 'new', sente: SENTE, gote: GOTE, ruleset: 'default' },
      { state: initialState() },
    );
    expect(kindOf(created)).toBe('appended');
    expect(counts.reads).toBe(0);
    // a rejection on it is confirmed on the log (which has the game now)
    const twice = await handler.handle(
      'new',
      { type: 'CreateGame', gameId: 'new', sente: SENTE, gote: GOTE, ruleset: 'default' },
      { state: fold([], initialState()) },
    );
    expect(twice).toMatchObject({ kind: 'rejected', rejection: { code: 'game_exists' }, state: { seq: 1 } });
    expect(counts.reads).toBe(1);
    expect((await inner.readStream('new')).length).toBe(1);
  });
});
