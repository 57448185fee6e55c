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
 * Every ack of a move is followed by its verdict: a verdict seen before the ack (the ack of a
 * submission replayed under its idempotency key, after a reconnect or a lost answer) is
 * written (again) after it. A submission acknowledged here, or awaiting its verdict when the
 * socket opened, counts as this player's even when the socket resumed (`after=`) past its
 * MoveSubmitted: its verdict frame comes all the same.
 */
import { submitterOf, type Verdict, verdictOf } from '@shogi/pipeline';
import type { ServerMessage, Side, WireEvent } from '@shogi/protocol';

/**
 * Verdicts seen, kept for a replayed ack: a client replays its latest submissions, so the
 * most recent few are enough.
 */
const REMEMBERED_VERDICTS = 32;

const verdictFrame = (verdict: Verdict): string =>
  JSON.stringify({ type: 'verdict', ...verdict } satisfies ServerMessage);

export class SocketOrder {
  readonly #side: Side;
  readonly #write: (frame: string) => void;
  #inFlight = false;
  readonly #held: string[] = [];
  /** submitted seqs whose verdict frame is among the held frames */
  readonly #heldVerdicts = new Set<number>();
  /** seqs of this player's submissions whose verdict has not been seen */
  readonly #mine = new Set<number>();
  /** submitted seq -> its verdict, for every verdict seen (this player's or not) */
  readonly #verdicts = new Map<number, Verdict>();

  /**
   * `write` puts one frame (a ServerMessage in JSON) on the socket; `pending`: the player's
   * submissions awaiting their verdict when the socket opened, whose MoveSubmitted a socket
   * resumed with `after=` may not see again.
   */
  constructor(side: Side, write: (frame: string) => void, pending: readonly number[] = []) {
    this.#side = side;
    this.#write = write;
    for (const seq of pending) this.#mine.add(seq);
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
      if (verdict === null) continue;
      this.#remember(verdict);
      if (this.#mine.delete(verdict.submittedSeq)) this.#verdict(verdict);
    }
  }

  /**
   * The command in flight was recorded at `seq` (a move's submission when `move`): its ack,
   * then what was held, then its verdict if it came before the ack and is not among them.
   */
  acked(seq: number, frame: string, move: boolean): void {
    this.#write(frame);
    if (move) {
      const verdict = this.#verdicts.get(seq);
      if (verdict === undefined) this.#mine.add(seq);
      else if (!this.#heldVerdicts.has(seq)) this.#held.push(verdictFrame(verdict));
    }
    this.settled();
  }

  /**
   * The command in flight has answered (after its ack, or with an error frame written by
   * the caller): what was held leaves.
   */
  settled(): void {
    this.#inFlight = false;
    this.#heldVerdicts.clear();
    for (const frame of this.#held.splice(0)) this.#write(frame);
  }

  #verdict(verdict: Verdict): void {
    if (this.#inFlight) this.#heldVerdicts.add(verdict.submittedSeq);
    this.#out(verdictFrame(verdict));
  }

  #out(frame: string): void {
    if (this.#inFlight) this.#held.push(frame);
    else this.#write(frame);
  }

  #remember(verdict: Verdict): void {
    this.#verdicts.set(verdict.submittedSeq, verdict);
    if (this.#verdicts.size > REMEMBERED_VERDICTS) {
      const oldest = this.#verdicts.keys().next().value;
      if (oldest !== undefined) this.#verdicts.delete(oldest);
    }
  }
}
