/**
 * The order of a player socket's outgoing frames (pure; the socket route does the I/O).
 *
 * A submission's outcome can reach this gateway before the command that recorded it has
 * answered: the worker may validate and publish the verdict (or another gateway's worker,
 * or a catch-up read may find it) while the append or the job's enqueue is still returning,
 * and an ending command's own events are delivered locally just before it returns. The seq
 * of a command in flight is unknown until it answers, so while one is in flight every frame
 * the stream brings (`events` and `verdict` frames) is held, and leaves right after the
 * command's ack or error. Nothing that tells a submission's outcome can then precede its ack.
 *
 * Every ack is followed by its verdict: a verdict already written before the ack (the ack of
 * a submission replayed under its idempotency key, after a reconnect or a lost answer) is
 * written again after it, and a submission acknowledged here counts as this player's even
 * when the socket resumed (`after=`) past its MoveSubmitted.
 */
import { submitterOf, verdictOf } from '@shogi/pipeline';
import type { ServerMessage, Side, WireEvent } from '@shogi/protocol';

/**
 * Verdicts already written, kept for a replayed ack: a client replays its latest
 * submissions, so the most recent few are enough.
 */
const REMEMBERED_VERDICTS = 32;

export class SocketOrder {
  readonly #side: Side;
  readonly #write: (frame: string) => void;
  #inFlight = false;
  readonly #held: string[] = [];
  /** seqs of this player's submissions whose verdict has not been seen */
  readonly #mine = new Set<number>();
  /** submitted seq -> the verdict frame made for it (written or held) */
  readonly #verdicts = new Map<number, string>();

  /** `write` puts one frame (a ServerMessage in JSON) on the socket. */
  constructor(side: Side, write: (frame: string) => void) {
    this.#side = side;
    this.#write = write;
  }

  /** A command was taken up: what the stream brings waits for its answer. */
  begin(): void {
    this.#inFlight = true;
  }

  /** The stream's next events, and their `events` frame. */
  events(events: readonly WireEvent[], frame: string): void {
    this.#out(frame);
    for (const event of events) {
      if (submitterOf(event) === this.#side) this.#mine.add(event.seq);
      const verdict = verdictOf(event);
      if (verdict === null || !this.#mine.delete(verdict.submittedSeq)) continue;
      const verdictFrame = JSON.stringify({ type: 'verdict', ...verdict } satisfies ServerMessage);
      this.#remember(verdict.submittedSeq, verdictFrame);
      this.#out(verdictFrame);
    }
  }

  /**
   * The command in flight was recorded at `seq` (a move's submission when `move`): its ack,
   * the verdict again if one was written before it, then what was held.
   */
  acked(seq: number, frame: string, move: boolean): void {
    this.#write(frame);
    const verdict = move ? this.#verdicts.get(seq) : undefined;
    if (verdict !== undefined && !this.#held.includes(verdict)) this.#write(verdict);
    else if (move && verdict === undefined) this.#mine.add(seq);
    this.settled();
  }

  /**
   * The command in flight has answered (after its ack, or with an error frame written by
   * the caller): what was held leaves.
   */
  settled(): void {
    this.#inFlight = false;
    for (const frame of this.#held.splice(0)) this.#write(frame);
  }

  #out(frame: string): void {
    if (this.#inFlight) this.#held.push(frame);
    else this.#write(frame);
  }

  #remember(seq: number, frame: string): void {
    this.#verdicts.set(seq, frame);
    if (this.#verdicts.size > REMEMBERED_VERDICTS) {
      const oldest = this.#verdicts.keys().next().value;
      if (oldest !== undefined) this.#verdicts.delete(oldest);
    }
  }
}
