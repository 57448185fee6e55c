/**
 * One entry for writing a record in any format this package writes: KIF (UTF-8 text; the
 * caller encodes it, Shift_JIS for `.kif`), KI2 (the moves as players write them, no times),
 * CSA V2.2 or V3.0, and JKF (JSON). CSA has no
 * variations: a record with some says so in a comment, and its KIF, KI2 and JKF keep them.
 */
import { ok, type Result } from '../types.js';
import { exportCsa } from './csa.js';
import { exportJkf } from './jkf.js';
import { exportKi2 } from './ki2-export.js';
import { exportKif } from './kif-export.js';
import type { GameRecord, RecordError, RecordVariation } from './record.js';

export const RECORD_WRITE_FORMATS = ['kif', 'ki2', 'csa', 'jkf'] as const;
export type RecordWriteFormat = (typeof RECORD_WRITE_FORMATS)[number];

export interface WriteRecordOptions {
  readonly format: RecordWriteFormat;
  /** CSA only; default '3.0'. */
  readonly csaVersion?: '2.2' | '3.0';
}

const countLines = (variations: readonly RecordVariation[]): number =>
  variations.reduce((n, v) => n + 1 + countLines(v.variations), 0);

export function writeRecord(record: GameRecord, options: WriteRecordOptions): Result<string, RecordError> {
  if (options.format === 'kif') return exportKif(record);
  if (options.format === 'ki2') return exportKi2(record);
  if (options.format === 'jkf') {
    const jkf = exportJkf(record);
    return jkf.ok ? ok(`${JSON.stringify(jkf.value)}\n`) : jkf;
  }
  const variations = countLines(record.variations ?? []);
  const text = exportCsa(record, { version: options.csaVersion ?? '3.0' });
  if (!text.ok || variations === 0) return text;
  return ok(`${text.value}'${variations} variation(s) not written: CSA has none (the KIF and JKF records keep them)\n`);
}
