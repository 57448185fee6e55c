import { describe, expect, it } from 'vitest';
import { workerTuningFromEnv } from '../src/index.js';

describe('workerTuningFromEnv', () => {
  it('reads only the variables that are set', () => {
    expect(workerTuningFromEnv({})).toEqual({});
    expect(
      workerTuningFromEnv({ WORKER_CONCURRENCY: '64', WORKER_PROJECTOR_INTERVAL_MS: '0', EVENT_STORE_BATCH: '0' }),
    ).toEqual({ concurrency: 64, projectorIntervalMs: 0, batch: false });
  });

  it('refuses a value that is not a whole number, naming the variable', () => {
    expect(() => workerTuningFromEnv({ WORKER_CONCURRENCY: 'lots' })).toThrow(/WORKER_CONCURRENCY/);
    expect(() => workerTuningFromEnv({ WORKER_SWEEP_AFTER_MS: '-5' })).toThrow(/WORKER_SWEEP_AFTER_MS/);
  });

  it('takes a batch size of at least one append', () => {
    expect(workerTuningFromEnv({ EVENT_STORE_MAX_BATCH: '32' })).toEqual({ maxBatch: 32 });
    expect(() => workerTuningFromEnv({ EVENT_STORE_MAX_BATCH: '0' })).toThrow(/EVENT_STORE_MAX_BATCH/);
  });
});
