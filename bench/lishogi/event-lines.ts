/**
 * A lishogi event stream (`GET /api/stream/event`) as a bot client reads it: its `challenge`
 * and `gameStart` lines kept until the bench takes them, each taken once. The other lines
 * (gameFinish, declines) are not needed here and are dropped.
 */
import type { Json, LishogiHttp } from './http-client.js';

type Match = (line: Json) => boolean;

interface Waiter {
  readonly match: Match;
  readonly resolve: (line: Json | null) => void;
}

const KEPT = new Set(['challenge', 'gameStart']);

export class EventLines {
  readonly #lines: Json[] = [];
  readonly #waiters = new Set<Waiter>();
  #close: () => void = () => {};
  ended = false;

  static async open(http: LishogiHttp, token: string): Promise<EventLines> {
    const events = new EventLines();
    const opened = await http.stream(
      '/api/stream/event',
      token,
      (line) => events.#take(line),
      () => {
        events.ended = true;
      },
    );
    if (!opened.ok)
      throw new Error(`event stream refused: ${opened.answer.status} ${JSON.stringify(opened.answer.body)}`);
    events.#close = opened.close;
    return events;
  }

  /** The first kept line that matches, taken; null when none came within `timeoutMs`. */
  take(match: Match, timeoutMs: number): Promise<Json | null> {
    const at = this.#lines.findIndex(match);
    if (at >= 0) return Promise.resolve(this.#lines.splice(at, 1)[0]);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        resolve(null);
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        resolve: (line) => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve(line);
        },
      };
      this.#waiters.add(waiter);
    });
  }

  close(): void {
    this.#close();
  }

  #take(line: Json): void {
    if (!KEPT.has(line.type)) return;
    for (const waiter of this.#waiters)
      if (waiter.match(line)) {
        waiter.resolve(line);
        return;
      }
    this.#lines.push(line);
  }
}
