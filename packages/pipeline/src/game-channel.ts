/**
 * A game's channel: where its new events are published (by workers, and by gateways for the
 * commands they end a game with), what a message holds, and how a subscriber reads it back.
 *
 * A message is the appended events, behind the recorded submissions their verdicts decide:
 * gateways do not publish a MoveSubmitted on its own (every player and spectator socket
 * would get a frame of its own a few milliseconds before its verdict), so the worker that
 * decides it publishes it. Without all of them the verdicts go alone and subscribers, seeing
 * the gap, read it from the log.
 */
import type { RecordedEvent } from '@shogi/game';
import type { Side, WireEvent } from '@shogi/protocol';
import { slotShareTag } from '@shogi/redis';
import { validateQueueOf } from './validate-jobs.js';

/**
 * The Redis channel of a game's new events; `channelPrefix` isolates deployments and tests.
 *
 * `shares` is the deployment's number of validate queues (`VALIDATE_QUEUES`). With one, the
 * channel is `game:<id>`, as it always was. With several, it carries a hash tag that puts it in
 * the same share of a cluster's slot space as the game's validate queue (`validateQueueOf`,
 * `queuePlaces`): `game:{game#2}<id>`. A game's whole hot path then sits on one master, its
 * validate jobs and the verdicts published for them, so a worker publishes what one job decided
 * in one command to the master it took the job from, and a gateway gets those verdicts in one
 * delivery from one master, not one from each. On a single Redis the tag changes nothing. Every
 * process of a deployment must agree on `shares`, as on the validate queues themselves.
 */
export function gameChannel(gameId: string, channelPrefix = '', shares = 1): string {
  if (shares <= 1) return `${channelPrefix}game:${gameId}`;
  return `${channelPrefix}game:{${gameShareTag(validateQueueOf(gameId, shares), shares)}}${gameId}`;
}

// a share's tag is searched for over CRC16s: worked out once per share, not once per message
const shareTags = new Map<string, string>();
function gameShareTag(index: number, of: number): string {
  const key = `${index}/${of}`;
  let tag = shareTags.get(key);
  if (tag === undefined) {
    tag = slotShareTag('game', { index, of });
    shareTags.set(key, tag);
  }
  return tag;
}

/** What is published on a game's channel: a JSON array of these. */
export interface EventEnvelope {
  readonly gameId: string;
  readonly seq: number;
  readonly type: string;
  readonly data: unknown;
  readonly recordedAt: string;
}

/** A recorded event as it goes out on its game's channel. */
export const toEnvelope = (e: RecordedEvent): EventEnvelope => ({
  gameId: e.gameId,
  seq: e.seq,
  type: e.type,
  data: e.data,
  recordedAt: e.recordedAt,
});

/** The recorded submissions among `read` (seq -> envelope), after one the caller brings. */
export function submissionsIn(
  read: readonly RecordedEvent[],
  known?: EventEnvelope,
): ReadonlyMap<number, EventEnvelope> {
  const out = new Map<number, EventEnvelope>();
  if (known !== undefined) out.set(known.seq, known);
  for (const e of read) if (e.type === 'MoveSubmitted') out.set(e.seq, toEnvelope(e));
  return out;
}

/** The message of appended events: the submissions they decide (all known, or none), then the events. */
export function messageOf(
  appended: readonly RecordedEvent[],
  submissions: ReadonlyMap<number, EventEnvelope> = new Map(),
): EventEnvelope[] {
  const decided: EventEnvelope[] = [];
  for (const e of appended) {
    if (e.type !== 'MoveAccepted' && e.type !== 'MoveRejected') continue;
    const submission = submissions.get(e.data.submittedSeq);
    if (submission === undefined) return appended.map(toEnvelope);
    decided.push(submission);
  }
  decided.sort((a, b) => a.seq - b.seq);
  for (const e of appended) decided.push(toEnvelope(e));
  return decided;
}

/** A recorded event, or its envelope, in the wire shape clients get. */
export function wireOf(e: Pick<EventEnvelope, 'seq' | 'type' | 'data' | 'recordedAt'>): WireEvent {
  return { seq: e.seq, type: e.type, payload: publicPayload(e.type, e.data), recordedAt: e.recordedAt };
}

/**
 * A submission's `blur` is fair-play evidence for moderators (lichess shows blurs to its
 * moderators only): it stays in the log and out of every feed.
 */
function publicPayload(type: string, data: unknown): Record<string, unknown> {
  const payload = data as Record<string, unknown>;
  if (type !== 'MoveSubmitted' || payload.blur === undefined) return payload;
  const { blur: _kept, ...rest } = payload;
  return rest;
}

/** An element of a message read from a channel, in the wire shape; null when it is no event. */
export function toWire(published: unknown): WireEvent | null {
  const e = published as Partial<EventEnvelope> | null;
  if (!e || typeof e.seq !== 'number' || typeof e.type !== 'string') return null;
  return wireOf(e as EventEnvelope);
}

/** A worker's verdict on a submission, as its player's socket reports it. */
export interface Verdict {
  readonly submittedSeq: number;
  readonly seq: number;
  readonly ply: number;
  readonly usi: string;
  readonly accepted: boolean;
  readonly reason?: string;
}

/** The verdict an event carries on a submission, or null when it is no verdict. */
export function verdictOf(event: WireEvent): Verdict | null {
  if (event.type !== 'MoveAccepted' && event.type !== 'MoveRejected') return null;
  const d = event.payload as { submittedSeq: number; ply: number; usi: string; reason?: string };
  const accepted = event.type === 'MoveAccepted';
  return {
    submittedSeq: d.submittedSeq,
    seq: event.seq,
    // MoveAccepted.ply counts the move itself; a verdict reports the ply it was sent for
    ply: accepted ? d.ply - 1 : d.ply,
    usi: d.usi,
    accepted,
    ...(d.reason === undefined ? {} : { reason: d.reason }),
  };
}

/** The side that made the submission an event records, or null when it is no submission. */
export function submitterOf(event: WireEvent): Side | null {
  if (event.type !== 'MoveSubmitted') return null;
  const color = (event.payload as { color?: unknown }).color;
  return color === 'sente' || color === 'gote' ? color : null;
}
