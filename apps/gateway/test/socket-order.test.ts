import type { ServerMessage, WireEvent } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { SocketOrder } from '../src/domain/socket-order.js';

const at = '2026-01-01T00:00:00.000Z';
const submitted = (seq: number, color: 'sente' | 'gote', ply: number): WireEvent => ({
  seq,
  type: 'MoveSubmitted',
  payload: { color, usi: '7g7f', ply, playerId: color },
  recordedAt: at,
});
const accepted = (seq: number, submittedSeq: number, ply: number): WireEvent => ({
  seq,
  type: 'MoveAccepted',
  payload: { submittedSeq, ply: ply + 1, usi: '7g7f', sfen: '', check: false },
  recordedAt: at,
});
const ended = (seq: number): WireEvent => ({ seq, type: 'GameEnded', payload: { result: 'gote_win' }, recordedAt: at });

/** A socket's order, with what it wrote as short labels: `events:2,3`, `ack:2`, `verdict:2`, `error`. */
function socket(side: 'sente' | 'gote' = 'sente', pending: number[] = []) {
  const written: string[] = [];
  const order = new SocketOrder(
    side,
    (frame) => {
      const m = JSON.parse(frame) as ServerMessage;
      if (m.type === 'events') written.push(`events:${m.events.map((e) => e.seq).join(',')}`);
      else if (m.type === 'ack') written.push(`ack:${m.seq}`);
      else if (m.type === 'verdict') written.push(`verdict:${m.submittedSeq}`);
      else written.push(m.type);
    },
    pending,
  );
  const events = (...list: WireEvent[]) =>
    order.events(list, JSON.stringify({ type: 'events', events: list } satisfies ServerMessage));
  const ack = (seq: number, move = true) =>
    order.acked(seq, JSON.stringify({ type: 'ack', seq } satisfies ServerMessage), move);
  return { order, written, events, ack };
}

describe("SocketOrder: no frame tells a submission's outcome before its ack", () => {
  test('with no command in flight, events and verdicts go straight out', () => {
    const s = socket();
    s.events(submitted(2, 'sente', 0), accepted(3, 2, 0));
    s.events(submitted(4, 'gote', 1), accepted(5, 4, 1));
    expect(s.written).toEqual(['events:2,3', 'verdict:2', 'events:4,5']);
  });

  test("the events frame with a submission's verdict, come before the append answered, waits for the ack", () => {
    const s = socket();
    s.order.begin();
    s.events(submitted(2, 'sente', 0), accepted(3, 2, 0));
    expect(s.written).toEqual([]);
    s.ack(2);
    expect(s.written).toEqual(['ack:2', 'events:2,3', 'verdict:2']);
  });

  test("an ending command's own events, delivered before it returns, wait for its ack", () => {
    const s = socket();
    s.order.begin();
    s.events({ seq: 2, type: 'Resigned', payload: { color: 'sente' }, recordedAt: at }, ended(3));
    s.ack(2, false);
    expect(s.written).toEqual(['ack:2', 'events:2,3']);
  });

  test('everything the stream brings keeps its order behind the held frames', () => {
    const s = socket();
    s.order.begin();
    s.events(submitted(2, 'sente', 0));
    s.events(accepted(3, 2, 0));
    s.events(submitted(4, 'gote', 1), accepted(5, 4, 1));
    s.ack(2);
    s.events(ended(6));
    expect(s.written).toEqual(['ack:2', 'events:2', 'events:3', 'verdict:2', 'events:4,5', 'events:6']);
  });

  test('a refused command (an error frame) releases what was held', () => {
    const s = socket();
    s.order.begin();
    s.events(submitted(2, 'gote', 0), accepted(3, 2, 0));
    s.order.settled();
    expect(s.written).toEqual(['events:2,3']);
  });

  test('the ack of a replayed submission whose verdict was already written is followed by the verdict again', () => {
    const s = socket();
    // a reconnected socket's catch-up brings the submission and its verdict; then the
    // client replays the submission under its key and is acked with the same seq
    s.events(submitted(2, 'sente', 0), accepted(3, 2, 0));
    s.order.begin();
    s.ack(2);
    expect(s.written).toEqual(['events:2,3', 'verdict:2', 'ack:2', 'verdict:2']);
  });

  test('a verdict held for the ack is written once', () => {
    const s = socket();
    s.order.begin();
    s.events(submitted(2, 'sente', 0), accepted(3, 2, 0));
    s.ack(2);
    expect(s.written.filter((w) => w === 'verdict:2')).toHaveLength(1);
  });

  test('a submission acknowledged here gets its verdict when the socket resumed past its MoveSubmitted', () => {
    const s = socket();
    // resumed with after=2: seq 2 (this player's submission) is not in the stream
    s.order.begin();
    s.ack(2);
    s.events(accepted(3, 2, 0));
    expect(s.written).toEqual(['ack:2', 'events:3', 'verdict:2']);
  });

  test('a replay acknowledged after its verdict went by unrecognised (resumed past its MoveSubmitted) gets the verdict', () => {
    const s = socket();
    // resumed with after=2; the catch-up brings the verdict while the replay is in flight
    s.order.begin();
    s.events(accepted(3, 2, 0));
    s.ack(2);
    expect(s.written).toEqual(['ack:2', 'events:3', 'verdict:2']);
    // and when it came before the replay was sent
    const t = socket();
    t.events(accepted(3, 2, 0));
    t.order.begin();
    t.ack(2);
    expect(t.written).toEqual(['events:3', 'ack:2', 'verdict:2']);
  });

  test("a socket resumed past its player's pending submission sends that submission's verdict", () => {
    // submitted at seq 2 (over HTTP, or on a socket since dropped); this one opened with after=2
    const s = socket('sente', [2]);
    s.events(accepted(3, 2, 0));
    expect(s.written).toEqual(['events:3', 'verdict:2']);
  });

  test("the other side's verdicts are no verdict frames of this socket", () => {
    const s = socket('gote');
    s.events(submitted(2, 'sente', 0), accepted(3, 2, 0));
    expect(s.written).toEqual(['events:2,3']);
  });
});
