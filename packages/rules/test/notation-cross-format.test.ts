/**
 * What one record format states that another has no field for (cross-format.ts), written in the
 * other's own way: comments of both kinds, a failed impasse declaration, KIF-only and CSA-only
 * headers. Each case is checked twice: our parsers read the export back to the same record, and
 * tsshogi (tsshogi-reader.ts) reads it as the format's readers do.
 */
import { describe, expect, test } from 'vitest';
import { parseCsa } from '../src/notation/csa.js';
import { decodeRecord } from '../src/notation/decode.js';
import { parseKif } from '../src/notation/kif.js';
import type { GameRecord } from '../src/notation/record.js';
import { writeRecord } from '../src/notation/write.js';
import { tsComments, tsOutcome, tsshogiRead } from './tsshogi-reader.js';

const FORMATS = [
  ['kif', { format: 'kif' }],
  ['csa 2.2', { format: 'csa', csaVersion: '2.2' }],
  ['csa 3.0', { format: 'csa', csaVersion: '3.0' }],
  ['jkf', { format: 'jkf' }],
] as const;

function value<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

const written = (record: GameRecord, options: (typeof FORMATS)[number][1]): string =>
  value(writeRecord(record, options));
const reread = (text: string, format: string): GameRecord =>
  value(decodeRecord(new TextEncoder().encode(text), `x.${format}`)).record;

describe('comments keep their move and their kind', () => {
  // a Floodgate log: an engine's `'**` comment, a note readers skip, a comment on the special move
  const csa = value(
    parseCsa(
      "V2.2\nPI\n+\n'* before the game\n'a note\n+7776FU\nT1\n'** 30 -3334FU\n-3334FU\nT2\n'another note\n%TORYO,'* gg\n",
    ),
  );

  test("CSA: `'*` comments its move, `'` is a note, a comment after the special move is the ending’s", () => {
    expect(csa.comments).toEqual([
      { ply: 0, text: ' before the game' },
      { ply: 0, text: 'a note', kind: 'note' },
      { ply: 1, text: '* 30 -3334FU' },
      { ply: 2, text: 'another note', kind: 'note' },
      { ply: 3, text: ' gg' },
    ]);
  });

  test('KIF: `*` comments, `**` is a comment starting with `*`, `#` among the moves a note', () => {
    const kif = written(csa, { format: 'kif' });
    expect(kif).toContain('   1 ７六歩(77)   ( 0:01/00:00:01)\n** 30 -3334FU\n');
    expect(kif).toContain('#another note\n   3 投了\n* gg\n');
    expect(value(parseKif(kif)).comments).toEqual(csa.comments);
  });

  test.each(FORMATS)('%s: read back the same, and tsshogi attaches the comments as it does to the CSA file', (_, o) => {
    const text = written(csa, o);
    expect(reread(text, o.format).comments).toEqual(csa.comments);
    const original = tsComments(
      tsshogiRead(
        'csa',
        "V2.2\nPI\n+\n'* before the game\n'a note\n+7776FU\n'** 30 -3334FU\n-3334FU\n'another note\n%TORYO,'* gg\n",
      ),
    );
    const strip = (c: [number, string][]) => c.map(([ply, t]) => [ply, t.replace(/\n$/, '')]);
    expect(strip(tsComments(tsshogiRead(o.format, text)))).toEqual(strip(original));
    expect(original).toEqual([
      [0, ' before the game\n'],
      [1, '* 30 -3334FU\n'],
      [3, ' gg\n'],
    ]);
  });

  test("KIF comments exported to CSA are `'*` lines: tsshogi attaches every one to its move", () => {
    const kif = value(
      parseKif('手数----指手---------消費時間--\n*序盤\n   1 ７六歩(77)\n*角道を開ける\n*二行目\n   2 投了\n'),
    );
    const text = written(kif, { format: 'csa', csaVersion: '3.0' });
    expect(text).toContain("+7776FU\n'*角道を開ける\n'*二行目\n");
    expect(tsComments(tsshogiRead('csa', text))).toEqual([
      [0, '序盤\n'],
      [1, '角道を開ける\n二行目\n'],
    ]);
  });
});

