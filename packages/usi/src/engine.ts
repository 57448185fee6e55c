/**
 * A USI engine process driven over its pipes: the handshake, options, new games and
 * searches, one operation at a time. Whatever the engine does — dies, hangs, floods —
 * the pending operation rejects with a `UsiError` and a dead engine stays dead (the pool
 * replaces it); nothing here throws out of an event handler.
 */
import { searchDeadlineMs } from './budget.js';
import { formatCommand, type GameResult, type OptionValue } from './commands.js';
import {
  DEFAULT_MAX_LINE_LENGTH,
  DEFAULT_TIMEOUTS,
  type EngineConfig,
  type EngineTimeouts,
  engineConfigProblem,
  type SearchRequest,
} from './engine-config.js';
import { UsiError } from './errors.js';
import { type EngineMessage, parseEngineLine } from './messages.js';
import { optionValueProblem, type UsiOption } from './options.js';
import { EngineProcess, type ProcessExit } from './process.js';
import { type SearchHooks, type SearchResult, SearchRun } from './search-run.js';

type Waiter = { onMessage(message: EngineMessage): boolean; onFail(error: UsiError): void };

export class UsiEngine {
  private readonly config: EngineConfig;
  private readonly timeouts: EngineTimeouts;
  private readonly process: EngineProcess;
  private readonly listed = new Map<string, UsiOption>();
  /** the values this client set, by lower-cased name */
  private readonly values = new Map<string, OptionValue>();
  private waiter: Waiter | null = null;
  private failure: UsiError | null = null;
  private busy = true;
  private quitting = false;
  private readonly ids: { name?: string; author?: string } = {};

