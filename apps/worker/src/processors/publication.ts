/**
 * What a job publishes on its game's channel after an append: the appended events, behind
 * the recorded submissions their verdicts decide. Gateways do not publish a MoveSubmitted on
 * its own (every player and spectator socket would get a frame of its own a few milliseconds
 * before its verdict), so the submissions go out here. Without all of them the verdicts go
 * alone and subscribers, seeing the gap, read it from the log.
 */
import type { RecordedEvent } from '@shogi/game';
import { type EventEnvelope, toEnvelope } from '@shogi/pipeline';
import type { Logger } from 'pino';

export type Publish = (gameId: string, events: readonly EventEnvelope[]) => Promise<void>;

/** The recorded submissions among `read` (seq -> envelope), after `known` ones the job brought. */
export function submissionsIn(
  read: readonly RecordedEvent[],
  known?: EventEnvelope,
): ReadonlyMap<number, EventEnvelope> {
  const out = new Map<number, EventEnvelope>();
  if (known !== undefined) out.set(known.seq, known);
  for (const e of read) if (e.type === 'MoveSubmitted') out.set(e.seq, toEnvelope(e));
  return out;
}

/** The submissions `appended` gives verdicts on, in seq order; none unless all are known. */
export function submissionsDecided(
  appended: readonly RecordedEvent[],
  submissions: ReadonlyMap<number, EventEnvelope>,
): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  for (const e of appended) {
    if (e.type !== 'MoveAccepted' && e.type !== 'MoveRejected') continue;
    const submission = submissions.get(e.data.submittedSeq);
    if (submission === undefined) return [];
    out.push(submission);
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/**
 * Publishes the appended events behind the submissions they decide. The log is the truth: a
 * lost publish costs a client a catch-up read by seq, never a verdict, so a failure is logged.
 */
export async function publishAppended(
  publish: Publish,
  logger: Logger | undefined,
  gameId: string,
  appended: readonly RecordedEvent[],
  submissions: ReadonlyMap<number, EventEnvelope>,
): Promise<void> {
  const message = [...submissionsDecided(appended, submissions), ...appended.map(toEnvelope)];
  await publish(gameId, message).catch((err: unknown) => {
    logger?.warn({ err, gameId }, 'publish failed; clients catch up from the log');
  });
}
