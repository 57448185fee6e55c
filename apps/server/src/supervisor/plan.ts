/**
 * Which processes `npm start` runs (pure): several gateways behind one port, validation
 * workers, one engine role, each with the environment that makes it that process.
 */

export type SupervisedRole = 'gateway' | 'worker' | 'engine';

export interface Slot {
  readonly role: SupervisedRole;
  /** 0, 1, ... within its role */
  readonly index: number;
  /** what the process gets beyond the supervisor's own environment */
  readonly env: Readonly<Record<string, string>>;
}

export interface PlanInput {
  readonly cores: number;
  /** GATEWAY_PROCESSES, WORKER_PROCESSES when set */
  readonly gateways?: number;
  readonly workers?: number;
  /** the demo bots run in the first gateway only */
  readonly demo: boolean;
  /** the supervisor's METRICS_PORT (its own /metrics); null: no metrics anywhere */
  readonly metricsPort: number | null;
}

/**
 * Gateways take the sockets and the JSON, workers the rules and PostgreSQL's round trips:
 * half the cores each (a process per core in all), at least two gateways so one can be
 * restarted while the other serves, at least one worker; the engine role's searches run in
 * engine processes of their own, so it takes one process whatever the cores.
 */
export function planProcesses(input: PlanInput): Slot[] {
  const gateways = input.gateways ?? Math.max(2, Math.ceil(input.cores / 2));
  const workers = input.workers ?? Math.max(1, Math.floor(input.cores / 2));
  const roles: [SupervisedRole, number][] = [
    ['gateway', gateways],
    ['worker', workers],
    ['engine', 1],
  ];
  const slots: Slot[] = [];
  for (const [role, count] of roles) {
    for (let index = 0; index < count; index++) {
      const n = slots.length;
      slots.push({
        role,
        index,
        env: {
          ROLE: role,
          DEMO: input.demo && role === 'gateway' && index === 0 ? '1' : '0',
          // the supervisor serves METRICS_PORT; its processes the ports after it
          METRICS_PORT: input.metricsPort === null ? '0' : String(input.metricsPort + 1 + n),
          SHOGI_SUPERVISED: '1',
        },
      });
    }
  }
  return slots;
}

/** A process count from the environment: a whole number ≥ 1, else undefined (the default). */
export function processCountOf(value: string | undefined, name: string): number | undefined | { error: string } {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    return { error: `${name} must be a whole number from 1 to 256, not "${value}"` };
  return n;
}

/**
 * How long to wait before starting a dead process again: at once-ish after a process that
 * ran a while, doubling (up to 30 s) while it keeps dying young, so a process that cannot
 * start (a bad setting, a port taken) does not spin a core.
 */
export function restartDelayMs(previousDelayMs: number | null, livedMs: number): number {
  const first = 500;
  if (previousDelayMs === null || livedMs >= 10_000) return first;
  return Math.min(30_000, previousDelayMs * 2);
}
