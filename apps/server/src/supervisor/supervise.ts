/**
 * `npm start`'s supervisor (node:cluster's primary): starts each planned process, shares the
 * gateways' HTTP and CSA ports among them (cluster hands each new connection to one gateway),
 * starts a process that died again (logged, counted in shogi_process_restarts_total), and on
 * SIGINT or SIGTERM asks every process to stop with grace, then waits for them all.
 */
import cluster, { type Worker } from 'node:cluster';
import { metrics } from '@shogi/metrics';
import type { Logger } from 'pino';
import { restartDelayMs, type Slot } from './plan.js';

export interface SuperviseOptions {
  readonly logger: Logger;
  /** after SIGTERM, how long a process may take before it is killed */
  readonly stopGraceMs: number;
}

interface Running {
  readonly slot: Slot;
  readonly startedAt: number;
}

const nameOf = (slot: Slot) => `${slot.role} ${slot.index + 1}`;

/** Resolves with the exit code once every process has stopped after a signal. */
export function supervise(slots: readonly Slot[], options: SuperviseOptions): Promise<number> {
  const { logger } = options;
  const running = new Map<Worker, Running>();
  const delays = new Map<Slot, number>();
  const pending = new Set<NodeJS.Timeout>();
  let stopping = false;
  // the children run this same program (main.js), told their role by the environment
  cluster.setupPrimary({ args: [] });

  const start = (slot: Slot) => {
    const worker = cluster.fork(slot.env);
    running.set(worker, { slot, startedAt: Date.now() });
  };

  return new Promise<number>((resolve) => {
    const stopped = () => {
      if (running.size > 0) return;
      logger.info('Stopped.');
      resolve(0);
    };
    cluster.on('exit', (worker, code, signal) => {
      const entry = running.get(worker);
      running.delete(worker);
      if (entry === undefined) return;
      if (stopping) {
        stopped();
        return;
      }
      const lived = Date.now() - entry.startedAt;
      const delay = restartDelayMs(delays.get(entry.slot) ?? null, lived);
      delays.set(entry.slot, delay);
      metrics.restarts.inc({ role: entry.slot.role });
      logger.error(
        `${nameOf(entry.slot)} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}) after ${Math.round(lived / 1000)} s; starting it again in ${delay} ms`,
      );
      const timer = setTimeout(() => {
        pending.delete(timer);
        if (!stopping) start(entry.slot);
      }, delay);
      pending.add(timer);
    });

    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      for (const timer of pending) clearTimeout(timer);
      logger.info(`Shutting down (${signal}): stopping ${running.size} processes with grace`);
      // a terminal's Ctrl-C reached them too (one process group); SIGTERM is for a kill of this one
      for (const worker of running.keys()) worker.process.kill('SIGTERM');
      const force = setTimeout(() => {
        for (const [worker, { slot }] of running) {
          logger.error(`${nameOf(slot)} (pid ${worker.process.pid}) did not stop in time; killing it`);
          worker.process.kill('SIGKILL');
        }
      }, options.stopGraceMs);
      force.unref();
      stopped();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));

    for (const slot of slots) start(slot);
    const count = (role: string) => slots.filter((s) => s.role === role).length;
    logger.info(
      `Supervisor (pid ${process.pid}): ${count('gateway')} gateways behind one port, ${count('worker')} workers, ${count('engine')} engine role; a process that dies is started again`,
    );
  });
}
