/**
 * A game's record as a file the shogi tools open: the text from the rules package's exporters,
 * its bytes in the encoding the file kind calls for, the Content-Type that says it, and a file
 * name for Content-Disposition.
 *
 * - `.kif`: Shift_JIS with CR LF, the convention of KIF readers (Kifu for Windows, Kakinoki's
 *   tools); a character Shift_JIS cannot hold (an emoji or an accented letter in a name) is
 *   written `?`, and the `.kifu` download keeps it;
 * - `.kifu`: the same KIF in UTF-8;
 * - `.ki2`: KI2, the moves as players write them (▲７六歩, ▲５八金右), in Shift_JIS with CR LF
 *   as `.kif` (Kakinoki's convention for `.ki2`), with no times, which KI2 has no place for;
 * - `.csa`: V3.0 (the default) in UTF-8, as its `'CSA encoding=UTF-8` line declares, or V2.2
 *   in Shift_JIS with CR LF, which a CSA file without that line is taken to be (CSA standard
 *   record format V3.0, 2.2);
 * - `.jkf`: JSON Kifu Format (the JSON that Kifu for JS and json-kifu-format read), UTF-8;
 * - `.sfen`: the USI `position` line, ASCII.
 * A further format is one entry of DOWNLOADS.
 */
import { exportCsa, exportKi2, exportKif, type GameRecord, writeRecord } from '@shogi/rules';
import iconv from 'iconv-lite';

export const DOWNLOAD_FORMATS = ['kif', 'kifu', 'ki2', 'csa', 'jkf', 'sfen'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];
export const CSA_VERSIONS = ['2.2', '3.0'] as const;
export type CsaVersion = (typeof CSA_VERSIONS)[number];

export interface DownloadOptions {
  readonly csaVersion?: CsaVersion;
  /** the sides whose player a moderator has marked for engine use (fair play): noted in the record */
  readonly engineMarked?: readonly ('sente' | 'gote')[];
}

/** The fair-play note of a marked side, one comment line in KIF, KI2 and CSA, a header in JKF. */
export const engineMarkedNote = (side: 'sente' | 'gote'): string => `fairplay: ${side} engine-marked`;

/**
 * The record's text with the fair-play notes: KIF and KI2 `#` lines after the format line,
 * CSA `'` lines at the end, the JKF header `fairplay`; SFEN has no place for one.
 */
function withFairPlayNotes(text: string, format: DownloadFormat, marked: readonly ('sente' | 'gote')[]): string {
  if (marked.length === 0) return text;
  switch (format) {
    case 'kif':
    case 'kifu':
    case 'ki2': {
      const lines = marked.map((side) => `#${engineMarkedNote(side)}\n`).join('');
      const end = text.startsWith('#KI') ? text.indexOf('\n') + 1 : 0;
      return `${text.slice(0, end)}${lines}${text.slice(end)}`;
    }
    case 'csa':
      return `${text}${text.endsWith('\n') ? '' : '\n'}${marked.map((side) => `'${engineMarkedNote(side)}\n`).join('')}`;
    case 'jkf': {
      const jkf = JSON.parse(text) as { header?: Record<string, string> };
      jkf.header = { ...jkf.header, fairplay: marked.map((side) => `${side} engine-marked`).join(', ') };
      return `${JSON.stringify(jkf)}\n`;
    }
    case 'sfen':
      return text;
    default:
      return format satisfies never;
  }
}

export interface RecordFile {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly extension: string;
}

type Charset = 'utf-8' | 'Shift_JIS';

interface Download {
  readonly extension: string;
  /** the media type, `text/plain` unless said */
  readonly mediaType?: string;
  /** the text and the charset its bytes are in */
  text(record: GameRecord, options: DownloadOptions): { text: string; charset: Charset };
}

const exported = (result: ReturnType<typeof exportKif>): string => {
  if (!result.ok) throw new Error(`record export failed: ${result.error.message}`);
  return result.value;
};