describe('a failed impasse declaration is scored for the opponent in every export', () => {
  // sente declares at once: no points, no king in camp, so the declaration fails and gote wins
  const declared = value(parseCsa('V2.2\nPI\n+\n+7776FU\n-3334FU\n%KACHI\n'));
  const failed: GameRecord = { ...declared, result: { winner: 1, text: '後手の勝ち' } };

  test.each(FORMATS)('%s: the declarer’s foul and a note saying it was a declaration, read back as one', (_, o) => {
    const text = written(failed, o);
    expect(tsOutcome(tsshogiRead(o.format, text))).toBe('gote');
    const back = reread(text, o.format);
    expect(back.ending).toEqual({ kind: 'kachi', raw: '%KACHI', seconds: null });
    expect(back.comments).toEqual([]);
  });

  test('CSA writes %ILLEGAL_MOVE and the note; KIF 反則負け, the note and the closing line', () => {
    expect(written(failed, { format: 'csa', csaVersion: '2.2' })).toContain("-3334FU\n%ILLEGAL_MOVE\n'%KACHI\n");
    expect(written(failed, { format: 'kif' })).toContain('   3 反則負け\n#%KACHI\nまで2手で後手の勝ち\n');
  });

  test.each(FORMATS)('%s: a declaration that holds (no result against it) is written as it was', (_, o) => {
    const text = written({ ...declared, result: { winner: 0, text: '先手の入玉勝ち' } }, o);
    expect(tsOutcome(tsshogiRead(o.format, text))).toBe('sente');
    expect(reread(text, o.format).ending?.kind).toBe('kachi');
  });
});

describe('headers one format has no field for are kept the other’s way', () => {
  const kif = value(
    parseKif(
      '開始日時：2024/05/18 09:00:00\n表題：名人戦\n持ち時間：各9時間\n消費時間：52▲290△302\n作者：誰か\n対局ID：12345\n最大手数：256\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n',
    ),
  );
  const csa = value(
    parseCsa(
      "V3.0\n$EVENT:floodgate\n$TIME_LIMIT:00:10+10\n$TIME+:600+10+0\n$TIME-:300+10+0\n$X_ID:7\nPI\n+\n+7776FU\n%TORYO\n'summary:toryo:a win:b lose\n",
    ),
  );

  test("KIF → CSA: a header with no CSA tag is a `'KEY:value` line before the start, which readers skip", () => {
    const text = written(kif, { format: 'csa', csaVersion: '3.0' });
    expect(text).toContain("'持ち時間:各9時間\n'表題:名人戦\n'消費時間:52▲290△302\n'作者:誰か\n'対局ID:12345\n");
    expect(text).toContain('$MAX_MOVES:256\n');
    expect(tsComments(tsshogiRead('csa', text))).toEqual([]);
  });

  test("CSA → KIF and JKF: a tag with no KIF name is a `$KEY` header, the summary a `'summary` one", () => {
    const text = written(csa, { format: 'kif' });
    expect(text).toContain(
      "$TIME_LIMIT：00:10+10\n$TIME+：600+10+0\n$TIME-：300+10+0\n$X_ID：7\n'summary：toryo:a win:b lose\n",
    );
    expect(text).toContain('棋戦：floodgate\n');
  });

  test.each(FORMATS)('%s and back: every header of both records, in its place', (_, o) => {
    for (const record of [kif, csa]) {
      const back = reread(written(record, o), o.format);
      expect(back.info).toEqual(record.info);
      expect(back.extraInfo).toEqual(record.extraInfo);
      expect(back.summary).toEqual(record.summary);
      expect(back.players).toEqual(record.players);
    }
  });
});

describe('bad input stays out of the other formats’ lines', () => {
  test('a JKF header with line breaks is one line in every export', () => {
    const jkf = JSON.stringify({
      header: { 先手: 'a\nb', 作者: 'x\r\n+7776FU', 'key\nwith break': 'v' },
      moves: [{}, { move: { color: 0, from: { x: 7, y: 7 }, to: { x: 7, y: 6 }, piece: 'FU' } }],
    });
    const record = reread(jkf, 'jkf');
    expect(record.players.sente).toBe('a b');
    expect(record.extraInfo).toEqual([
      { format: 'kif', key: '作者', value: 'x +7776FU' },
      { format: 'kif', key: 'key with break', value: 'v' },
    ]);
    for (const [, o] of FORMATS) {
      const back = reread(written(record, o), o.format);
      expect(back.moves).toEqual(['7g7f']);
      expect(back.extraInfo).toEqual(record.extraInfo);
    }
  });
});
