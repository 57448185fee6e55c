import { initialState, type RecordedEvent } from '@shogi/game';
import { HASH_SLOTS, slotOf } from '@shogi/redis';
import type { JobsOptions } from 'bullmq';
import { describe, expect, it } from 'vitest';
import {
  enqueueFlagCheck,
  enqueueValidate,
  FLAG_QUEUE,
  type FlagJobData,
  flagQueueNames,
  flagQueuePlaces,
  gameChannel,
  isValidateBatchJobData,
  messageOf,
  scheduleFlag,
  submissionsIn,
  submitterOf,
  toEnvelope,
  toWire,
  VALIDATE_QUEUE,
  type ValidateJob,
  validateQueueNames,
  validateQueueOf,
  validateQueuePlaces,
  verdictOf,
} from '../src/index.js';

function recordingQueue<Data>() {
  const added: { name: string; data: Data; opts: JobsOptions }[] = [];
  return {
    added,
    async add(name: string, data: Data, opts: JobsOptions) {
      added.push({ name, data, opts });
      return opts.jobId;
    },
  };
}

describe('enqueueValidate', () => {
  it('queues a lone move as job <gameId>-<seq>, a copy beside it under a suffix', async () => {
    const queue = recordingQueue<ValidateJob>();
    expect(await enqueueValidate(queue, [{ gameId: 'g', seq: 3 }])).toEqual(['g-3']);
    await enqueueValidate(queue, [{ gameId: 'g', seq: 3 }], { copy: 'sweep7' });
    expect(queue.added.map((a) => [a.name, a.opts.jobId, a.opts.attempts])).toEqual([
      [VALIDATE_QUEUE, 'g-3', 8],
      [VALIDATE_QUEUE, 'g-3-sweep7', 8],
    ]);
  });

  it('queues several moves as one batch job, and nothing for none', async () => {
    const queue = recordingQueue<ValidateJob>();
    const moves = [
      { gameId: 'a', seq: 2 },
      { gameId: 'b', seq: 5 },
    ];
    await enqueueValidate(queue, moves);
    expect(await enqueueValidate(queue, [])).toEqual([]);
    expect(queue.added).toHaveLength(1);
    const [batch] = queue.added;
    expect(batch?.data).toEqual({ moves });
    expect(isValidateBatchJobData(batch?.data)).toBe(true);
    expect(batch?.opts.jobId).toMatch(/^batch-[0-9a-f-]{36}$/);
  });
});

