/**
 * Records as the programs players use write them (test/fixtures/records, written from each
 * format's documentation: Kakinoki's KIF/KI2 page, the JKF README, the CSA standard): each is
 * read in its encoding and dialect, its moves are legal, and its words (headers, comments,
 * ending, closing line, variations) survive writing it as KIF, CSA and JKF and reading it back.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HANDICAP_SFENS } from '../src/handicaps.js';
import { parseCsa } from '../src/notation/csa.js';
import { decodeRecord } from '../src/notation/decode.js';
import { parseJkf } from '../src/notation/jkf.js';
import { parseKi2 } from '../src/notation/ki2.js';
import { parseKif } from '../src/notation/kif.js';
import type { GameRecord, RecordVariation } from '../src/notation/record.js';
import { writeRecord } from '../src/notation/write.js';
import { replayRecord } from '../src/replay.js';

const DIR = new URL('./fixtures/records/', import.meta.url);
const read = (name: string) => {
  const decoded = decodeRecord(readFileSync(new URL(name, DIR)), name);
  if (!decoded.ok)
    throw new Error(`${name}: ${decoded.error.code} at line ${decoded.error.line}: ${decoded.error.message}`);
  return decoded.value;
};
const value = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('the dialects', () => {
  test('Kifu for Windows (Shift_JIS): headers, 封じ手, comments, the closing line, nested variations', () => {
    const { format, encoding, record } = read('kifu-for-windows.kif');
    expect({ format, encoding }).toEqual({ format: 'kif', encoding: 'shift_jis' });
    expect(record.info).toMatchObject({
      title: 'テスト名人戦',
      event: '第1期テスト名人戦七番勝負 第1局',
      opening: '相掛かり',
      time_control: '各9時間',
      site: '東京・将棋会館',
    });
    expect(record.moves).toHaveLength(12);
    expect(record.times[8]).toBe(75 * 60 + 12);
    expect(record.ending).toEqual({ kind: 'toryo', raw: '投了', seconds: 3 });
    expect(record.result).toEqual({ winner: 1, text: '後手の勝ち' });
    // the sealed move line is kept as a comment before the move it seals
    expect(record.comments).toContainEqual({ ply: 8, text: '封じ手' });
    expect(record.comments).toContainEqual({ ply: 9, text: '封じ手は６八玉。' });
    expect(record.variations?.map((v) => [v.ply, v.moves, v.variations.map((w) => [w.ply, w.moves])])).toEqual([
      [9, ['5g5f', '5a6b'], []],
      [1, ['7g7f', '3c3d', '2g2f', '4c4d'], [[3, ['6g6f', '8c8d']]]],
    ]);
    expect(replayRecord(record)).toMatchObject({ plies: 12, status: 'ongoing' });
  });

  test('an adjourned game: the record ends at 封じ手, an interruption with its time', () => {
    const { record } = read('adjourned.kif');
    expect(record.moves).toEqual(['7g7f', '3c3d', '2g2f']);
    expect(record.ending).toEqual({ kind: 'chudan', raw: '封じ手', seconds: 1500 });
    expect(record.result).toBeNull();
    expect(record.variations?.[0]?.ending?.kind).toBe('+illegal_action');
    const kif = value(writeRecord(record, { format: 'kif' }));
    expect(kif).toContain('   4 封じ手   (25:00/00:25:00)');
  });

  test("Kakinoki's own example: half-width colons and ASCII files", () => {
    const { record } = read('kakinoki-halfwidth.kif');
    expect(record.players).toEqual({ sente: '先手の対局者名', gote: '後手の対局者名' });
    expect(record.moves).toEqual(['7g7f', '3c3d']);
    expect(record.times).toEqual([16, 0]);
    expect(record.ending).toEqual({ kind: 'chudan', raw: '中断', seconds: 3 });
  });

  test("Shogidokoro: its time column '(00:31 / 00:00:31)', 同歩　(87), 持将棋", () => {
    const { format, record } = read('shogidokoro.kifu');
    expect(format).toBe('kif');
    expect(record.times.slice(0, 3)).toEqual([31, 2, 5]);
    expect(record.moves.slice(8, 12)).toEqual(['8g8f', '8b8f', 'P*8g', '8f8b']);
    expect(record.ending).toEqual({ kind: 'jishogi', raw: '持将棋', seconds: 10 });
    expect(record.result).toEqual({ winner: null, text: '持将棋' });
  });

  test('ShogiGUI: a lance handicap, engine comments, 切れ負け and 上手の勝ち', () => {
    const { record } = read('shogigui.kif');
    expect(record.sfen).toBe(HANDICAP_SFENS.lance);
    expect(record.players).toEqual({ sente: '下手ソフト', gote: '上手ソフト' });
    expect(record.comments[0]).toEqual({ ply: 1, text: '*対局 評価値 -120 読み筋 ▲７六歩(77) △８四歩(83)' });
    expect(record.ending?.kind).toBe('time_up');
    expect(record.result?.winner).toBe(1);
  });

  test('a position record from a BOD diagram, mated on the board', () => {
    const { record } = read('position.kif');
    expect(record.sfen).toBe('8k/9/8P/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1');
    expect(replayRecord(record)).toMatchObject({ plies: 1, status: 'checkmate' });
  });

  test('an old CSA file in EUC-JP: Japanese names, %HIKIWAKE, a comment', () => {
    const { encoding, record } = read('old-server.csa');
    expect(encoding).toBe('euc-jp');
    expect(record.players).toEqual({ sente: '先手ソフト', gote: '後手ソフト' });
    expect(record.info.site).toBe('テスト会場');
    expect(record.ending?.kind).toBe('hikiwake');
    expect(record.comments).toEqual([{ ply: 2, text: ' 10 +2726FU' }]);
  });

  test("a CSA special move with a comment, as Floodgate writes it: %KACHI,'* -5000 win", () => {
    const record = value(parseCsa("PI\n+\n+7776FU,T3\n-3334FU,'* 12 +2726FU\n%KACHI,'* -5000 win\n"));
    expect(record.ending?.kind).toBe('kachi');
    // the comment after the special move is the special move's (ply 3), as tsshogi attaches it
    expect(record.comments).toEqual([
      { ply: 2, text: ' 12 +2726FU' },
      { ply: 3, text: ' -5000 win' },
    ]);
  });

  // shogi-server writes the special move its player sent (with the player's comment), then its
  // own line for the result: `%KACHI` again (its GameResultKachiWin and GameResultIllegalKachiWin
  // both log `%KACHI`), or the same `%TORYO` after a `'*` line
  test.each([
    ['%KACHI with its comment, then %KACHI', "%KACHI,'* -5000 win\n%KACHI\n", 'kachi', [' -5000 win']],
    ['%TORYO with its time, a comment, %TORYO', "%TORYO,T1\n'* resign\n%TORYO\n", 'toryo', [' resign']],
    ['%KACHI, a note, %KACHI with a time', "%KACHI\n'note\n%KACHI,T2\n", 'kachi', ['note']],
  ])('a special move said again is one ending with its comments: %s', (_, tail, kind, texts) => {
    const record = value(parseCsa(`PI\n+\n+7776FU\n-3334FU\n${tail}'summary:x\n`));
    expect(record.ending?.kind).toBe(kind);
    expect(record.comments.map((c) => [c.ply, c.text])).toEqual(texts.map((t) => [3, t]));
  });

  test('a different special move after the ending is still a second ending', () => {
    expect(parseCsa('PI\n+\n+7776FU\n%TORYO\n%CHUDAN\n')).toMatchObject({
      ok: false,
      error: { code: 'bad_line', line: 5, message: 'a second ending' },
    });
  });
});

describe('KI2', () => {
  test('moves without origins, resolved through the legal moves: 右, 左, 直, 不成, 同, a drop without 打', () => {
    const { format, record } = read('game.ki2');
    expect(format).toBe('ki2');
    expect(record.moves).toEqual([
      '7g7f',
      '3c3d',
      '8h2b+',
      '3a2b',
      '4i5h', // ５八金右: the gold on sente's right
      '4a5b', // ５二金左: gote's left is the low files
      '6i6h', // ６八金直, not ５八's 寄
      '7a6b',
      'B*4e',
      '9c9d',
      '4e6c', // ６三角不成
      '6b6c',
    ]);
    expect(record.ending).toEqual({ kind: 'toryo', raw: '後手の勝ち', seconds: null });
    expect(record.comments).toEqual([{ ply: 10, text: '角を打って' }]);
    expect(record.variations).toEqual([
      { ply: 11, moves: ['4e6c+', '6b6c'], times: [null, null], comments: [], ending: null, variations: [] },
    ]);
  });

  test('上 and 引, 打 where a board move reaches the square too, from a BOD start', () => {
    const { record } = read('modifiers.ki2');
    expect(record.moves).toEqual(['4f4g', '5a5b', 'S*3g', '5b5a', '3g2h']);
    expect(record.variations?.[0]?.moves).toEqual(['4h4g']);
    expect(record.ending?.kind).toBe('chudan');
  });

  test('a KI2 of an adjourned game ends at 封じ手, as a KIF does', () => {
    const record = value(parseKi2('手合割：八枚落ち\n\n△７二金    ▲７六歩\nまで2手で封じ手\n'));
    expect(record.moves).toEqual(['6a7b', '7g7f']);
    expect(record.ending).toEqual({ kind: 'chudan', raw: '封じ手', seconds: null });
    expect(value(writeRecord(record, { format: 'kif' }))).toContain('   3 封じ手');
  });

  test('every closing line of a variation is its ending, of the side to move', () => {
    const { record } = read('endings.ki2');
    const endings = (vs: readonly { ending: { kind: string } | null; variations: readonly unknown[] }[]): string[] =>
      vs.flatMap((v) => [v.ending?.kind ?? 'none', ...endings(v.variations as typeof vs)]);
    expect(record.ending?.kind).toBe('toryo');
    expect(endings(record.variations ?? [])).toEqual([
      'chudan',
      'jishogi',
      'time_up',
      '+illegal_action',
      'tsumi',
      'fuzumi',
    ]);
  });

  test('a move two pieces could make, without the word that tells them apart, is ambiguous', () => {
    const r = parseKi2('▲７六歩　△３四歩　▲５八金\n');
    expect(r.ok || r.error).toMatchObject({ code: 'ambiguous_move', line: 1 });
    const none = parseKi2('▲７五歩\n');
    expect(none.ok || none.error).toMatchObject({ code: 'bad_move', line: 1 });
  });

  test('a resignation by the side not to move is a result, not an ending', () => {
    const record = value(parseKi2('▲７六歩\nまで1手で後手の勝ち\n'));
    expect(record.ending).toBeNull();
    expect(record.result).toEqual({ winner: 1, text: '後手の勝ち' });
  });
});

describe('JKF', () => {
  test('reads header, forks, same, drops, times, comments and the special', () => {
    const { format, record } = read('kifu-for-js.jkf');
    expect(format).toBe('jkf');
    expect(record.moves).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']);
    expect(record.times).toEqual([12, 5, null, null, null]);
    expect(record.info).toEqual({ start_time: '2024/10/01 10:00:00', event: 'JKFの見本', site: 'オンライン' });
    expect(record.ending?.kind).toBe('sennichite');
    expect(record.variations).toEqual([
      {
        ply: 2,
        moves: ['8c8d', '2g2f'],
        times: [null, null],
        comments: [{ ply: 2, text: '居飛車' }],
        ending: null,
        variations: [],
      },
    ]);
  });

  test('an unnormalized move (no origin, a relative word) is refused, not read as a drop', () => {
    const text = '{"header":{},"moves":[{},{"move":{"color":0,"to":{"x":7,"y":6},"piece":"FU","relative":"C"}}]}';
    expect(parseJkf(text)).toMatchObject({ ok: false, error: { code: 'bad_move' } });
  });

  test('bad JKF is an error, never a throw', () => {
    for (const text of [
      '{',
      '{"moves": 3}',
      '{"header":{},"moves":[{"move":{"color":1,"to":{"x":7,"y":6},"piece":"FU"}}]}',
    ])
      expect(parseJkf(text).ok).toBe(false);
    expect(parseJkf('{"header":{},"initial":{"preset":"NOPE"},"moves":[]}')).toMatchObject({
      ok: false,
      error: { code: 'bad_handicap' },
    });
  });
});

/** What a format can hold of a record: KIF and JKF all but the raw ending word; JKF no closing line. */
const comparable = (r: GameRecord, format: 'kif' | 'jkf') => ({
  sfen: r.sfen,
  moves: r.moves,
  times: r.times,
  ending: r.ending === null ? null : { kind: r.ending.kind, seconds: r.ending.seconds },
  players: r.players,
  info: r.info,
  comments: r.comments,
  variations: withoutRaw(r.variations ?? []),
  ...(format === 'kif' ? { result: r.result ?? null } : {}),
});

