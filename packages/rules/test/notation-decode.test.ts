/**
 * From bytes to records: encoding and format detection, Shift_JIS input, and the promise
 * that no input makes a parser throw or hang (fast-check over random bytes, mutated
 * fixture files and token soups; size caps).
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { exportCsa, parseCsa } from '../src/notation/csa.js';
import { decodeRecord, splitRecords } from '../src/notation/decode.js';
import { parseKif } from '../src/notation/kif.js';
import { exportKif } from '../src/notation/kif-export.js';
import { MAX_RECORD_CHARS, RECORD_ERRORS } from '../src/notation/record.js';
import { replayRecord } from '../src/replay.js';
import { FIXTURES } from './fixtures.js';

const GAMES = `${FIXTURES}games/`;
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Shift_JIS bytes of the characters below (from the JIS X 0208 table, as iconv writes them). */
const SJIS: Readonly<Record<string, readonly number[]>> = {
  '\u3000': [0x81, 0x40],
  ち: [0x82, 0xbf],
  七: [0x8e, 0xb5],
  上: [0x8f, 0xe3],
  下: [0x89, 0xba],
  中: [0x92, 0x86],
  五: [0x8c, 0xdc],
  人: [0x90, 0x6c],
  八: [0x94, 0xaa],
  六: [0x98, 0x5a],
  初: [0x8f, 0x89],
  割: [0x8a, 0x84],
  合: [0x8d, 0x87],
  同: [0x93, 0xaf],
  名: [0x96, 0xbc],
  四: [0x8e, 0x6c],
  始: [0x8e, 0x6e],
  成: [0x90, 0xac],
  手: [0x8e, 0xe8],
  打: [0x91, 0xc5],
  指: [0x8e, 0x77],
  数: [0x90, 0x94],
  断: [0x92, 0x66],
  日: [0x93, 0xfa],
  時: [0x8e, 0x9e],
  歩: [0x95, 0xe0],
  段: [0x92, 0x69],
  消: [0x8f, 0xc1],
  落: [0x97, 0x8e],
  角: [0x8a, 0x70],
  費: [0x94, 0xef],
  銀: [0x8b, 0xe2],
  開: [0x8a, 0x4a],
  間: [0x8a, 0xd4],
  香: [0x8d, 0x81],
  '３': [0x82, 0x52],
  '５': [0x82, 0x54],
  '７': [0x82, 0x56],
  '８': [0x82, 0x57],
  '：': [0x81, 0x46],
};
const shiftJis = (text: string): Uint8Array =>
  Uint8Array.from([...text].flatMap((ch) => (ch.charCodeAt(0) < 0x80 ? [ch.charCodeAt(0)] : [...(SJIS[ch] ?? [])])));

const LANCE_HANDICAP = `開始日時：2024/01/03
手合割：香落ち
上手：上手名人
下手：下手初段
手数----指手---------消費時間--
   1 ３四歩(33)
   2 ７六歩(77)
   3 ８八角成(22)
   4 同　銀(79)
   5 ５五角打
   6 ７七角打
   7 中断
`;

describe('decodeRecord', () => {
  test('a KIF in Shift_JIS reads like the same KIF in UTF-8', () => {
    const bytes = shiftJis(LANCE_HANDICAP);
    expect(bytes.length).toBeLessThan(utf8(LANCE_HANDICAP).length);
    const decoded = decodeRecord(bytes);
    expect(decoded).toMatchObject({ ok: true, value: { format: 'kif', encoding: 'shift_jis' } });
    expect(decoded.ok && decoded.value.record).toEqual((parseKif(LANCE_HANDICAP) as { value: unknown }).value);
  });

  test('the shogi-server uchifuzume log is Shift_JIS: its comments decode to kanji', () => {
    const decoded = decodeRecord(readFileSync(`${GAMES}shogi-server/test_csa_uchifuzume.csa`));
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(decoded.value).toMatchObject({ format: 'csa', encoding: 'shift_jis' });
    expect(decoded.value.record.comments.some((c) => c.text.includes('王'))).toBe(true);
  });

  test('UTF-8 with a BOM (WCSC28) and without (ShogiLibSharp)', () => {
    const bom = decodeRecord(readFileSync(`${GAMES}wcsc28/utf8_WCSC28_L1_762_KFW.csa`));
    expect(bom).toMatchObject({ ok: true, value: { format: 'csa', encoding: 'utf-8' } });
    expect(bom.ok && bom.value.record.players.gote).toBe('きふわらべ');
    const plain = decodeRecord(readFileSync(`${GAMES}shogilibsharp/ShogiLibSharp.Core.Tests_kifu_sennichite_1.csa`));
    expect(plain.ok && plain.value.record.players.sente).toBe('丸山忠久 九段');
  });

  test('a CSA V3 file declaring Shift_JIS is read as Shift_JIS', () => {
    const text = "'CSA encoding=SHIFT_JIS\nV3.0\nN+上手\nPI\n+\n";
    const decoded = decodeRecord(shiftJis(text));
    expect(decoded.ok && decoded.value.record.players.sente).toBe('上手');
  });

  test.each([
    ['CSA by content', 'V2.2\nPI\n+\n', undefined, 'csa'],
    ['KIF by content', '手合割：平手\n', undefined, 'kif'],
    ['KIF by a move line', '   1 ７六歩(77)\n', undefined, 'kif'],
    ['CSA by the name when the content does not say', "'only a comment\n", 'game.csa', 'csa'],
  ])('format: %s', (_, text, name, format) => {
    const decoded = decodeRecord(utf8(text), name);
    if (decoded.ok) expect(decoded.value.format).toBe(format);
    else expect(decoded.error.code).toBe('missing_position'); // detected as CSA, then parsed
  });

  test.each([
    ['text that is neither format', utf8('hello world\n'), 'unknown_format'],
    ['bytes that are neither UTF-8 nor Shift_JIS', Uint8Array.from([0xff, 0xff, 0xfe]), 'bad_encoding'],
    ['empty input', new Uint8Array(0), 'unknown_format'],
  ])('%s is an error code', (_, bytes, code) => {
    expect(decodeRecord(bytes)).toMatchObject({ ok: false, error: { code } });
  });

  test.each([
    ['empty', new Uint8Array(0)],
    ['blank', utf8(' \r\n\u3000\n')],
    ['a BOM alone', utf8('\uFEFF')],
  ])('an %s file named .kif or .csa is refused, not read as a game without moves', (_, bytes) => {
    for (const name of ['x.kif', 'x.kifu', 'x.csa'])
      expect(decodeRecord(bytes, name)).toMatchObject({ ok: false, error: { code: 'unknown_format' } });
  });
});

