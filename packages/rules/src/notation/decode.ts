/**
 * From the bytes of a record file to a GameRecord: detects the encoding (UTF-8 with or
 * without BOM, else Shift_JIS, the encoding of most KIF files, or EUC-JP, that of old CSA
 * files) and the format (CSA, KIF, KI2 or JKF) from the content. The caller reads the file;
 * this package does no I/O.
 */
import { ok, type Result } from '../types.js';
import { parseCsa } from './csa.js';
import { parseJkf } from './jkf.js';
import { parseKi2 } from './ki2.js';
import { parseKif } from './kif.js';
import { type GameRecord, MAX_RECORD_CHARS, type RecordError, recordError } from './record.js';

export const RECORD_FORMATS = ['csa', 'kif', 'ki2', 'jkf'] as const;
export type RecordFormat = (typeof RECORD_FORMATS)[number];

export const RECORD_ENCODINGS = ['utf-8', 'shift_jis', 'euc-jp'] as const;
export type RecordEncoding = (typeof RECORD_ENCODINGS)[number];

export interface DecodedRecord {
  readonly format: RecordFormat;
  readonly encoding: RecordEncoding;
  readonly record: GameRecord;
}

/** Half-width katakana: what EUC-JP text turns into when read as Shift_JIS, and rare in records. */
const halfWidthKana = (text: string): number => text.match(/[\uff61-\uff9f]/g)?.length ?? 0;

/**
 * Decodes text: a UTF-8 BOM or valid UTF-8 wins, unless a line declares the encoding (CSA V3
 * `'CSA encoding=`, KIF `#KIF version=2.0 encoding=`, KI2 `#KI2 …`). Shift_JIS and EUC-JP share most byte
 * values, so undeclared text that both can decode is the one with fewer half-width katakana.
 */
