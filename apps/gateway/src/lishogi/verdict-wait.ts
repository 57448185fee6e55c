/**
 * The worker's verdict on a submission, waited for: lishogi answers a move POST once the move
 * is played (200) or refused (400), and its clients take the 200 as "played". The gateway
 * records a submission and the worker judges it a few milliseconds later; the POST waits for
 * that, but never as long as a client waits for an answer (lishogi-bot gives up on a POST
 * after 2 s and sends it again): past the wait it answers as the native route does, recorded.
 */
import { toWire, type Verdict, verdictOf } from '@shogi/pipeline';
import type { WireEvent } from '@shogi/protocol';
import type { Hub } from '../domain/hub.js';

/** How long a move POST waits for its verdict, ms; as long again at most for the subscription. */
export const VERDICT_WAIT_MS = 1000;

export interface VerdictWatch {
  /**
   * The verdict on the submission at `seq`, or null when none came within `ms` and the log
   * has none either (or cannot be read): the submission is recorded all the same.
   */
  of(seq: number, ms: number): Promise<Verdict | null>;
  close(): void;
}

/**
 * Listens to the game's channel before the submission is made: its verdict can come back
 * before the command that recorded it has answered. The subscription is waited for `joinMs`
 * at most: with Redis away it would wait for Redis, and the verdict is in the log anyway.
 */
export async function watchVerdicts(
  hub: Hub,
  gameId: string,
  readAfter: (seq: number) => Promise<readonly WireEvent[]>,
  joinMs: number,
): Promise<VerdictWatch> {
  const seen = new Map<number, Verdict>();
  const waiting = new Map<number, (verdict: Verdict) => void>();
  let leave: (() => void) | null = null;
  let closed = false;
  const joined = hub
    .join(gameId, (published) => {
      for (const item of published) {
        const event = toWire(item);
        const verdict = event === null ? null : verdictOf(event);
        if (verdict === null) continue;
        const wake = waiting.get(verdict.submittedSeq);
        if (wake) wake(verdict);
        else seen.set(verdict.submittedSeq, verdict);
      }
    })
    .then(
      (off) => {
        if (closed) off();
        else leave = off;
      },
      () => {
        // not subscribed: the log is read at the end of the wait
      },
    );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([joined, new Promise<void>((resolve) => (timer = setTimeout(resolve, joinMs)))]);
  clearTimeout(timer);
  return {
    async of(seq, ms) {
      const heard =
        seen.get(seq) ??
        (await new Promise<Verdict | null>((resolve) => {
          const timer = setTimeout(() => {
            waiting.delete(seq);
            resolve(null);
          }, ms);
          waiting.set(seq, (verdict) => {
            clearTimeout(timer);
            waiting.delete(seq);
            resolve(verdict);
          });
        }));
      if (heard !== null) return heard;
      // a message lost on the way (Redis away or restarting) is in the log
      const events = await readAfter(seq).catch(() => []);
      for (const event of events) {
        const verdict = verdictOf(event);
        if (verdict?.submittedSeq === seq) return verdict;
      }
      return null;
    },
    close() {
      closed = true;
      leave?.();
    },
  };
}
