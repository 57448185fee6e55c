/**
 * The order a player socket's client saw, checked after the fact (issue 43): an ack that
 * answers a move's first sending comes before any frame telling the move's outcome (its
 * `verdict`, an `events` frame with its MoveAccepted/MoveRejected), and every ack of a move is
 * followed by exactly one `verdict` frame for it (none only when the connection closed first:
 * the client then resent the move, and the next ack has it).
 */
import type { ServerMessage } from '@shogi/protocol';

/** One connection of a client: the frames it received, in order. */
export interface SocketLog {
  readonly frames: ServerMessage[];
  closed: boolean;
}

/** A move's ack, where the client got it; `first`: it answers the move's first sending. */
export interface AckSeen {
  readonly log: SocketLog;
  /** the ack's place in `log.frames` */
  readonly index: number;
  readonly seq: number;
  readonly usi: string;
  readonly first: boolean;
}

export const tellsVerdictOf = (m: ServerMessage, seq: number): boolean =>
  (m.type === 'verdict' && m.submittedSeq === seq) ||
  (m.type === 'events' &&
    m.events.some((e) => (e.type === 'MoveAccepted' || e.type === 'MoveRejected') && e.payload.submittedSeq === seq));

/** What broke the order, one line each; empty when all holds. */
export function ackOrderProblems(acks: readonly AckSeen[]): string[] {
  const problems: string[] = [];
  for (const { log, index, seq, usi, first } of acks) {
    const early = log.frames.slice(0, index).filter((m) => tellsVerdictOf(m, seq));
    if (first && early.length > 0)
      problems.push(`seq ${seq} (${usi}): ${early.map((m) => m.type).join(', ')} before its ack`);
    const verdicts = log.frames.slice(index + 1).filter((m) => m.type === 'verdict' && m.submittedSeq === seq);
    if (verdicts.length > 1 || (verdicts.length === 0 && !log.closed))
      problems.push(`seq ${seq} (${usi}): ${verdicts.length} verdict frames after its ack`);
  }
  return problems;
}
