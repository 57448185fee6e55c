/**
 * What one format states that another has no field for, written in the other's own way so that
 * a round trip through any export loses nothing, and read back by every parser:
 *
 * - a CSA header with no KIF name (`$TIME_LIMIT`, `$TIME`, `$TIME+`, any other `$KEY`) is a KIF or
 *   JKF header named `$KEY`, and the server's `'summary:` line a header named `'summary`; a KIF header with no CSA tag (表題, 持ち時間, 作者, 対局ID, ...) is a
 *   CSA comment line `'KEY:value` before the start position, which CSA readers skip;
 * - a failed impasse declaration (`%KACHI` that the board refutes) is written as the declarer's
 *   foul, which is how every reader scores it (tsshogi reads the first special move of a line and
 *   no later one, so `%KACHI` and then the result would read as the declarer's win), followed by
 *   the note `%KACHI`, which readers skip and these parsers read back as the declaration.
 */
import type { Color } from '../types.js';
import { HEADER_KEYS } from './kif-words.js';
import type { Ending, GameRecord, InfoKey, RecordComment, RecordDraft } from './record.js';

/** CSA `$` tags by common name; a tag not here is an extra CSA header. */
export const CSA_INFO_TAGS: readonly (readonly [InfoKey, string])[] = [
  ['event', 'EVENT'],
  ['site', 'SITE'],
  ['start_time', 'START_TIME'],
  ['end_time', 'END_TIME'],
  ['time_limit', 'TIME_LIMIT'],
  ['time', 'TIME'],
  ['opening', 'OPENING'],
  ['max_moves', 'MAX_MOVES'],
  ['jishogi', 'JISHOGI'],
  ['note', 'NOTE'],
];

/** The KIF header name of a common field, if KIF has one. */
export const kifName = (key: InfoKey): string | undefined =>
  Object.keys(HEADER_KEYS).find((k) => HEADER_KEYS[k] === key);

/** A CSA `$TAG:value`, by its common name or as an extra CSA header. */
export function readCsaInfo(record: RecordDraft, tag: string, value: string): void {
  const known = CSA_INFO_TAGS.find(([, t]) => t === tag);
  if (known) record.info[known[0]] = value;
  else record.extraInfo.push({ format: 'csa', key: tag, value });
}

/** The KIF and JKF header that holds the CSA server's `'summary:` line. */
export const SUMMARY_HEADER = "'summary";

/** A KIF or JKF header `key：value` that is neither a player nor the start: `$KEY` and `'summary` are CSA's. */
export function readKifInfo(record: RecordDraft, key: string, value: string): void {
  if (key === SUMMARY_HEADER) record.summary = value;
  else if (key.startsWith('$') && key.length > 1) readCsaInfo(record, key.slice(1), value);
  else if (Object.hasOwn(HEADER_KEYS, key)) record.info[HEADER_KEYS[key] as InfoKey] = value;
  else record.extraInfo.push({ format: 'kif', key, value });
}

/** The CSA headers that KIF has no name for, as KIF or JKF headers `[$KEY, value]`. */
export function csaOnlyHeaders(record: GameRecord): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, tag] of CSA_INFO_TAGS) {
    const value = record.info[key];
    if (value !== undefined && kifName(key) === undefined) out.push([`$${tag}`, value]);
  }
  for (const extra of record.extraInfo) if (extra.format === 'csa') out.push([`$${extra.key}`, extra.value]);
  if (record.summary !== null) out.push([SUMMARY_HEADER, record.summary]);
  return out;
}

/** The KIF headers that CSA has no tag for, as CSA comment lines `'KEY:value`. */
export function kifOnlyLines(record: GameRecord): string[] {
  const out: string[] = [];
  for (const [name, key] of Object.entries(HEADER_KEYS)) {
    const value = record.info[key];
    if (value !== undefined && !CSA_INFO_TAGS.some(([k]) => k === key)) out.push(`'${name}:${value}`);
  }
  for (const extra of record.extraInfo) if (extra.format === 'kif') out.push(`'${extra.key}:${extra.value}`);
  return out;
}

/** `'KEY:value` before the position: a KIF header a CSA export kept (see kifOnlyLines). */
const KIF_LINE = /^'([^\s'*$:：](?:[^:：]{0,38}[^\s:：])?):(.*)$/;

/** Reads a CSA comment line before the start as a KIF header; false when it is none. */
export function readKifLine(record: RecordDraft, line: string): boolean {
  const m = KIF_LINE.exec(line);
  if (m === null || /^(summary|CSA encoding=)/i.test(line.slice(1))) return false;
  readKifInfo(record, m[1] as string, m[2] as string);
  return true;
}

/** The note after a foul that says the foul was a failed `%KACHI`. */
export const DECLARATION_NOTE = '%KACHI';

/** The side to move after `plies` moves from `sfen`. */
export const sideAfter = (sfen: string, plies: number): Color =>
  ((sfen.split(' ')[1] === 'w' ? 1 : 0) ^ (plies & 1)) as Color;

/**
 * True when the record's `%KACHI` failed: the result it states (the server's judgement, or a
 * closing line) names the other side than the declarer, who is the side to move.
 */
export function declarationFailed(record: Pick<GameRecord, 'ending' | 'result'>, mover: Color): boolean {
  const winner = record.result?.winner;
  return record.ending?.kind === 'kachi' && winner !== undefined && winner !== null && winner !== mover;
}

/**
 * The foul a failed declaration is written as: CSA's `%ILLEGAL_MOVE` (the side to move loses by a
 * foul), KIF's 反則負け. Not `%+ILLEGAL_ACTION`/`%-ILLEGAL_ACTION`, which tsshogi (2.2) reads
 * as the named side's win where the CSA standard makes it that side's loss.
 */
export const DECLARER_FOUL: Ending['kind'] = 'illegal_move';

/** The note that follows that foul, after the ending (ply `endPly`). */
export const declarationNote = (endPly: number): RecordComment => ({
  ply: endPly,
  text: DECLARATION_NOTE,
  kind: 'note',
});

/**
 * Reads a failed declaration back: a foul of the side to move (CSA `%ILLEGAL_MOVE` or that side's
 * `%±ILLEGAL_ACTION`, KIF 反則負け) followed by the note `%KACHI` is that side's `%KACHI`, which
 * the importer judges on the board as it judges any declaration.
 */
export function readDeclaration(record: RecordDraft): void {
  const end = record.ending;
  if (end === null) return;
  const mover = sideAfter(record.sfen, record.moves.length);
  if (end.kind !== DECLARER_FOUL && end.kind !== (mover === 0 ? '+illegal_action' : '-illegal_action')) return;
  const endPly = record.moves.length + 1;
  const at = record.comments.findIndex((c) => c.kind === 'note' && c.ply === endPly && c.text === DECLARATION_NOTE);
  if (at < 0) return;
  record.comments.splice(at, 1);
  record.ending = { kind: 'kachi', raw: DECLARATION_NOTE, seconds: end.seconds };
}
