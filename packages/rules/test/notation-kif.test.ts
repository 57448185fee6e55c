/**
 * KIF records: hand-written samples (even game with 同, 成, 不成, 打 and a variation; a
 * lance handicap; a BOD diagram start), the ending words, errors with their lines, and
 * the round trips (KIF → KIF, and every fixture CSA → KIF → the same game).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { HANDICAP_SFENS } from '../src/handicaps.js';
import { parseCsa } from '../src/notation/csa.js';
import { decodeRecord } from '../src/notation/decode.js';
import { parseKif } from '../src/notation/kif.js';
import { exportKif } from '../src/notation/kif-export.js';
import type { GameRecord } from '../src/notation/record.js';
import { replayRecord } from '../src/replay.js';
import { START_SFEN } from '../src/sfen.js';
import { FIXTURES } from './fixtures.js';

const parsed = (text: string): GameRecord => {
  const result = parseKif(text);
  if (!result.ok) throw new Error(`${result.error.code} at line ${result.error.line}: ${result.error.message}`);
  return result.value;
};

export const EVEN_GAME = `# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
開始日時：2024/01/02(火) 10:00:00
棋戦：テスト棋戦
持ち時間：各10分
手合割：平手　　
先手：先手太郎
後手：後手花子
手数----指手---------消費時間--
*対局前のコメント
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ２二角成(88) ( 0:03/00:00:04)
*角交換
   4 同　銀(31)   ( 0:04/00:00:06)
   5 ４五角打     ( 0:05/00:00:09)
   6 3二金(41)   ( 0:06/00:00:12)
   7 ３四角(45)   ( 0:07/00:00:16)+
   8 ６二銀(71)   ( 0:08/00:00:20)
   9 ２三角不成(34) ( 0:09/00:00:25)
  10 同　金(32)   ( 1:10/00:01:30)
  11 投了         ( 0:11/00:00:36)
まで10手で後手の勝ち

変化：7手
   7 ２三角成(45)   ( 0:00/00:00:00)
`;

export const LANCE_HANDICAP = `開始日時：2024/01/03
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

const BOD_START = `後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v桂v香|一
| ・ ・ ・ ・ ・ ・ ・ ・v玉|二
| ・ ・ ・ ・ ・ ・ ・v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ 全 ・ 竜 ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金　歩二
後手番
手数＝10
手数----指手---------消費時間--
   1 ２四歩(23)
   2 ４六成銀(47)
   3 １四歩(13)
   4 ３二金打
   5 ２三玉(12)
   6 ２四龍(27)
   7 同　玉(23)
   8 投了
`;

describe('reading KIF', () => {
  test('an even game: headers, 同, 成, 不成, 打, times, comments, the closing line and the variation', () => {
    const record = parsed(EVEN_GAME);
    expect(record).toEqual({
      sfen: START_SFEN,
      moves: ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e', '4a3b', '4e3d', '7a6b', '3d2c', '3b2c'],
      times: [1, 2, 3, 4, 5, 6, 7, 8, 9, 70],
      ending: { kind: 'toryo', raw: '投了', seconds: 11 },
      summary: null,
      players: { sente: '先手太郎', gote: '後手花子' },
      info: { start_time: '2024/01/02(火) 10:00:00', event: 'テスト棋戦', time_control: '各10分' },
      extraInfo: [],
      comments: [
        { ply: 0, text: '対局前のコメント' },
        { ply: 3, text: '角交換' },
      ],
      result: { winner: 1, text: '後手の勝ち' },
      variations: [{ ply: 7, moves: ['4e2c+'], times: [0], comments: [], ending: null, variations: [] }],
    });
    expect(replayRecord(record)).toMatchObject({ plies: 10, status: 'ongoing' });
  });

  test('a lance handicap: 上手 (gote) moves first, names under 上手/下手', () => {
    const record = parsed(LANCE_HANDICAP);
    expect(record.sfen).toBe(HANDICAP_SFENS.lance);
    expect(record.players).toEqual({ sente: '下手初段', gote: '上手名人' });
    expect(record.moves).toEqual(['3c3d', '7g7f', '2b8h+', '7i8h', 'B*5e', 'B*7g']);
    expect(record.times).toEqual([null, null, null, null, null, null]);
    expect(record.ending).toEqual({ kind: 'chudan', raw: '中断', seconds: null });
    expect(replayRecord(record)).toMatchObject({ plies: 6, status: 'ongoing' });
  });

  test('a header line after the moves is still a header', () => {
    const record = parsed('手数----\n   1 ７六歩(77)\n   2 投了\n終了日時：2024/01/02 11:00:00\n');
    expect(record.info).toEqual({ end_time: '2024/01/02 11:00:00' });
  });

  test('a header key named like an object property is a header of its own', () => {
    expect(parsed('constructor：x\n').extraInfo).toEqual([{ format: 'kif', key: 'constructor', value: 'x' }]);
    expect(parsed('constructor：x\n').info).toEqual({});
  });

  test.each([
    ['香落ち', 'lance'],
    ['右香落ち', 'right_lance'],
    ['角落ち', 'bishop'],
    ['飛車落ち', 'rook'],
    ['飛香落ち', 'rook_lance'],
    ['二枚落ち', 'two_piece'],
    ['四枚落ち', 'four_piece'],
    ['六枚落ち', 'six_piece'],
    ['八枚落ち', 'eight_piece'],
    ['十枚落ち', 'ten_piece'],
  ] as const)('手合割：%s is the %s handicap', (name, handicap) => {
    expect(parsed(`手合割：${name}\n`).sfen).toBe(HANDICAP_SFENS[handicap]);
  });

  // The rest of the 手合割 list of Kakinoki's KIF format. Uwate's left is file 1 (香落ち takes
  // 1一), so 左五枚落ち takes the 2一 knight and 五枚落ち the 8一 one. Positions as Shogi.js
  // (na2hiro, the JKF library: presets 3, 5, 5_L, 7_L, 7_R) and the SFEN tables of
  // ShogiBoardQ and of json-kifu-format-based viewers give them; a hobby viewer (将棋タイム)
  // has 五枚落ち and 左五枚落ち swapped, against all of these.
  test.each([
    ['三枚落ち', 'lnsgkgsn1/9', ['82HI', '22KA', '11KY']],
    ['五枚落ち', '2sgkgsn1/9', ['82HI', '22KA', '11KY', '91KY', '81KE']],
    ['左五枚落ち', '1nsgkgs2/9', ['82HI', '22KA', '11KY', '91KY', '21KE']],
    ['左七枚落ち', '2sgkg3/9', ['82HI', '22KA', '11KY', '91KY', '21KE', '81KE', '31GI']],
    ['右七枚落ち', '3gkgs2/9', ['82HI', '22KA', '11KY', '91KY', '21KE', '81KE', '71GI']],
  ])('手合割：%s starts from %s, the even game less those pieces, uwate to move', (name, ranks, removed) => {
    const record = parsed(
      `手合割：${name}\n上手：上\n下手：下\n手数----\n   1 ５二玉(51)\n   2 ７六歩(77)\n   3 投了\n`,
    );
    expect(record.sfen).toBe(`${ranks}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1`);
    expect(record.players).toEqual({ sente: '下', gote: '上' });
    expect(replayRecord(record)).toMatchObject({ plies: 2, status: 'ongoing' });
    const csa = parseCsa(`V2.2\nPI${removed.join('')}\n-\n`);
    expect(csa.ok && csa.value.sfen).toBe(record.sfen);
    // written back under its name, with the players as 上手 and 下手
    const out = exportKif(record);
    expect(out.ok && out.value).toContain(`手合割：${name}\n下手：下\n上手：上\n`);
    expect(out.ok && parseKif(out.value)).toEqual({ ok: true, value: record });
  });

  test.each([
    ['飛車香落ち', 'rook_lance'],
    ['左香落ち', 'lance'],
  ] as const)('手合割：%s, another name some programs write, is the %s handicap', (name, handicap) => {
    expect(parsed(`手合割：${name}\n`).sfen).toBe(HANDICAP_SFENS[handicap]);
  });

  test('a BOD diagram start with hands, side to move, promoted pieces 全 and 竜', () => {
    const record = parsed(BOD_START);
    expect(record.sfen).toBe('7nl/8k/7pp/9/9/9/5+S1+R1/9/4K4 w G2P 1');
    expect(record.moves).toEqual(['2c2d', '4g4f', '1c1d', 'G*3b', '1b2c', '2g2d', '2c2d']);
    expect(replayRecord(record)).toMatchObject({ plies: 7, status: 'ongoing' });
  });

  /** A BOD start with one sente piece on 5e (kings on 8a and 5i), then that piece to 5d. */
  const movePiece = (bodName: string, moveName: string): GameRecord => {
    const row = (cells: string): string => `|${cells}|`;
    const empty = ' ・'.repeat(9);
    const rows = [
      ' ・v玉 ・ ・ ・ ・ ・ ・ ・',
      empty,
      empty,
      empty,
      ` ・ ・ ・ ・ ${bodName} ・ ・ ・ ・`,
      empty,
      empty,
      empty,
    ];
    const bod = [...rows, ' ・ ・ ・ ・ 玉 ・ ・ ・ ・'].map(row).join('\n');
    return parsed(`${bod}\n先手番\n手数----\n   1 ５四${moveName}(55)\n`);
  };
  test.each([
    ['と', 'と'],
    ['杏', '成香'],
    ['杏', '杏'],
    ['圭', '成桂'],
    ['圭', '圭'],
    ['全', '成銀'],
    ['全', '全'],
    ['馬', '馬'],
    ['龍', '龍'],
    ['竜', '竜'],
    ['金', '金'],
    ['銀', '銀'],
    ['飛', '飛'],
  ])('the piece %s on the board moves as %s', (bodName, moveName) => {
    const record = movePiece(bodName, moveName);
    expect(record.moves).toEqual(['5e5d']);
    expect(replayRecord(record).status).not.toBe('illegal');
  });

  test('a piece name that is not the piece on the origin is refused', () => {
    expect(() => movePiece('全', '銀')).toThrow(/piece_mismatch/);
  });

  /** A record of `moves` (KIF move lines) ending in `word`, on the line numbered after them. */
  const one = (word: string, moves = ''): GameRecord =>
    parsed(`手合割：平手\n手数----\n${moves}   ${moves.split('\n').filter(Boolean).length + 1} ${word}\n`);
  test.each([
    ['投了', 'toryo'],
    ['中断', 'chudan'],
    ['千日手', 'sennichite'],
    ['詰み', 'tsumi'],
    ['持将棋', 'jishogi'],
    ['切れ負け', 'time_up'],
    ['時間切れ', 'time_up'],
    ['反則負け', 'illegal_move'],
    ['入玉勝ち', 'kachi'],
    ['不詰', 'fuzumi'],
    ['連続王手の千日手', 'oute_sennichite'],
  ])('ending %s is %s', (word, kind) => {
    expect(one(word).ending).toEqual({ kind, raw: word, seconds: null });
  });

  test('反則勝ち: the side to move wins, so the foul was the opponent’s', () => {
    expect(one('反則勝ち').ending?.kind).toBe('-illegal_action');
    expect(one('反則勝ち   ( 0:05/00:00:05)', '   1 ７六歩(77)\n').ending).toEqual({
      kind: '+illegal_action',
      raw: '反則勝ち',
      seconds: 5,
    });
  });

  // Kakinoki's KIF format ends a game with 不戦勝 / 不戦敗: the side to move wins / loses by
  // forfeit, mostly before any move. ElectronShogi (tsshogi) writes トライ after the king move
  // that reached the opponent's king square under the try rule, so the side to move has lost
  // (its getRecordWinner and its GameManager try tests). CSA and the record have no word for
  // either: they read as the loser's illegal action, as the server writes a win it has no
  // reason for, and are written back as the same word.
  const FIRST = '   1 ７六歩(77)\n';
  test.each([
    ['不戦勝', 'before any move, sente wins', '', '-illegal_action'],
    ['不戦勝', 'after a move, gote wins', FIRST, '+illegal_action'],
    ['不戦敗', 'before any move, sente loses', '', '+illegal_action'],
    ['不戦敗', 'after a move, gote loses', FIRST, '-illegal_action'],
    ['トライ', 'by sente: gote to move lost', FIRST, '-illegal_action'],
    ['トライ', 'by gote: sente to move lost', `${FIRST}   2 ３四歩(33)\n`, '+illegal_action'],
  ])('%s %s', (word, _, moves, kind) => {
    const record = one(word, moves);
    expect(record.ending).toEqual({ kind, raw: word, seconds: null });
    const out = exportKif(record);
    expect(out.ok && out.value).toContain(` ${word}\n`);
    expect(out.ok && parseKif(out.value)).toEqual({ ok: true, value: record });
  });

  test('the foul words keep their time and their side', () => {
    const record = one('▲不戦敗   ( 0:00/00:00:00)');
    expect(record.ending).toEqual({ kind: '+illegal_action', raw: '不戦敗', seconds: 0 });
  });

  test.each([
    ['an unknown handicap', '手合割：九枚落ち\n手数----\n', 'bad_handicap', 2],
    ['その他 without its diagram', '手合割：その他\n手数----\n', 'bad_handicap', 2],
    // names of Object.prototype are no handicap and no header key
    ['a handicap named like an object property', '手合割：constructor\n手数----\n', 'bad_handicap', 2],
    ['a piece name the origin does not hold', '手数----\n   1 ７六金(77)\n', 'piece_mismatch', 2],
    ['an empty origin', '手数----\n   1 ７六歩(77)\n   2 ５五歩(54)\n', 'no_piece', 3],
    ['an unknown piece', '手数----\n   1 ７六象(77)\n', 'unknown_piece', 2],
    ['同 on the first move', '手数----\n   1 同　歩(77)\n', 'bad_move', 2],
    ['an unknown word', '手数----\n   1 ほげ\n', 'bad_move', 2],
    ['a promoting drop', '手数----\n   1 ５五角成\n', 'bad_move', 2],
    ['a gold promoting', '手数----\n   1 ５八金成(69)\n', 'bad_move', 2],
    ['a malformed time', '手数----\n   1 ７六歩(77) (abc)\n', 'bad_time', 2],
    ['a short BOD row', '| ・ ・|一\n手数----\n', 'bad_position', 1],
    ['a bad hand', '先手の持駒：象\n', 'bad_position', 1],
    ['a header line without a key', 'hello\n', 'bad_line', 1],
    ['a move after the ending', '手数----\n   1 投了\n   2 ７六歩(77)\n', 'bad_move', 3],
    // a drop is written 打; without it and without an origin the line is damaged, not a drop
    [
      'a move with neither origin nor 打',
      '手数----\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ５五角\n',
      'bad_move',
      6,
    ],
    ['a missing move line', '手数----\n   1 ７六歩(77)\n   3 ２六歩(27)\n', 'bad_move', 3],
    ['a repeated move line', '手数----\n   1 ７六歩(77)\n   1 ７六歩(77)\n', 'bad_move', 3],
    ['an ending numbered as a move already made', '手数----\n   1 ７六歩(77)\n   1 投了\n', 'bad_move', 3],
  ])('%s is an error with its line', (_, text, code, line) => {
    const result = parseKif(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect({ code: result.error.code, line: result.error.line }).toEqual({ code, line });
  });
});

