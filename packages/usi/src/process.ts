/**
 * The engine's operating-system process: spawn without a shell, bounded line reading on
 * stdout, the tail of stderr for crash reports, and kill. It knows nothing of USI.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { LineSplitter } from './line-splitter.js';

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the process could not be started or its pipes failed. */
  readonly error?: Error;
}

export interface ProcessHandlers {
  onLine(line: string): void;
  /** A line passed the bound; called as soon as it does, not when (if ever) it ends. */
  onOverflow(length: number): void;
  /** Called once, after stdout is drained. */
  onExit(exit: ProcessExit): void;
}

export interface SpawnSpec {
  readonly path: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly maxLineLength: number;
}

/** Only the last stderr line is kept: enough to say why an engine died. */
const STDERR_KEPT = 300;

export class EngineProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stdout: LineSplitter;
  private readonly stderr: LineSplitter;
  private overflowReported = false;
  private exitInfo: ProcessExit | null = null;
  private readonly exitWaiters: Array<() => void> = [];
  /** The last line the engine wrote to stderr, shortened. */
  lastStderr = '';

  constructor(spec: SpawnSpec, handlers: ProcessHandlers) {
    this.stdout = new LineSplitter(spec.maxLineLength);
    this.stderr = new LineSplitter(STDERR_KEPT);
    this.child = spawn(spec.path, [...(spec.args ?? [])], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const exit = (info: ProcessExit): void => {
      if (this.exitInfo !== null) return;
      this.exitInfo = info;
      handlers.onExit(info);
      for (const wake of this.exitWaiters.splice(0)) wake();
    };
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.read(chunk, handlers));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => this.readStderr(chunk));
    // a write to an engine that just died fails with EPIPE; its exit reports the death
    this.child.stdin.on('error', () => {});
    this.child.on('error', (error) => {
      if (this.child.pid === undefined) exit({ code: null, signal: null, error });
    });
    this.child.on('close', (code, signal) => exit({ code, signal }));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exited(): ProcessExit | null {
    return this.exitInfo;
  }

  /** Writes one line; false when the engine can no longer be written to. */
  write(line: string): boolean {
    if (this.exitInfo !== null || this.child.stdin.destroyed || !this.child.stdin.writable) return false;
    this.child.stdin.write(`${line}\n`);
    return true;
  }

  kill(): void {
    if (this.exitInfo === null && this.child.exitCode === null && this.child.signalCode === null)
      this.child.kill('SIGKILL');
  }

  /** Resolves true once the process has exited, false if `ms` pass first. */
  waitExit(ms: number): Promise<boolean> {
    if (this.exitInfo !== null) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const i = this.exitWaiters.indexOf(wake);
        if (i >= 0) this.exitWaiters.splice(i, 1);
        resolve(false);
      }, ms);
      this.exitWaiters.push(wake);
    });
  }

  private read(chunk: string, handlers: ProcessHandlers): void {
    if (this.overflowReported) return;
    for (const line of this.stdout.push(chunk)) {
      if (line.kind === 'overflow') {
        this.overflow(line.length, handlers);
        return;
      }
      handlers.onLine(line.text);
    }
    if (this.stdout.overflowing) this.overflow(this.stdout.maxLength + 1, handlers);
  }

  private overflow(length: number, handlers: ProcessHandlers): void {
    this.overflowReported = true;
    handlers.onOverflow(length);
  }

  private readStderr(chunk: string): void {
    for (const line of this.stderr.push(chunk))
      if (line.kind === 'line' && line.text.trim() !== '') this.lastStderr = line.text;
  }
}
