/**
 * From the bytes of a record file to a GameRecord: detects the encoding (UTF-8 with or
 * without BOM, else Shift_JIS, the encoding of older CSA and KIF files) and the format
 * (CSA or KIF) from the content. The caller reads the file; this package does no I/O.
 */
import { ok, type Result } from '../types.js';
import { parseCsa } from './csa.js';
import { parseKif } from './kif.js';
import { type GameRecord, MAX_RECORD_CHARS, type RecordError, recordError } from './record.js';

export const RECORD_FORMATS = ['csa', 'kif'] as const;
export type RecordFormat = (typeof RECORD_FORMATS)[number];

export interface DecodedRecord {
  readonly format: RecordFormat;
  readonly encoding: 'utf-8' | 'shift_jis';
  readonly record: GameRecord;
}

/** Decodes text: a UTF-8 BOM or valid UTF-8 wins, unless a CSA V3 line declares Shift_JIS. */
export function decodeText(
  bytes: Uint8Array,
): Result<{ text: string; encoding: DecodedRecord['encoding'] }, RecordError> {
  // Shift_JIS takes at most 2 bytes per character and UTF-8 at most 3 per BMP character
  if (bytes.length > MAX_RECORD_CHARS * 3) return recordError('too_large', 0, 'record too large');
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const declared = /^'CSA encoding=(\S+)/im.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)))?.[1];
  const tryDecode = (label: string): string | null => {
    try {
      return new TextDecoder(label, { fatal: true }).decode(bytes.subarray(label === 'utf-8' && bom ? 3 : 0));
    } catch {
      return null;
    }
  };
  if (!bom && declared !== undefined && /^shift_jis$/i.test(declared)) {
    const sjis = tryDecode('shift_jis');
    if (sjis !== null) return ok({ text: sjis, encoding: 'shift_jis' });
  }
  const utf8 = tryDecode('utf-8');
  if (utf8 !== null) return ok({ text: utf8, encoding: 'utf-8' });
  const sjis = bom ? null : tryDecode('shift_jis');
  if (sjis !== null) return ok({ text: sjis, encoding: 'shift_jis' });
  return recordError('bad_encoding', 0, 'neither UTF-8 nor Shift_JIS');
}

const CSA_LINE = /^(V\d|N[+-]|\$[A-Z_]+:|P[I1-9+-]|[+-]\d{4}[A-Z]{2}|'CSA encoding=)/;
const KIF_LINE = /^(手合割|先手|後手|上手|下手|開始日時|棋戦|手数-|#KIF|\s*\d+\s+\S*[歩香桂銀金角飛玉王と馬龍竜投])/;

/** CSA or KIF from the first lines that say; the file name's extension breaks a tie. */
export function detectFormat(text: string, nameHint?: string): RecordFormat | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/, 200);
  for (const line of lines) {
    if (CSA_LINE.test(line)) return 'csa';
    if (KIF_LINE.test(line)) return 'kif';
  }
  const ext = /\.([a-z0-9]+)$/i.exec(nameHint ?? '')?.[1]?.toLowerCase();
  if (ext === 'csa') return 'csa';
  if (ext === 'kif' || ext === 'kifu') return 'kif';
  return null;
}

export function decodeRecord(bytes: Uint8Array, nameHint?: string): Result<DecodedRecord, RecordError> {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return decoded;
  const { text, encoding } = decoded.value;
  // an empty file named .kif would otherwise read as a game with no moves
  if (text.replace(/^\uFEFF/, '').trim() === '') return recordError('unknown_format', 0, 'the record is empty');
  const format = detectFormat(text, nameHint);
  if (format === null) return recordError('unknown_format', 0, 'neither CSA nor KIF');
  const record = format === 'csa' ? parseCsa(text) : parseKif(text);
  return record.ok ? ok({ format, encoding, record: record.value }) : record;
}

const SLASH = 0x2f;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The records of a CSA file holding several, split on the lines that are a lone `/` (the
 * format's separator, as `/api/players/:id/games.csa` writes it); any other file comes back
 * whole. Split as bytes, before decoding: `/`, CR and LF never occur inside a Shift_JIS or
 * UTF-8 character, so each part keeps its encoding. Parts with nothing but blanks are dropped.
 */
export function splitRecords(bytes: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  let lineStart = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== LF) continue;
    const end = i > lineStart && bytes[i - 1] === CR ? i - 1 : i;
    if (end - lineStart === 1 && bytes[lineStart] === SLASH) {
      parts.push(bytes.subarray(start, lineStart));
      start = i + 1;
    }
    lineStart = i + 1;
  }
  if (parts.length === 0) return [bytes];
  parts.push(bytes.subarray(start));
  return parts.filter((p) => p.some((b) => b !== 0x20 && b !== 0x09 && b !== CR && b !== LF));
}