describe('exporting KIF', () => {
  test.each([
    ['even game', EVEN_GAME],
    ['lance handicap', LANCE_HANDICAP],
    ['BOD start', BOD_START],
  ])('%s: parse(export(record)) gives the record back', (_, text) => {
    const record = parsed(text);
    const out = exportKif(record);
    if (!out.ok) throw new Error(out.error.message);
    expect(parseKif(out.value)).toEqual({ ok: true, value: record });
  });

  test('moves are written with 同, 成, 打 and running times', () => {
    const out = exportKif(parsed(EVEN_GAME));
    expect(out.ok && out.value.split('\n').filter((l) => /^\s+\d+ /.test(l))).toEqual([
      '   1 ７六歩(77)   ( 0:01/00:00:01)',
      '   2 ３四歩(33)   ( 0:02/00:00:02)',
      '   3 ２二角成(88)   ( 0:03/00:00:04)',
      '   4 同　銀(31)   ( 0:04/00:00:06)',
      '   5 ４五角打   ( 0:05/00:00:09)',
      '   6 ３二金(41)   ( 0:06/00:00:12)',
      '   7 ３四角(45)   ( 0:07/00:00:16)+',
      '   8 ６二銀(71)   ( 0:08/00:00:20)',
      '   9 ２三角(34)   ( 0:09/00:00:25)',
      '  10 同　金(32)   ( 1:10/00:01:30)',
      '  11 投了   ( 0:11/00:00:36)',
      '   7 ２三角成(45)   ( 0:00/00:00:09)',
    ]);
  });

  const GAMES = `${FIXTURES}games/`;
  const files = readdirSync(GAMES).flatMap((dir) => readdirSync(`${GAMES}${dir}`).map((f) => `${dir}/${f}`));
  test.each(files)('%s: CSA → KIF → the same game', (name) => {
    const decoded = decodeRecord(readFileSync(`${GAMES}${name}`));
    if (!decoded.ok) throw new Error(decoded.error.message);
    const csa = decoded.value.record;
    const out = exportKif(csa);
    if (!out.ok) throw new Error(out.error.message);
    const kif = parsed(out.value);
    expect(kif.sfen).toBe(csa.sfen);
    expect(kif.moves).toEqual(csa.moves);
    expect(kif.times).toEqual(csa.times);
    expect(kif.players).toEqual(csa.players);
    expect(kif.comments).toEqual(csa.comments);
    // KIF's 反則負け is "the side to move loses by a foul": an illegal action by the side
    // to move reads back as an illegal move (both WCSC28 illegal actions are of that kind)
    const kind = csa.ending?.kind.endsWith('illegal_action') ? 'illegal_move' : csa.ending?.kind;
    expect(kif.ending?.kind).toBe(kind);
  });
});