export function decodeText(
  bytes: Uint8Array,
): Result<{ text: string; encoding: DecodedRecord['encoding'] }, RecordError> {
  // Shift_JIS takes at most 2 bytes per character and UTF-8 at most 3 per BMP character
  if (bytes.length > MAX_RECORD_CHARS * 3) return recordError('too_large', 0, 'record too large');
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^(?:'CSA |#KI[F2] .*)encoding=([\w-]+)/im.exec(head)?.[1];
  const tryDecode = (label: string): string | null => {
    try {
      return new TextDecoder(label, { fatal: true }).decode(bytes.subarray(label === 'utf-8' && bom ? 3 : 0));
    } catch {
      return null;
    }
  };
  if (!bom && declared !== undefined && /^(shift_jis|sjis|cp932|windows-31j)$/i.test(declared)) {
    const sjis = tryDecode('shift_jis');
    if (sjis !== null) return ok({ text: sjis, encoding: 'shift_jis' });
  }
  if (!bom && declared !== undefined && /^euc-?jp$/i.test(declared)) {
    const euc = tryDecode('euc-jp');
    if (euc !== null) return ok({ text: euc, encoding: 'euc-jp' });
  }
  const utf8 = tryDecode('utf-8');
  if (utf8 !== null) return ok({ text: utf8, encoding: 'utf-8' });
  if (bom) return recordError('bad_encoding', 0, 'a UTF-8 byte order mark before text that is not UTF-8');
  const sjis = tryDecode('shift_jis');
  const euc = tryDecode('euc-jp');
  if (sjis !== null && (euc === null || halfWidthKana(sjis) <= halfWidthKana(euc)))
    return ok({ text: sjis, encoding: 'shift_jis' });
  if (euc !== null) return ok({ text: euc, encoding: 'euc-jp' });
  return recordError('bad_encoding', 0, 'neither UTF-8, Shift_JIS nor EUC-JP');
}

const CSA_LINE = /^(V\d|N[+-]|\$[A-Z_]+:|P[I1-9+-]|[+-]\d{4}[A-Z]{2}|'CSA encoding=)/;
const KIF_MOVE = /^\s*\d+\s+\S*[歩香桂銀金角飛玉王と馬龍竜投]|^\s*\d+\s+(中断|投了|詰|千日手|持将棋)/;
const KIF_HEADER = /^(手合割|先手|後手|上手|下手|開始日時|棋戦|手数-|#KIF)/;
const KI2_MOVE = /^[\s\u3000]*[▲△☗☖▼▽]\s*([1-9１-９][1-9１-９一二三四五六七八九]|同)/;

/** Formats people may try that this package does not read, by a sign of each. */
const UNSUPPORTED: readonly (readonly [RegExp, string])[] = [
  [/^\s*\[(Event|Sente|Gote|Handicap|Site|Date) "/m, 'PSN/PGN'],
  [/^\s*\(;/, 'SGF'],
  [/^\s*<(!doctype|html|\?xml)/i, 'HTML or XML'],
  [/^\s*(position\s+(startpos|sfen)|sfen\s+\S+\/)/, 'USI position (sfen … moves …)'],
];

const FORMAT_NAMES = 'KIF, KI2, CSA or JKF';

/** CSA, KIF, KI2 or JKF from the content; the file name's extension breaks a tie. */
export function detectFormat(text: string, nameHint?: string): RecordFormat | null {
  const body = text.replace(/^\uFEFF/, '');
  if (/^\s*\{/.test(body)) return 'jkf';
  const lines = body.split(/\r\n|\r|\n/, 400);
  let kifHeader = false;
  for (const line of lines) {
    if (CSA_LINE.test(line)) return 'csa';
    if (KIF_MOVE.test(line)) return 'kif';
    if (KI2_MOVE.test(line)) return 'ki2';
    if (KIF_HEADER.test(line)) kifHeader = true;
  }
  const ext = /\.([a-z0-9]+)$/i.exec(nameHint ?? '')?.[1]?.toLowerCase();
  if (ext === 'csa') return 'csa';
  if (ext === 'ki2' || ext === 'ki2u') return 'ki2';
  if (ext === 'jkf' || ext === 'json') return 'jkf';
  if (ext === 'kif' || ext === 'kifu' || kifHeader) return 'kif';
  return null;
}

/** The error for a file no reader takes, naming the format when it is a known other one. */
function unknownFormat(text: string): { ok: false; error: RecordError } {
  if (text.includes('\u0000'))
    return recordError('unsupported_format', 0, `a binary file, not a ${FORMAT_NAMES} record`);
  const other = UNSUPPORTED.find(([sign]) => sign.test(text))?.[1];
  if (other !== undefined)
    return recordError('unsupported_format', 0, `${other} is not supported: give a ${FORMAT_NAMES} record`);
  return recordError('unknown_format', 0, `not a ${FORMAT_NAMES} record`);
}

const PARSERS: Readonly<Record<RecordFormat, (text: string) => Result<GameRecord, RecordError>>> = {
  csa: parseCsa,
  kif: parseKif,
  ki2: parseKi2,
  jkf: parseJkf,
};

export function decodeRecord(bytes: Uint8Array, nameHint?: string): Result<DecodedRecord, RecordError> {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return decoded;
  const { text, encoding } = decoded.value;
  // an empty file named .kif would otherwise read as a game with no moves
  if (text.replace(/^\uFEFF/, '').trim() === '') return recordError('unknown_format', 0, 'the record is empty');
  const format = detectFormat(text, nameHint);
  if (format === null) return unknownFormat(text);
  const record = PARSERS[format](text);
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
 *
 * With `atMost`, the split stops at the record after the `atMost`-th: a caller that refuses
 * a file of more records than that (the HTTP import's cap) learns it without reading on.
 */
export function splitRecords(bytes: Uint8Array, atMost = Number.POSITIVE_INFINITY): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  let lineStart = 0;
  let separators = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== LF) continue;
    const end = i > lineStart && bytes[i - 1] === CR ? i - 1 : i;
    if (end - lineStart === 1 && bytes[lineStart] === SLASH) {
      separators++;
      const part = bytes.subarray(start, lineStart);
      if (!isBlank(part)) parts.push(part);
      if (parts.length > atMost) return parts;
      start = i + 1;
    }
    lineStart = i + 1;
  }
  if (separators === 0) return [bytes];
  const last = bytes.subarray(start);
  if (!isBlank(last)) parts.push(last);
  return parts;
}

const isBlank = (part: Uint8Array): boolean => part.every((b) => b === 0x20 || b === 0x09 || b === CR || b === LF);
