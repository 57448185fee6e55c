/**
 * Waiting for a test client's state to reach a condition: the client calls `notify()` after
 * each frame it takes in, and `until` resolves once the condition holds (or rejects on time).
 */
export class Conditions {
  private readonly waiters = new Set<() => void>();

  notify(): void {
    for (const w of this.waiters) w();
  }

  async until(test: () => boolean, timeoutMs: number, describeTimeout: () => string): Promise<void> {
    if (test()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(describeTimeout()));
      }, timeoutMs);
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }
}
