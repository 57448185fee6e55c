/**
 * One search on an engine, from `go` to `bestmove`: it collects the info lines, keeps the
 * deadline (past it the engine gets `stop`, then a grace before it is declared hung), and
 * turns the answer into a result or a typed error.
 */
import { UsiError } from './errors.js';
import type { UsiInfo, UsiScore } from './info.js';
import type { Bestmove, EngineMessage } from './messages.js';

export interface SearchResult {
  readonly bestmove: Bestmove;
  readonly ponder?: string;
  /** The last line reported for each MultiPV index, best first. */
  readonly infos: readonly UsiInfo[];
  /** The best line's score as last reported (it may carry a bound). */
  readonly score?: UsiScore;
  /** From `go` to `bestmove`, as seen from here. */
  readonly elapsedMs: number;
  /** Set when the engine was told to stop: its deadline passed, or the caller's signal fired. */
  readonly stopped?: 'deadline' | 'signal';
}

export interface SearchHooks {
  readonly onInfo?: (info: UsiInfo) => void;
  readonly signal?: AbortSignal;
}

export interface RunControl {
  readonly sendStop: () => void;
  /** Declares the engine hung: it is killed and `onFail` follows. */
  readonly hang: (error: UsiError) => void;
  readonly deadlineMs: number | null;
  readonly stopGraceMs: number;
}

export class SearchRun {
  private readonly infos = new Map<number, UsiInfo>();
  private readonly started = performance.now();
  private stopped: 'deadline' | 'signal' | undefined;
  private callbackError: unknown;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => this.stop('signal');
  private done = false;
  private readonly control: RunControl;
  private readonly hooks: SearchHooks;
  private readonly resolve: (result: SearchResult) => void;
  private readonly reject: (error: unknown) => void;

  constructor(
    control: RunControl,
    hooks: SearchHooks,
    resolve: (result: SearchResult) => void,
    reject: (error: unknown) => void,
  ) {
    this.control = control;
    this.hooks = hooks;
    this.resolve = resolve;
    this.reject = reject;
    if (control.deadlineMs !== null) this.deadlineTimer = setTimeout(() => this.stop('deadline'), control.deadlineMs);
    hooks.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Feeds an engine message; true once the search is over. */
  onMessage(message: EngineMessage): boolean {
    if (this.done) return true;
    if (message.type === 'info') this.onInfo(message.info);
    else if (message.type === 'invalid' && message.command === 'bestmove')
      this.fail(new UsiError('bad_bestmove', `the engine answered "${message.line}": ${message.reason}`));
    else if (message.type === 'bestmove') {
      if (this.callbackError !== undefined) this.fail(this.callbackError);
      else this.succeed(message.bestmove, message.ponder);
    }
    return this.done;
  }

  onFail(error: UsiError): void {
    this.fail(error);
  }

  private onInfo(info: UsiInfo): void {
    // only lines about a line of play replace the last one; `string` or `currmove` lines do not
    if (info.score !== undefined || info.pv !== undefined) this.infos.set(info.multipv ?? 1, info);
    if (this.hooks.onInfo === undefined || this.callbackError !== undefined) return;
    try {
      this.hooks.onInfo(info);
    } catch (error) {
      // the caller's error ends the search; the engine still owes its bestmove
      this.callbackError = error;
      this.stop('signal');
    }
  }

  private stop(why: 'deadline' | 'signal'): void {
    if (this.stopped !== undefined || this.done) return;
    this.stopped = why;
    this.control.sendStop();
    this.graceTimer = setTimeout(() => {
      const what = why === 'deadline' ? `its deadline (${this.control.deadlineMs} ms)` : 'stop';
      this.control.hang(new UsiError('timeout', `no bestmove within ${this.control.stopGraceMs} ms after ${what}`));
    }, this.control.stopGraceMs);
  }

  private succeed(bestmove: Bestmove, ponder: string | undefined): void {
    const infos = [...this.infos.entries()].sort(([a], [b]) => a - b).map(([, info]) => info);
    const score = this.infos.get(1)?.score;
    const result: SearchResult = {
      bestmove,
      ...(ponder === undefined ? {} : { ponder }),
      infos,
      ...(score === undefined ? {} : { score }),
      elapsedMs: Math.round(performance.now() - this.started),
      ...(this.stopped === undefined ? {} : { stopped: this.stopped }),
    };
    this.finish();
    this.resolve(result);
  }

  private fail(error: unknown): void {
    if (this.done) return;
    this.finish();
    this.reject(error);
  }

  private finish(): void {
    this.done = true;
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.graceTimer);
    this.hooks.signal?.removeEventListener('abort', this.onAbort);
  }
}
