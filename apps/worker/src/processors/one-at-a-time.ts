/**
 * Each game's jobs in this process, one after another: a verdict and a flag check of the
 * same game would otherwise decide on the same state and one of them lose its append.
 */
export class OneAtATime {
  private readonly chains = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task of the same game, whether those failed or not. */
  run<T>(gameId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(gameId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.chains.set(gameId, tail);
    void tail.then(() => {
      if (this.chains.get(gameId) === tail) this.chains.delete(gameId);
    });
    return run;
  }
}