/** Variations with their endings' kinds only: a format writes each ending in its own word. */
const withoutRaw = (vs: readonly RecordVariation[]): unknown[] =>
  vs.map((v) => ({
    ...v,
    ending: v.ending === null ? null : { kind: v.ending.kind, seconds: v.ending.seconds },
    variations: withoutRaw(v.variations),
  }));

const SAMPLES = [
  'kifu-for-windows.kif',
  'kakinoki-halfwidth.kif',
  'shogidokoro.kifu',
  'shogigui.kif',
  'position.kif',
  'game.ki2',
  'modifiers.ki2',
  'kifu-for-js.jkf',
  'old-server.csa',
  'adjourned.kif',
  'endings.ki2',
];

describe('writing and reading back', () => {
  test.each(SAMPLES)('%s → KIF → the same record; → JKF → the same record', (name) => {
    const { record } = read(name);
    const kif = value(parseKif(value(writeRecord(record, { format: 'kif' }))));
    expect(comparable(kif, 'kif')).toEqual(comparable(record, 'kif'));
    const jkf = value(parseJkf(value(writeRecord(record, { format: 'jkf' }))));
    expect(comparable(jkf, 'jkf')).toEqual(comparable(record, 'jkf'));
  });

  test.each(SAMPLES)('%s → CSA V2.2 and V3.0 → the same main line, ending and comments', (name) => {
    const { record } = read(name);
    for (const csaVersion of ['2.2', '3.0'] as const) {
      const text = value(writeRecord(record, { format: 'csa', csaVersion }));
      expect(text.startsWith(csaVersion === '2.2' ? 'V2.2\n' : "'CSA encoding=UTF-8\nV3.0\n")).toBe(true);
      const csa = value(parseCsa(text));
      expect(csa.moves).toEqual(record.moves);
      expect(csa.ending?.kind ?? null).toBe(record.ending?.kind ?? null);
      const notice = (record.variations ?? []).length > 0 ? 1 : 0;
      expect(csa.comments.length).toBe(record.comments.length + notice);
    }
  });

  test('a CSA of a record with variations says they are not in it', () => {
    const text = value(writeRecord(read('game.ki2').record, { format: 'csa', csaVersion: '2.2' }));
    expect(text).toContain("'1 variation(s) not written: CSA has none (the KIF and JKF records keep them)");
  });
});