/** The KIF (or KI2) header line that names the encoding, made to name the one the bytes are in. */
const kifIn = (text: string, charset: Charset): string =>
  text.replace(/^#(KIF|KI2) version=([\d.]+) encoding=\S+/, `#$1 version=$2 encoding=${charset}`);

const DOWNLOADS: Readonly<Record<DownloadFormat, Download>> = {
  kif: {
    extension: 'kif',
    text: (record) => ({ text: kifIn(exported(exportKif(record)), 'Shift_JIS'), charset: 'Shift_JIS' }),
  },
  kifu: {
    extension: 'kifu',
    text: (record) => ({ text: kifIn(exported(exportKif(record)), 'utf-8'), charset: 'utf-8' }),
  },
  ki2: {
    extension: 'ki2',
    text: (record) => ({ text: kifIn(exported(exportKi2(record)), 'Shift_JIS'), charset: 'Shift_JIS' }),
  },
  csa: {
    extension: 'csa',
    text: (record, { csaVersion = '3.0' }) => ({
      text: exported(exportCsa(record, { version: csaVersion })),
      charset: csaVersion === '2.2' ? 'Shift_JIS' : 'utf-8',
    }),
  },
  jkf: {
    extension: 'jkf',
    mediaType: 'application/json',
    text: (record) => ({ text: `${exported(writeRecord(record, { format: 'jkf' }))}\n`, charset: 'utf-8' }),
  },
  sfen: {
    extension: 'sfen',
    text: (record) => ({
      text: `sfen ${record.sfen}${record.moves.length ? ` moves ${record.moves.join(' ')}` : ''}\n`,
      charset: 'utf-8',
    }),
  },
};

/** Text in a charset; Shift_JIS files get CR LF line ends, as the Windows tools that read them write them. */
export function encodeText(text: string, charset: Charset): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf8');
  return iconv.encode(text.replace(/\r?\n/g, '\r\n'), 'Shift_JIS');
}

export function recordFile(record: GameRecord, format: DownloadFormat, options: DownloadOptions = {}): RecordFile {
  const download = DOWNLOADS[format];
  const { text, charset } = download.text(record, options);
  return {
    bytes: encodeText(withFairPlayNotes(text, format, options.engineMarked ?? []), charset),
    contentType: `${download.mediaType ?? 'text/plain'}; charset=${charset}`,
    extension: download.extension,
  };
}

/** The charset of a format's bytes (the bulk exports encode record by record). */
export const charsetOf = (format: DownloadFormat, options: DownloadOptions = {}): Charset =>
  format === 'kif' || format === 'ki2' || (format === 'csa' && options.csaVersion === '2.2') ? 'Shift_JIS' : 'utf-8';

/** The text of a format before encoding (the bulk exports add their separators to it). */
export const recordText = (record: GameRecord, format: DownloadFormat, options: DownloadOptions = {}): string =>
  withFairPlayNotes(DOWNLOADS[format].text(record, options).text, format, options.engineMarked ?? []);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f"*/:<>?\\|]/g;

/** `20261130_alice_vs_bob_<id>`: the start date (Japan time, as the record's headers), the players, the game. */
export function fileBaseName(record: GameRecord, gameId: string): string {
  const date = /^(\d{4})\/(\d{2})\/(\d{2})/.exec(record.info.start_time ?? '');
  const part = (text: string | null, fallback: string) =>
    (text ?? '').replace(UNSAFE_IN_NAMES, '').trim().replace(/\s+/g, '_').slice(0, 40) || fallback;
  const safeId = gameId.replace(/[^A-Za-z0-9_-]/g, '');
  return [
    date === null ? null : `${date[1]}${date[2]}${date[3]}`,
    `${part(record.players.sente, 'sente')}_vs_${part(record.players.gote, 'gote')}`,
    safeId,
  ]
    .filter((p) => p !== null)
    .join('_');
}

/**
 * `attachment` with the file name twice (RFC 6266): `filename` in ASCII for old clients (other
 * characters as `_`), `filename*` in UTF-8 for the rest.
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return ascii === fileName
    ? `attachment; filename="${ascii}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
