import { decide, fold, type GameEvent, initialState, type RecordedEvent } from '@shogi/game';
import { createInMemoryEventStore, GOTE, gameCreated, SENTE, T0 } from '@shogi/game/testing';
import { type EventEnvelope, toEnvelope } from '@shogi/pipeline';
import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createValidateProcessor } from '../src/index.js';

function setup() {
  const store = createInMemoryEventStore({ now: () => T0 });
  const published: EventEnvelope[] = [];
  const messages: EventEnvelope[][] = [];
  const make = () =>
    createValidateProcessor({
      events: store,
      now: () => T0,
      publish: async (_gameId, events) => {
        published.push(...events);
        messages.push([...events]);
      },
    });
  return { store, published, messages, make };
}

/** The gateway's half: decide SubmitMove on the stored events and append; returns the seq. */
async function submit(
  store: ReturnType<typeof createInMemoryEventStore>,
  gameId: string,
  usi: string,
): Promise<number> {
  const events = await store.readStream(gameId);
  const state = fold(
    events.map((e) => ({ type: e.type, data: e.data }) as GameEvent),
    initialState(),
  );
  const player = state.sideToMove === 'sente' ? SENTE : GOTE;
  const d = decide({ type: 'SubmitMove', playerId: player.id, usi, ply: state.ply, now: T0 }, state);
  if (!d.ok) throw new Error(d.rejection.message);
  return (await store.append(gameId, state.seq, d.events)).lastSeq;
}

const verdictsOf = (events: RecordedEvent[]) =>
  events
    .filter((e) => e.type === 'MoveAccepted' || e.type === 'MoveRejected')
    .map((e) => (e.data as { submittedSeq: number }).submittedSeq);

