/** A spectator WebSocket for the spectating tests: records frames, waits for one, reads the moves. */

import type { WatchMessage, WireEvent } from '@shogi/protocol';
import WebSocket from 'ws';
import { Conditions } from './conditions.js';

export class Watcher {
  readonly ws: WebSocket;
  readonly received: WatchMessage[] = [];
  readonly closed: Promise<number>;
  private readonly conditions = new Conditions();

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as WatchMessage);
      this.conditions.notify();
    });
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  }

  static open(baseUrl: string, gameId: string, since?: number): Promise<Watcher> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/api/games/${gameId}/watch${since === undefined ? '' : `?since=${since}`}`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const watcher = new Watcher(ws);
      ws.once('open', () => resolve(watcher));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
    });
  }

  /** Every event received, in order of arrival. */
  get events(): WireEvent[] {
    return this.received.flatMap((m) => (m.type === 'events' ? m.events : []));
  }

  get seqs(): number[] {
    return this.events.map((e) => e.seq);
  }

  get moves(): string[] {
    return this.events.filter((e) => e.type === 'MoveAccepted').map((e) => String(e.payload.usi));
  }

  waitFor(test: () => boolean, timeoutMs = 15_000): Promise<void> {
    return this.conditions.until(
      test,
      timeoutMs,
      () => `watcher timed out; last frames: ${JSON.stringify(this.received.slice(-3))}`,
    );
  }

  /** Waits until the last seq received is at least `seq`. */
  waitForSeq(seq: number, timeoutMs?: number): Promise<void> {
    return this.waitFor(() => (this.seqs.at(-1) ?? 0) >= seq, timeoutMs);
  }

  close(): Promise<number> {
    this.ws.close();
    return this.closed;
  }
}

/** seqs from `from` to `to`, inclusive */
export const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
