/**
 * The spectators' rooms with no Redis and no database: a fake hub whose messages are
 * dropped, repeated and reordered, and an in-memory log. Whatever the hub does and
 * whenever a member joins (fresh or with `since`), each member gets every seq after its
 * start exactly once, in order.
 */
import type { GameView, WireEvent } from '@shogi/protocol';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Hub, HubListener } from '../src/domain/hub.js';
import { countsMessage, RemoteCounts } from '../src/domain/spectator-counts.js';
import { createSpectators, type Member, type Room } from '../src/domain/spectators.js';
import { DelayedView } from '../src/routes/stream.js';

const ev = (seq: number, type = seq === 1 ? 'GameCreated' : 'E', payload: Record<string, unknown> = {}): WireEvent => ({
  seq,
  type,
  payload,
  recordedAt: '2026-01-01T00:00:00.000Z',
});
const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

/** A hub that hands every published batch to the game's listeners at once. */
function fakeHub() {
  const listeners = new Set<HubListener>();
  const hub: Hub = {
    async join(_gameId, listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    deliver() {},
    get size() {
      return listeners.size;
    },
    async close() {},
  };
  return { hub, listeners };
}

function world() {
  const log: WireEvent[] = [ev(1)];
  const { hub, listeners } = fakeHub();
  const view = (): GameView => ({
    id: 'g',
    ruleset: 'default',
    initialSfen: 'x',
    sfen: 'x',
    moves: [],
    ply: 0,
    sideToMove: 'sente',
    status: 'ongoing',
    result: null,
    lastSeq: log.length,
    players: { sente: { id: 'a', name: 'a' }, gote: { id: 'b', name: 'b' } },
    timeControl: { kind: 'unlimited' },
    rated: false,
    clock: null,
    takeback: null,
  });
  const spectators = createSpectators({
    hub,
    view: async () => view(),
    eventsAfter: async (_g, after, limit = 1000) => log.filter((e) => e.seq > after).slice(0, limit),
    toWire: (e) => e as WireEvent,
    log: { warn: () => {}, error: () => {} },
  });
  const publish = (events: WireEvent[]) => {
    for (const l of listeners) l(events);
  };
  const append = () => {
    const e = ev(log.length + 1);
    log.push(e);
    return e;
  };
  return { log, spectators, publish, append, view };
}

function member() {
  const seqs: number[] = [];
  const first: string[] = [];
  const m: Member = { write: (batch) => seqs.push(...batch.events.map((e) => e.seq)) };
  const onFirst = (room: Room) => first.push(room.snapshotFrame());
  return { m, seqs, first, onFirst };
}

describe('spectator rooms', () => {
  test('a fresh member gets the snapshot (with the count), then each batch once', async () => {
    const w = world();
    const a = member();
    await w.spectators.join('g', a.m, {}, a.onFirst);
    expect(JSON.parse(a.first[0] as string)).toMatchObject({ type: 'snapshot', game: { seq: 1, spectators: 1 } });
    const e2 = w.append();
    const e3 = w.append();
    w.publish([e2, e3]);
    w.publish([e2]);
    expect(a.seqs).toEqual([2, 3]);
  });

  test('a resuming member reads the log while live batches queue for it: no gap, no repeat', async () => {
    const w = world();
    const watcher = member();
    await w.spectators.join('g', watcher.m, {}, watcher.onFirst);
    for (let i = 0; i < 3; i++) w.publish([w.append()]);
    const back = member();
    const joined = w.spectators.join('g', back.m, { since: 2 }, back.onFirst);
    await joined; // the catch-up read is in flight now
    w.publish([w.append()]);
    await flush();
    expect(back.seqs).toEqual([3, 4, 5]);
    expect(w.spectators.count('g')).toBe(2);
  });

  test('property: dropped, repeated and reordered messages, members joining any time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('append' as const), deliver: fc.constantFrom('yes', 'no', 'twice', 'late') }),
            fc.record({ kind: fc.constant('join' as const), back: fc.nat(5) }),
            fc.record({ kind: fc.constant('tick' as const) }),
          ),
          { maxLength: 40 },
        ),
        async (steps) => {
          const w = world();
          const members: { start: number; seqs: number[] }[] = [];
          const late: WireEvent[] = [];
          // one member from the start so the room stays open
          const first = member();
          await w.spectators.join('g', first.m, {}, first.onFirst);
          members.push({ start: 1, seqs: first.seqs });
          for (const step of steps) {
            if (step.kind === 'append') {
              const e = w.append();
              if (step.deliver === 'yes') w.publish([e]);
              if (step.deliver === 'twice') w.publish([e, e]);
              if (step.deliver === 'late') late.push(e);
            } else if (step.kind === 'join') {
              const since = Math.max(0, w.log.length - step.back);
              const m = member();
              await w.spectators.join('g', m.m, { since }, m.onFirst);
              members.push({ start: since, seqs: m.seqs });
            } else {
              w.publish(late.splice(0).reverse());
              await flush();
            }
          }
          // the next live event (or, after Redis came back, a resync) reveals any gap
          w.publish([...late.splice(0), w.append()]);
          await flush();
          w.spectators.resync(0);
          await flush();
          const last = w.log.length;
          for (const m of members) {
            expect(m.seqs).toEqual(Array.from({ length: last - m.start }, (_, i) => m.start + 1 + i));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('spectator rooms leave nothing behind', () => {
  /** A world whose snapshot read waits for `release()`, so joins can be started at any point of a room's opening. */
  function gatedWorld() {
    const { hub, listeners } = fakeHub();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const base = world();
    const spectators = createSpectators({
      hub,
      view: async () => {
        await gate;
        return base.view();
      },
      eventsAfter: async () => [],
      toWire: (e) => e as WireEvent,
      log: { warn: () => {}, error: () => {} },
    });
    return { spectators, listeners, release };
  }

  // a join started in any microtask after the room's snapshot arrives (in the window where
  // the opening was over but the room not yet listed, a second room used to be opened, whose
  // members could never leave: sockets and subscriptions piled up on a busy gateway)
  test.each(Array.from({ length: 16 }, (_, depth) => depth))(
    'a join %i microtasks after the snapshot: after everyone leaves, no room and no subscription is left',
    async (depth) => {
      const { spectators, listeners, release } = gatedWorld();
      const a = member();
      const b = member();
      const joinA = spectators.join('g', a.m, {}, a.onFirst);
      await flush();
      release();
      let delay: Promise<void> = Promise.resolve();
      for (let i = 0; i < depth; i++) delay = delay.then(() => {});
      const joinB = delay.then(() => spectators.join('g', b.m, {}, b.onFirst));
      const [roomA, roomB] = await Promise.all([joinA, joinB]);
      expect(roomB).toBe(roomA);
      spectators.leave('g', a.m);
      spectators.leave('g', b.m);
      expect(spectators.rooms.size).toBe(0);
      expect(listeners.size).toBe(0);
    },
  );

  test('a join racing the last leave lands in a live room, and its own leave closes it', async () => {
    const { spectators, listeners, release } = gatedWorld();
    release();
    const a = member();
    await spectators.join('g', a.m, {}, a.onFirst);
    const b = member();
    const joinB = spectators.join('g', b.m, {}, b.onFirst);
    spectators.leave('g', a.m); // the room closes while b's join is between its steps
    const room = await joinB;
    expect(room.closed).toBe(false);
    expect(spectators.rooms.get('g')).toBe(room);
    spectators.leave('g', b.m);
    expect(spectators.rooms.size).toBe(0);
    expect(listeners.size).toBe(0);
  });
});

describe('the delayed view of the NDJSON stream', () => {
  const created = ev(1, 'GameCreated', {
    gameId: 'g',
    sente: { id: 'a', name: 'a' },
    gote: { id: 'b', name: 'b' },
    ruleset: 'default',
    initialSfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  });
  const sub = (seq: number) => ev(seq, 'MoveSubmitted', { usi: `m${seq}` });
  const acc = (seq: number, ply: number) => ev(seq, 'MoveAccepted', { usi: `m${ply}`, ply, sfen: 's w - 1' });

  test('delay 2: a move shows once two more are played; its submission waits with it; the end releases all', () => {
    const view = new DelayedView(2);
    expect(view.push([created]).map((e) => e.seq)).toEqual([1]);
    expect(view.push([sub(2), acc(3, 1), sub(4), acc(5, 2)])).toEqual([]);
    expect(view.push([sub(6), acc(7, 3)]).map((e) => e.seq)).toEqual([2, 3]);
    expect(view.snapshot?.moves).toEqual(['m1']);
    expect(view.push([sub(8)])).toEqual([]);
    const end = ev(9, 'GameEnded', { winner: 'sente', reason: 'resignation' });
    expect(view.push([end]).map((e) => e.seq)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(view.snapshot).toMatchObject({ moves: ['m1', 'm2', 'm3'], status: 'ended', seq: 9 });
  });
});

describe('spectator counts of the other gateways', () => {
  test('sums the others, ignores its own, forgets a silent gateway', () => {
    const counts = new RemoteCounts('me', 3000);
    counts.receive(countsMessage('me', [['g', 5]]), 0);
    counts.receive(
      countsMessage('b', [
        ['g', 2],
        ['h', 0],
      ]),
      0,
    );
    counts.receive(countsMessage('c', [['g', 1]]), 1000);
    counts.receive('not json', 1000);
    expect([counts.of('g'), counts.of('h')]).toEqual([3, 0]);
    // b's next message replaces its counts
    counts.receive(countsMessage('b', []), 2000);
    expect(counts.of('g')).toBe(1);
    counts.recount(4500);
    expect(counts.of('g')).toBe(0);
  });
});