describe('validate processor (in-memory store)', () => {
  it('plays a game to checkmate, publishing each verdict once, behind its submission', async () => {
    const { store, published, make } = setup();
    const validate = make();
    await store.append('g1', 0, [gameCreated('g1', { initialSfen: '4k4/9/4G4/9/9/9/9/9/4K4 b G 1' })]);
    const seq = await submit(store, 'g1', 'G*5b');
    expect(await validate({ gameId: 'g1', seq })).toEqual({ appended: 2, verdicts: 1, conflicts: 0 });
    expect(published.map((e) => e.type)).toEqual(['MoveSubmitted', 'MoveAccepted', 'GameEnded']);
    const [submission] = await store.readStream('g1', seq - 1);
    expect(published[0]).toEqual(submission && toEnvelope(submission));
    expect(published[2]).toMatchObject({ gameId: 'g1', seq: 4, data: { winner: 'sente', reason: 'checkmate' } });
  });

  it("publishes the job's copy of the submission with its verdict when it validates without reading", async () => {
    const { store, messages, make } = setup();
    const validate = make();
    await store.append('g1', 0, [gameCreated('g1')]);
    await validate({ gameId: 'g1', seq: await submit(store, 'g1', '7g7f') }); // caches the game
    /** the next submission, and a processor run that may not read the log */
    const warm = async (usi: string, withTime: boolean) => {
      const seq = await submit(store, 'g1', usi);
      const [recorded] = await store.readStream('g1', seq - 1);
      if (recorded?.type !== 'MoveSubmitted') throw new Error('no submission');
      const reads = store.readStream;
      store.readStream = () => Promise.reject(new Error('the warm path reads nothing'));
      try {
        const job = { gameId: 'g1', seq, submitted: recorded.data };
        expect(await validate(withTime ? { ...job, submittedAt: recorded.recordedAt } : job)).toEqual({
          appended: 1,
          verdicts: 1,
          conflicts: 0,
        });
      } finally {
        store.readStream = reads;
      }
      return recorded;
    };
    const third = await warm('3c3d', true);
    expect(messages.at(-1)).toEqual([
      toEnvelope(third),
      expect.objectContaining({
        seq: third.seq + 1,
        type: 'MoveAccepted',
        data: expect.objectContaining({ submittedSeq: third.seq }),
      }),
    ]);
    // without its recording time the verdict goes alone (subscribers read the gap from the log)
    await warm('2g2f', false);
    expect(messages.at(-1)?.map((e) => e.type)).toEqual(['MoveAccepted']);
  });

  it('does nothing for the same job delivered twice', async () => {
    const { store, messages, make } = setup();
    const validate = make();
    await store.append('g1', 0, [gameCreated('g1')]);
    const seq = await submit(store, 'g1', '7g7f');
    await validate({ gameId: 'g1', seq });
    expect(await validate({ gameId: 'g1', seq })).toEqual({ appended: 0, verdicts: 0, conflicts: 0 });
    expect(await make()({ gameId: 'g1', seq })).toEqual({ appended: 0, verdicts: 0, conflicts: 0 });
    expect(verdictsOf(await store.readStream('g1'))).toEqual([seq]);
    expect(messages.length).toBe(1);
  });

  it('gives each move exactly one verdict with two processors racing on every job', async () => {
    const { store, make } = setup();
    const a = make();
    const b = make();
    await store.append('g1', 0, [gameCreated('g1')]);
    const seqs: number[] = [];
    for (const usi of ['7g7f', '3c3d', '8h2b+', '3a2b', '2g2f', '4c4d']) {
      const seq = await submit(store, 'g1', usi);
      seqs.push(seq);
      const results = await Promise.all([a({ gameId: 'g1', seq }), b({ gameId: 'g1', seq })]);
      expect(results.map((r) => r.appended).sort()).toEqual([0, 1]);
    }
    expect(verdictsOf(await store.readStream('g1'))).toEqual(seqs);
  });

  it("folds the job's copy of the submission onto a warm cache instead of reading the log", async () => {
    const { store } = setup();
    let reads = 0;
    const counted = {
      append: store.append.bind(store),
      readStream: (...a: Parameters<typeof store.readStream>) => {
        reads++;
        return store.readStream(...a);
      },
    };
    const validate = createValidateProcessor({ events: counted, now: () => T0, publish: async () => {} });
    await store.append('g1', 0, [gameCreated('g1')]);
    for (const usi of ['7g7f', '3c3d', '2g2f']) {
      const seq = await submit(store, 'g1', usi);
      const submitted = (await store.readStream('g1', seq - 1))[0]?.data;
      const before = reads;
      await validate({ gameId: 'g1', seq, submitted });
      // the first job warms the cache from the log; later ones read nothing
      if (usi !== '7g7f') expect(reads).toBe(before);
    }
    expect(verdictsOf(await store.readStream('g1'))).toEqual([2, 4, 6]);
  });

  it("gives one verdict when two warm processors race with the job's copy of the submission", async () => {
    const { store, make } = setup();
    const a = make();
    const b = make();
    await store.append('g1', 0, [gameCreated('g1')]);
    for (const usi of ['7g7f', '3c3d', '8h2b+', '3a2b']) {
      const seq = await submit(store, 'g1', usi);
      const submitted = (await store.readStream('g1', seq - 1))[0]?.data;
      const results = await Promise.all([a({ gameId: 'g1', seq, submitted }), b({ gameId: 'g1', seq, submitted })]);
      expect(results.map((r) => r.appended).sort()).toEqual([0, 1]);
    }
    const events = await store.readStream('g1');
    expect(events.filter((e) => e.type === 'MoveAccepted').map((e) => (e.data as { usi: string }).usi)).toEqual([
      '7g7f',
      '3c3d',
      '8h2b+',
      '3a2b',
    ]);
  });

  it('refuses a job whose copy of the submission is malformed', async () => {
    const { store, make } = setup();
    await store.append('g1', 0, [gameCreated('g1')]);
    const seq = await submit(store, 'g1', '7g7f');
    await expect(make()({ gameId: 'g1', seq, submitted: { usi: 7 } })).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it('fails permanently on bad job data and unknown games, and retries a seq not visible yet', async () => {
    const { store, make } = setup();
    const validate = make();
    await expect(validate({ gameId: 'g1' })).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(validate(undefined)).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(validate({ gameId: 'nope', seq: 2 })).rejects.toBeInstanceOf(UnrecoverableError);
    await store.append('g1', 0, [gameCreated('g1')]);
    const e = await validate({ gameId: 'g1', seq: 9 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(UnrecoverableError);
  });

  it("gives each move of a batch job its verdict, and the batch's redelivery none", async () => {
    const { store, published, make } = setup();
    const validate = make();
    const moves = [];
    for (const [gameId, usi] of [
      ['a', '7g7f'],
      ['b', '2g2f'],
      ['c', '5i4h'],
    ] as const) {
      await store.append(gameId, 0, [gameCreated(gameId)]);
      moves.push({ gameId, seq: await submit(store, gameId, usi) });
    }
    expect(await validate({ moves })).toEqual({ appended: 3, verdicts: 3, conflicts: 0 });
    expect(await validate({ moves }, { redelivered: true })).toEqual({ appended: 0, verdicts: 0, conflicts: 0 });
    for (const { gameId, seq } of moves) expect(verdictsOf(await store.readStream(gameId))).toEqual([seq]);
    // the redelivery published each submission and verdict on record again (subscribers dedupe by seq)
    expect(published.map((e) => `${e.gameId}:${e.seq}`).sort()).toEqual([
      'a:2',
      'a:2',
      'a:3',
      'a:3',
      'b:2',
      'b:2',
      'b:3',
      'b:3',
      'c:2',
      'c:2',
      'c:3',
      'c:3',
    ]);
  });

  it('validates the good moves of a batch; the job fails for good only when every failure is permanent', async () => {
    const { store, make } = setup();
    const validate = make();
    await store.append('g1', 0, [gameCreated('g1')]);
    const seq = await submit(store, 'g1', '7g7f');
    const permanent = await validate({
      moves: [
        { gameId: 'nope', seq: 2 },
        { gameId: 'g1', seq },
      ],
    }).catch((x: unknown) => x);
    expect(permanent).toBeInstanceOf(UnrecoverableError);
    expect((permanent as Error).message).toMatch(/1 of 2 moves failed: game nope/);
    expect(verdictsOf(await store.readStream('g1'))).toEqual([seq]);
    // a seq not visible yet may pass on a retry: the job is retried
    const later = await validate({
      moves: [
        { gameId: 'nope', seq: 2 },
        { gameId: 'g1', seq: 9 },
      ],
    }).catch((x: unknown) => x);
    expect(later).toBeInstanceOf(Error);
    expect(later).not.toBeInstanceOf(UnrecoverableError);
  });

  it('refuses malformed batches: empty, oversized, or with a malformed move', async () => {
    const validate = setup().make();
    const move = { gameId: 'g1', seq: 2 };
    for (const moves of [[], Array.from({ length: 65 }, () => move), [move, { gameId: 'g1', seq: 0 }], 'x'])
      await expect(validate({ moves })).rejects.toBeInstanceOf(UnrecoverableError);
  });
});