/** Everything a record allows: replay and both exports must not throw either. */
function exercise(bytes: Uint8Array): void {
  const decoded = decodeRecord(bytes);
  if (!decoded.ok) {
    expect(RECORD_ERRORS).toContain(decoded.error.code);
    return;
  }
  replayRecord(decoded.value.record, 'jsa');
  exportCsa(decoded.value.record, { version: '3.0' });
  exportKif(decoded.value.record);
}

describe('hostile input never throws', () => {
  test('random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), exercise), { numRuns: 500 });
  });

  const fixtures = readdirSync(GAMES).flatMap((dir) =>
    readdirSync(`${GAMES}${dir}`).map((f) => new Uint8Array(readFileSync(`${GAMES}${dir}/${f}`))),
  );
  const mutation = fc.record({
    at: fc.nat(),
    op: fc.constantFrom('set', 'cut', 'dup'),
    byte: fc.integer({ min: 0, max: 255 }),
  });
  test('fixture files with random byte edits', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: fixtures.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 8 }),
        (i, edits) => {
          let bytes = Array.from(fixtures[i] ?? []);
          for (const { at, op, byte } of edits) {
            const p = at % Math.max(1, bytes.length);
            if (op === 'set') bytes[p] = byte;
            else if (op === 'cut') bytes = [...bytes.slice(0, p), ...bytes.slice(p + 1 + (byte % 40))];
            else bytes = [...bytes.slice(0, p), ...bytes.slice(p, p + (byte % 40)), ...bytes.slice(p)];
          }
          exercise(Uint8Array.from(bytes));
        },
      ),
      { numRuns: 300 },
    );
  });

  // a real game's opening, with times, comments, an ending and some noise spliced in
  const OPENING = ['+7776FU', '-3334FU', '+8822UM', '-3122GI', '+0055KA', '-5152OU', '+5958OU', '-0044KA', '+5569UM'];
  const HEADERS = ['V2.2', 'V3.0', "'CSA encoding=UTF-8", 'N+a', 'N-b', '$EVENT:e', '$TIME:600+10+0', '$X:y', "'c"];
  const STARTS = ['PI\n+', 'PI82HI22KA\n-', 'PI\nP+00FU\n+', 'P-51OU\nP+59OU\nP+00AL\n+'];
  const EXTRAS = ['T12', 'T1.5', "'note", "'summary:x", '%TORYO', '%KACHI', '+7776FU', 'P1-OU', '/', ''];
  test('CSA records with noise parse or fail cleanly, and what parses round-trips', () => {
    const body = fc.array(fc.oneof(fc.constantFrom(...OPENING), fc.constantFrom(...EXTRAS)), { maxLength: 14 });
    const game = fc.tuple(fc.subarray(HEADERS), fc.constantFrom(...STARTS), fc.nat({ max: OPENING.length }), body);
    let parsed = 0;
    fc.assert(
      fc.property(game, fc.constantFrom('\n', ',', '\r\n'), ([headers, start, n, extras], sep) => {
        const moves = OPENING.slice(0, n).flatMap((m, i) => [m, ...(i % 3 === 0 ? extras.slice(i, i + 2) : [])]);
        const result = parseCsa([...headers, start, moves.join(sep)].join('\n'));
        if (!result.ok) return;
        parsed++;
        const text = exportCsa(result.value, { version: '3.0' });
        expect(text.ok && parseCsa(text.value)).toEqual(result);
      }),
      { numRuns: 1000 },
    );
    expect(parsed).toBeGreaterThan(100);
  });

  const KIF_LINES = [
    '手合割：平手',
    '手合割：角落ち',
    '先手：a',
    '後手の持駒：歩二',
    '手数----指手--',
    '*comment',
    '変化：3手',
  ];
  const KIF_MOVES = ['   1 ７六歩(77)', '   2 ３四歩(33)', '   3 ２二角成(88)', '   4 同　銀(31)', '   5 ５五角打'];
  const KIF_ENDS = ['   6 投了', '   6 反則勝ち', '   6 詰み ( 0:01/00:00:01)', '| ・ ・|一', '後手番', ''];
  test('KIF line soups parse or fail cleanly, and what parses round-trips', () => {
    // moves must come numbered in order, so a soup also draws the opening's first n moves as one piece
    const opening = fc.integer({ min: 1, max: KIF_MOVES.length }).map((n) => KIF_MOVES.slice(0, n).join('\n'));
    const line = fc.oneof(fc.constantFrom(...KIF_LINES, ...KIF_MOVES, ...KIF_ENDS), opening);
    let parsed = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const result = parseKif(lines.join('\n'));
        if (!result.ok) return;
        parsed += result.value.moves.length > 0 ? 1 : 0;
        const text = exportKif(result.value);
        expect(text.ok && parseKif(text.value)).toEqual(result);
      }),
      { numRuns: 1000 },
    );
    expect(parsed).toBeGreaterThan(30);
  });

  test('huge input is refused or read in linear time', () => {
    expect(parseCsa('x'.repeat(MAX_RECORD_CHARS + 1))).toMatchObject({ ok: false, error: { code: 'too_large' } });
    expect(parseKif('x'.repeat(MAX_RECORD_CHARS + 1))).toMatchObject({ ok: false, error: { code: 'too_large' } });
    const started = performance.now();
    expect(parseCsa(`V2.2\n${'+'.repeat(1_000_000)}`)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    expect(parseKif(`手数----\n   1 ${'７'.repeat(15_000)}`)).toMatchObject({ ok: false });
    expect(parseCsa(`V2.2\nPI\n+\n${"'comment\n".repeat(300_000)}`)).toMatchObject({ ok: true });
    expect(parseKif(`${'*comment\n'.repeat(300_000)}`)).toMatchObject({ ok: true });
    // long runs of blanks inside lines: a trailing-blank regex would take seconds per line
    const blanks = `棋戦：${' '.repeat(19_000)}x${' '.repeat(900)}\n`.repeat(150);
    expect(parseKif(blanks)).toMatchObject({ ok: true });
    expect(parseCsa(`V2.2\n${`$EVENT:${' '.repeat(19_000)}x\n`.repeat(150)}PI\n+\n`)).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test('a record longer than the move cap is refused', () => {
    // kings shuffling: every move is legal, 4 moves per line, 751 lines
    const moves = '+5958OU,-5152OU,+5859OU,-5251OU\n'.repeat(751);
    expect(parseCsa(`V2.2\nPI\n+\n${moves}`)).toMatchObject({
      ok: false,
      error: { code: 'too_many_moves', line: 754 },
    });
  });
});

describe('splitRecords', () => {
  const text = (parts: Uint8Array[]) => parts.map((p) => new TextDecoder().decode(p));
  test('a CSA file of several records is split on its lone `/` lines, CRLF or LF', () => {
    const one = 'V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n%TORYO\n';
    const two = 'V2.2\r\nN+c\r\nN-d\r\nPI\r\n+\r\n+2726FU\r\n%TORYO\r\n';
    const parts = splitRecords(utf8(`${one}/\n${two}/\r\n`));
    expect(text(parts)).toEqual([one, two]);
    for (const p of parts) expect(decodeRecord(p).ok).toBe(true);
  });
  test('a file without a separator line comes back whole, `/` inside a line included', () => {
    const bytes = utf8("V2.2\n'a / comment\n$START_TIME:2026/11/30\nPI\n+\n");
    expect(splitRecords(bytes)).toEqual([bytes]);
  });
  test('Shift_JIS records keep their bytes', () => {
    const a = shiftJis("'CSA encoding=SHIFT_JIS\nV3.0\nN+上手\nPI\n+\n");
    const joined = new Uint8Array([...a, ...utf8('/\n'), ...a]);
    const parts = splitRecords(joined);
    expect(parts).toHaveLength(2);
    for (const p of parts) {
      const d = decodeRecord(p);
      expect(d.ok && d.value.record.players.sente).toBe('上手');
    }
  });
  test('atMost: the split stops at the record past the cap; blank parts do not count', () => {
    const rec = (n: number) => `V2.2\nN+p${n}\nN-q\nPI\n+\n+7776FU\n%TORYO\n`;
    const file = utf8(`/\n\n/\n${[1, 2, 3, 4, 5].map(rec).join('/\n')}`);
    expect(text(splitRecords(file, 2))).toEqual([rec(1), rec(2), rec(3)]);
    expect(text(splitRecords(file, 5))).toEqual([1, 2, 3, 4, 5].map(rec));
    expect(splitRecords(file, 5)).toEqual(splitRecords(file));
    const single = utf8(rec(1));
    expect(splitRecords(single, 0)).toEqual([single]);
  });
});