describe('validate queues', () => {
  it('names one queue as it always was, several by their index', () => {
    expect(validateQueueNames(1)).toEqual([VALIDATE_QUEUE]);
    expect(validateQueueNames(3)).toEqual(['validate-0', 'validate-1', 'validate-2']);
    expect(() => validateQueueNames(0)).toThrow(/at least 1/);
  });

  it('puts a game always in the same queue, and games in every queue', () => {
    const ids = Array.from({ length: 400 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const counts = [0, 0, 0, 0];
    for (const id of ids) {
      const q = validateQueueOf(id, 4);
      expect(validateQueueOf(id, 4)).toBe(q);
      counts[q] = (counts[q] ?? 0) + 1;
    }
    // 400 games over 4 queues: each gets a share, none all of them
    for (const n of counts) expect(n).toBeGreaterThan(50);
    expect(validateQueueOf('anything', 1)).toBe(0);
  });

  it("splits a tick's moves by game over the queues: one job per queue, a game's moves together", async () => {
    const queues = [recordingQueue<ValidateJob>(), recordingQueue<ValidateJob>(), recordingQueue<ValidateJob>()];
    const moves = Array.from({ length: 30 }, (_, i) => ({ gameId: `game-${i % 10}`, seq: 2 + i }));
    const jobs = await enqueueValidate(queues, moves);
    const used = queues.filter((q) => q.added.length > 0);
    expect(jobs).toHaveLength(used.length);
    expect(used.length).toBeGreaterThan(1);
    queues.forEach((queue, i) => {
      expect(queue.added.length).toBeLessThanOrEqual(1);
      for (const added of queue.added) {
        const carried = 'moves' in added.data ? added.data.moves : [added.data];
        for (const m of carried) expect(validateQueueOf(m.gameId, 3)).toBe(i);
      }
    });
    const carried = queues.flatMap((q) => q.added.flatMap((a) => ('moves' in a.data ? a.data.moves : [a.data])));
    expect(carried).toHaveLength(moves.length);
  });
});

const side = { mainMs: 60_000, periodsLeft: 1, periodMs: 10_000 };

describe('enqueueFlagCheck', () => {
  it('queues one job per turn, due after the delay; a copy under a suffix', async () => {
    const queue = recordingQueue<FlagJobData>();
    await enqueueFlagCheck(queue, { gameId: 'g', ply: 4 }, { delay: 1500 });
    await enqueueFlagCheck(queue, { gameId: 'g', ply: 4 }, { copy: 'sweep2' });
    expect(queue.added.map((a) => [a.name, a.data, a.opts.jobId, a.opts.delay])).toEqual([
      [FLAG_QUEUE, { gameId: 'g', ply: 4 }, 'flag-g-4', 1500],
      [FLAG_QUEUE, { gameId: 'g', ply: 4 }, 'flag-g-4-sweep2', 0],
    ]);
  });

  it('gives a turn that comes again after a takeback a job of its own', async () => {
    const queue = recordingQueue<FlagJobData>();
    const tc = { kind: 'byoyomi', mainSeconds: 60, byoyomiSeconds: 10, periods: 1 } as const;
    const clock = { timeControl: tc, sente: side, gote: side, toMove: 'sente' as const, turnStartedAt: 0 };
    const state = { ...initialState(), status: 'ongoing' as const, ply: 4, clock };
    await scheduleFlag(queue, 'g', state, 0);
    await scheduleFlag(queue, 'g', { ...state, takebacks: 1 }, 0);
    expect(queue.added.map((a) => a.opts.jobId)).toEqual(['flag-g-4', 'flag-g-4-t1']);
  });

  it('splits the checks by game over several queues, each game on the index of its validate queue', async () => {
    expect(flagQueueNames(1)).toEqual(['flag']);
    // every process places a queue by its index among its kind: validate-i and flag-i together
    expect(flagQueuePlaces(2)).toEqual([
      { name: 'flag-0', share: { index: 0, of: 2 } },
      { name: 'flag-1', share: { index: 1, of: 2 } },
    ]);
    expect(validateQueuePlaces(2).map((p) => p.share)).toEqual(flagQueuePlaces(2).map((p) => p.share));
    expect(validateQueuePlaces(1)).toEqual([{ name: 'validate', share: { index: 0, of: 1 } }]);
    expect(flagQueueNames(3)).toEqual(['flag-0', 'flag-1', 'flag-2']);
    expect(() => flagQueueNames(0)).toThrow(/at least 1/);
    const queues = [0, 1, 2].map(() => recordingQueue<FlagJobData>());
    const games = Array.from({ length: 30 }, (_, i) => `game-${i}`);
    for (const gameId of games) await enqueueFlagCheck(queues, { gameId, ply: 1 }, { delay: 10 });
    queues.forEach((q, i) => {
      for (const a of q.added) expect(validateQueueOf(a.data.gameId, 3)).toBe(i);
    });
    expect(queues.every((q) => q.added.length > 0)).toBe(true);
    expect(queues.flatMap((q) => q.added)).toHaveLength(games.length);
  });
});

describe('a game channel', () => {
  const recorded = (seq: number, type: string, data: unknown): RecordedEvent =>
    ({ gameId: 'g', seq, type, data, recordedAt: '2024-01-01T00:00:00.000Z', globalPosition: seq }) as RecordedEvent;

  it('is named by the game under the prefix', () => {
    expect(gameChannel('g1')).toBe('game:g1');
    expect(gameChannel('g1', 'test:')).toBe('test:game:g1');
    expect(gameChannel('g1', 'test:', 1)).toBe('test:game:g1');
  });

  it("with several validate queues, sits in the share of the slot space its game's queue takes", () => {
    for (const of of [2, 3, 4, 6]) {
      const parts = new Set<number>();
      for (let i = 0; i < 200; i++) {
        const id = `game-${i}`;
        const channel = gameChannel(id, 'deploy:', of);
        expect(channel.startsWith('deploy:game:{game')).toBe(true);
        expect(channel.endsWith(`}${id}`)).toBe(true);
        const index = validateQueueOf(id, of);
        const slot = slotOf(channel);
        expect(slot).toBeGreaterThanOrEqual(Math.floor((index * HASH_SLOTS) / of));
        expect(slot).toBeLessThan(Math.floor(((index + 1) * HASH_SLOTS) / of));
        // one slot per queue, whichever the prefix
        expect(slotOf(gameChannel(id, 'other:', of))).toBe(slot);
        parts.add(index);
      }
      expect(parts.size).toBe(of);
    }
  });

  it('carries envelopes that read back as wire events, verdicts and submitters', () => {
    const submitted = JSON.parse(
      JSON.stringify(
        toEnvelope(recorded(2, 'MoveSubmitted', { color: 'gote', usi: '3c3d', ply: 1, playerId: 'p', receivedAt: '' })),
      ),
    );
    const accepted = toEnvelope(recorded(3, 'MoveAccepted', { submittedSeq: 2, ply: 2, usi: '3c3d' }));
    const rejected = toEnvelope(recorded(4, 'MoveRejected', { submittedSeq: 2, ply: 1, usi: '3c3d', reason: 'x' }));
    const wire = toWire(submitted);
    expect(wire).toEqual({
      seq: 2,
      type: 'MoveSubmitted',
      payload: submitted.data,
      recordedAt: '2024-01-01T00:00:00.000Z',
    });
    expect(wire && submitterOf(wire)).toBe('gote');
    const a = toWire(accepted);
    const r = toWire(rejected);
    expect(a && verdictOf(a)).toEqual({ submittedSeq: 2, seq: 3, ply: 1, usi: '3c3d', accepted: true });
    expect(r && verdictOf(r)).toEqual({ submittedSeq: 2, seq: 4, ply: 1, usi: '3c3d', accepted: false, reason: 'x' });
    expect(wire && verdictOf(wire)).toBeNull();
    expect(a && submitterOf(a)).toBeNull();
  });

  it('puts verdicts behind the submissions they decide, or alone when one is unknown', () => {
    const submitted = recorded(2, 'MoveSubmitted', { color: 'sente', usi: '7g7f', ply: 0 });
    const verdict = recorded(3, 'MoveAccepted', { submittedSeq: 2, ply: 1, usi: '7g7f' });
    const ended = recorded(4, 'GameEnded', { winner: 'sente', reason: 'checkmate' });
    expect(messageOf([verdict, ended], submissionsIn([submitted])).map((e) => e.seq)).toEqual([2, 3, 4]);
    const copy = toEnvelope(submitted);
    expect(messageOf([verdict], submissionsIn([], copy))).toEqual([copy, toEnvelope(verdict)]);
    expect(messageOf([verdict, ended]).map((e) => e.seq)).toEqual([3, 4]);
    expect(messageOf([recorded(5, 'Resigned', { color: 'gote' })]).map((e) => e.type)).toEqual(['Resigned']);
  });

  it('reads anything but an event as nothing', () => {
    for (const junk of [null, 3, 'x', {}, { seq: '1', type: 'A' }, { seq: 1 }]) expect(toWire(junk)).toBeNull();
  });
});