describe('what is not a record', () => {
  test('a start the rules forbid in play (two pawns of a side on a file) is refused by name', () => {
    const bod = read('position.kif').record.sfen.replace('8k/9/8P/', '8k/9/8P/8P/').replace('17p', '16p');
    const kif = writeRecord(
      { ...read('position.kif').record, sfen: bod, moves: [], times: [], ending: null },
      { format: 'kif' },
    );
    expect(kif.ok).toBe(false);
    const text = new TextDecoder()
      .decode(readFileSync(new URL('position.kif', DIR)))
      .replace('| ・ ・ ・ ・ ・ ・ ・ ・ ・|四', '| ・ ・ ・ ・ ・ ・ ・ ・ 歩|四')
      .replace('歩十七', '歩十六');
    expect(parseKif(text)).toMatchObject({ ok: false, error: { code: 'bad_position', line: 19 } });
    const parsed = parseKif(text);
    expect(parsed.ok ? '' : parsed.error.message).toContain('two unpromoted pawns');
  });

  test.each([
    ['[Event "x"]\n[Sente "a"]\n1. P-7f\n', 'PSN/PGN'],
    ['(;GM[1]FF[4])', 'SGF'],
    ['<!DOCTYPE html><html></html>', 'HTML or XML'],
    ['position startpos moves 7g7f\n', 'USI position'],
  ])('%j is named as unsupported', (text, name) => {
    const r = decodeRecord(bytes(text));
    expect(r.ok || r.error.code).toBe('unsupported_format');
    expect(r.ok || r.error.message).toContain(name);
  });

  test('something else is not a KIF, KI2, CSA or JKF record', () => {
    expect(decodeRecord(bytes('hello\n'))).toMatchObject({
      ok: false,
      error: { code: 'unknown_format', message: 'not a KIF, KI2, CSA or JKF record' },
    });
  });
});