  private constructor(config: EngineConfig) {
    this.config = config;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...config.timeouts };
    this.process = new EngineProcess(
      { ...config, maxLineLength: config.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH },
      {
        onLine: (line) => this.onLine(line),
        onOverflow: (length) =>
          this.fail(new UsiError('line_too_long', `the engine wrote a line of more than ${length - 1} characters`)),
        onExit: (exit) => this.onExit(exit),
      },
    );
  }

  /** Spawns the engine, does the handshake and sets the configured options. */
  static async start(config: EngineConfig): Promise<UsiEngine> {
    const problem = engineConfigProblem(config);
    if (problem !== null) throw new UsiError('bad_command', `engine config: ${problem}`);
    const engine = new UsiEngine(config);
    try {
      await engine.exchange(['usi'], engine.timeouts.handshakeMs, 'usiok', (m) => engine.collectId(m));
      await engine.applyOptions(config.options ?? {});
      engine.busy = false;
      return engine;
    } catch (error) {
      engine.kill();
      throw error;
    }
  }

  /** As the engine gave it in `id name`. */
  get name(): string | undefined {
    return this.ids.name;
  }

  get author(): string | undefined {
    return this.ids.author;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** False once the process is dead, killed or quit. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** Alive and not in the middle of an operation. */
  get idle(): boolean {
    return this.failure === null && !this.busy;
  }

  /** Why the engine is no longer alive, if it is not. */
  get error(): UsiError | null {
    return this.failure;
  }

  /** The options the engine listed, as it spelled them. */
  get options(): readonly UsiOption[] {
    return [...this.listed.values()];
  }

  option(name: string): UsiOption | undefined {
    return this.listed.get(name.toLowerCase());
  }

  /** Sets options (checked against the engine's list first), then waits for `readyok`. */
  setOptions(values: Readonly<Record<string, OptionValue>>): Promise<void> {
    return this.operation(() => this.applyOptions(values));
  }

  /** `usinewgame`, then waits for `readyok`. */
  newGame(): Promise<void> {
    return this.operation(async () => {
      await this.exchange(['usinewgame', 'isready'], this.timeouts.readyMs, 'readyok', isReadyOk);
    });
  }

  /** Tells the engine how the game ended; no answer is expected. */
  gameOver(result: GameResult): Promise<void> {
    return this.operation(async () => this.send(commandLine({ type: 'gameover', result })));
  }

  search(request: SearchRequest, hooks: SearchHooks = {}): Promise<SearchResult> {
    return this.operation(async () => {
      if (hooks.signal?.aborted) throw new UsiError('aborted', 'the search was aborted before it started');
      const position = commandLine({ type: 'position', position: request.position });
      const go = commandLine({ type: 'go', limits: request.limits });
      const deadlineMs = searchDeadlineMs(request, this.timeouts);
      if (deadlineMs === null && hooks.signal === undefined)
        throw new UsiError('bad_command', 'an infinite search needs a timeoutMs or a signal to end it');
      return new Promise<SearchResult>((resolve, reject) => {
        const control = {
          sendStop: () => this.send('stop'),
          hang: (error: UsiError) => this.fail(error),
          deadlineMs,
          stopGraceMs: this.timeouts.stopGraceMs,
        };
        const run = new SearchRun(control, hooks, resolve, reject);
        this.waiter = { onMessage: (m) => run.onMessage(m), onFail: (e) => run.onFail(e) };
        this.send(position);
        this.send(go);
      });
    });
  }

  /** `quit`, then a kill if the engine has not exited within the grace. Never rejects. */
  async quit(): Promise<void> {
    if (this.process.exited !== null) return;
    this.quitting = true;
    this.send('quit');
    if (!(await this.process.waitExit(this.timeouts.quitGraceMs))) this.kill();
    await this.process.waitExit(this.timeouts.quitGraceMs);
  }

  /** Kills the process at once; a pending operation rejects with `closed`. */
  kill(): void {
    this.fail(new UsiError('closed', 'the engine was killed'));
  }

  /** Runs one operation at a time, and none on a dead engine. */
  private async operation<T>(body: () => Promise<T>): Promise<T> {
    if (this.failure !== null) throw this.failure;
    if (this.busy) throw new UsiError('busy', 'the engine is busy with another operation');
    this.busy = true;
    try {
      return await body();
    } finally {
      this.waiter = null;
      this.busy = false;
    }
  }

  /**
   * Sends only the options whose value changes: a pooled engine is given its task's options
   * before every search, and setting `Hash` again, even to its value, makes an engine clear
   * its table (what it learnt of the positions before, which an analysis reuses).
   */
  private async applyOptions(values: Readonly<Record<string, OptionValue>>): Promise<void> {
    const changed: [string, OptionValue][] = [];
    for (const [name, value] of Object.entries(values)) {
      const option = this.option(name);
      if (option === undefined) throw new UsiError('unknown_option', `the engine has no option "${name}"`);
      const problem = optionValueProblem(option, value);
      if (problem !== null) throw new UsiError('bad_option_value', problem);
      if (this.values.get(option.name.toLowerCase()) !== value) changed.push([option.name, value]);
    }
    if (changed.length === 0) return;
    const lines = changed.map(([name, value]) => commandLine({ type: 'setoption', name, value }));
    await this.exchange([...lines, 'isready'], this.timeouts.readyMs, 'readyok', isReadyOk);
    for (const [name, value] of changed) this.values.set(name.toLowerCase(), value);
  }

  private collectId(message: EngineMessage): true | undefined {
    if (message.type === 'id') this.ids[message.key] = message.value;
    else if (message.type === 'option') this.listed.set(message.option.name.toLowerCase(), message.option);
    return message.type === 'usiok' ? true : undefined;
  }

  /** Writes lines, then feeds what the engine says to `collect` until it returns a value. */
  private exchange<T>(
    lines: readonly string[],
    timeoutMs: number,
    what: string,
    collect: (message: EngineMessage) => T | undefined,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new UsiError('timeout', `no ${what} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiter = {
        onMessage: (message) => {
          const value = collect(message);
          if (value === undefined) return false;
          clearTimeout(timer);
          resolve(value);
          return true;
        },
        onFail: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      for (const line of lines) this.send(line);
    });
  }

  private send(line: string): void {
    this.tell('out', line);
    this.process.write(line);
  }

  /** The log hook; its own failure must not take the engine down. */
  private tell(direction: 'in' | 'out', line: string): void {
    try {
      this.config.onLine?.(direction, line);
    } catch {
      // a log line lost is better than an engine lost
    }
  }

  private onLine(line: string): void {
    this.tell('in', line);
    const waiter = this.waiter;
    if (waiter?.onMessage(parseEngineLine(line)) && this.waiter === waiter) this.waiter = null;
  }

  private onExit(exit: ProcessExit): void {
    if (this.quitting) {
      this.fail(new UsiError('closed', 'the engine quit'));
      return;
    }
    const how = exit.error
      ? `could not be started: ${exit.error.message}`
      : `exited (${exit.signal ?? `code ${exit.code}`})`;
    const stderr = this.process.lastStderr === '' ? '' : `; last stderr line: ${this.process.lastStderr}`;
    this.fail(new UsiError(exit.error ? 'spawn_failed' : 'crashed', `the engine ${how}${stderr}`));
  }

  /** The engine is done for: kill it, and fail what is pending. Only the first reason counts. */
  private fail(error: UsiError): void {
    if (this.failure !== null) return;
    this.failure = error;
    this.process.kill();
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.onFail(error);
  }
}

const isReadyOk = (message: EngineMessage): true | undefined => (message.type === 'readyok' ? true : undefined);

function commandLine(command: Parameters<typeof formatCommand>[0]): string {
  const line = formatCommand(command);
  if (!line.ok) throw new UsiError('bad_command', `${line.error.code}: ${line.error.message}`);
  return line.value;
}
