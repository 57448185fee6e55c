import { decide, fold, type GameEvent, type GameState, initialState } from '@shogi/game';
import { createInMemoryEventStore, GOTE, gameCreated, SENTE, T0 } from '@shogi/game/testing';
import type { EventEnvelope } from '@shogi/pipeline';
import { describe, expect, it } from 'vitest';
import { createFlagProcessor, createValidateProcessor } from '../src/index.js';

const S = 1000;
const at = (ms: number) => new Date(T0.getTime() + ms);

/** A byoyomi 0 + 10 s game whose two first moves came at 1 s and 2 s: sente's deadline is 12 s. */
async function setup() {
  const store = createInMemoryEventStore({ now: () => T0 });
  const published: EventEnvelope[] = [];
  const scheduled: { gameId: string; ply: number }[] = [];
  let now = at(0);
  const deps = {
    events: store,
    now: () => now,
    publish: async (_g: string, events: readonly EventEnvelope[]) => {
      published.push(...events);
    },
  };
  const validate = createValidateProcessor({
    ...deps,
    afterVerdict: async (gameId: string, s: GameState) => {
      scheduled.push({ gameId, ply: s.ply });
    },
  });
  const flag = createFlagProcessor({
    ...deps,
    schedule: async (gameId, s) => {
      scheduled.push({ gameId, ply: s.ply });
    },
  });
  await store.append('g1', 0, [
    gameCreated('g1', { timeControl: { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 10, periods: 1 } }),
  ]);
  const submit = async (usi: string, ms: number) => {
    const events = await store.readStream('g1');
    const state = fold(
      events.map((e) => ({ type: e.type, data: e.data }) as GameEvent),
      initialState(),
    );
    const player = state.sideToMove === 'sente' ? SENTE : GOTE;
    const d = decide({ type: 'SubmitMove', playerId: player.id, usi, ply: state.ply, now: at(ms) }, state);
    if (!d.ok) throw new Error(d.rejection.message);
    return (await store.append('g1', state.seq, d.events)).lastSeq;
  };
  for (const [usi, ms] of [
    ['7g7f', 1 * S],
    ['3c3d', 2 * S],
  ] as const) {
    now = at(ms);
    await validate({ gameId: 'g1', seq: await submit(usi, ms) });
  }
  return {
    store,
    published,
    scheduled,
    flag,
    submit,
    setNow: (ms: number) => {
      now = at(ms);
    },
  };
}

describe('flag processor', () => {
  it('schedules the flag job of each new turn after a verdict', async () => {
    const { scheduled } = await setup();
    expect(scheduled).toEqual([
      { gameId: 'g1', ply: 1 },
      { gameId: 'g1', ply: 2 },
    ]);
  });

  it('ends the game on time once, however often the job runs', async () => {
    const { store, flag, setNow, published } = await setup();
    setNow(13.5 * S);
    expect(await flag({ gameId: 'g1', ply: 2 })).toEqual({ appended: 1, ended: true });
    expect(await flag({ gameId: 'g1', ply: 2 })).toEqual({ appended: 0, ended: false });
    const ended = (await store.readStream('g1')).filter((e) => e.type === 'GameEnded');
    expect(ended.map((e) => e.data)).toEqual([{ winner: 'gote', reason: 'timeout', at: at(12 * S).toISOString() }]);
    expect(published.filter((e) => e.type === 'GameEnded')).toHaveLength(1);
  });

  it('asks to run again at the deadline when it comes early', async () => {
    const { flag, setNow } = await setup();
    setNow(5 * S);
    expect(await flag({ gameId: 'g1', ply: 2 })).toEqual({
      appended: 0,
      ended: false,
      retryAt: 13 * S + 1 + T0.getTime(),
    });
    // a job of an earlier turn, answered by a move, does nothing
    expect(await flag({ gameId: 'g1', ply: 1 })).toEqual({ appended: 0, ended: false });
  });

  it('gives a pending move received in time its verdict first, then schedules the next turn', async () => {
    const { flag, setNow, submit, scheduled, store } = await setup();
    await submit('2g2f', 11 * S);
    setNow(14 * S);
    expect(await flag({ gameId: 'g1', ply: 2 })).toEqual({ appended: 1, ended: false });
    expect(scheduled.at(-1)).toEqual({ gameId: 'g1', ply: 3 });
    expect((await store.readStream('g1')).at(-1)?.type).toBe('MoveAccepted');
  });
});