describe('no input makes the new readers throw', () => {
  const KI2_PARTS = [
    '▲７六歩',
    '△３四歩',
    '▲２二角成',
    '△同　銀',
    '▲５八金右',
    '▲５八金',
    '△５二金左',
    '▲４五角打',
    '▲同',
    '▲',
    '　',
    '\n',
    '*c\n',
    '変化：3手\n',
    'まで3手で先手の勝ち\n',
    '手合割：角落ち\n',
  ];
  test('KI2 token soups parse or fail cleanly, and what parses is legal', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...KI2_PARTS), { maxLength: 25 }), (parts) => {
        const result = parseKi2(parts.join(''));
        if (result.ok) expect(replayRecord(result.value).status).not.toBe('illegal');
      }),
      { numRuns: 1000 },
    );
  });

  test('JKF with random edits parses or fails cleanly', () => {
    const sample = new TextDecoder().decode(readFileSync(new URL('kifu-for-js.jkf', DIR)));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.string({ maxLength: 4 })), { maxLength: 6 }),
        (edits) => {
          let text = sample;
          for (const [at, cut, insert] of edits) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + insert + text.slice(i + cut);
          }
          const result = parseJkf(text);
          if (result.ok) expect(Array.isArray(result.value.moves)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (v) => void parseJkf(JSON.stringify(v))),
      { numRuns: 500 },
    );
  });
});
