/**
 * KI2 as players write it: each move's words (同, 打, 成/不成, and 上/引/寄, 右/左/直 where another
 * piece of the kind could reach the square) on positions made for each rule, for both sides and
 * every piece kind, checked against the words written here and against tsshogi's writer (a writer
 * nobody here wrote); and whole records written as KI2, read back by this package's reader.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as untyped from 'tsshogi';
import { describe, expect, test } from 'vitest';
import { HANDICAP_SFENS } from '../src/handicaps.js';
import { decodeRecord } from '../src/notation/decode.js';
import { parseKi2 } from '../src/notation/ki2.js';
import { exportKi2 } from '../src/notation/ki2-export.js';
import { ki2Move } from '../src/notation/ki2-move.js';
import { applyTrack, type GameRecord, readUsi, trackBoard } from '../src/notation/record.js';
import { START_SFEN } from '../src/sfen.js';
import { FIXTURES } from './fixtures.js';

interface TsPosition {
  createMoveByUSI(usi: string): object | null;
}
interface Tsshogi {
  Position: { newBySFEN(sfen: string): TsPosition | null };
  formatMove(position: TsPosition, move: object, opt: { compatible: boolean }): string;
  importCSA(text: string): object | Error;
  exportKI2(record: object): string;
}
const tsshogi = untyped as unknown as Tsshogi;

/** The KI2 words of `usi` on `sfen` (no previous move). */
function words(sfen: string, usi: string): string {
  const board = trackBoard(sfen);
  if (!board.ok) throw new Error(board.error.message);
  const text = ki2Move(board.value, usi, -1);
  if (text === null) throw new Error(`${usi} not written`);
  return text;
}

/** tsshogi's words for the same move. */
function theirs(sfen: string, usi: string): string {
  const pos = tsshogi.Position.newBySFEN(sfen);
  const move = pos?.createMoveByUSI(usi);
  if (!pos || !move) throw new Error(`tsshogi cannot read ${sfen} ${usi}`);
  return tsshogi.formatMove(pos, move, { compatible: true });
}

// kings far from the action, so that every position is one the rules accept
const KINGS = (rows: string[]): string => rows.join('/');

const CASES: readonly (readonly [string, string, string, string])[] = [
  // [what, sfen, usi, KI2]
  ['the first move', START_SFEN, '7g7f', '▲７六歩'],
  ['gote', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1', '3c3d', '△３四歩'],
  // three golds reach 5二: the one going straight up is 直, the others are 左 and 右 (the mover's)
  ...(['6c5b:▲５二金左', '5c5b:▲５二金直', '4c5b:▲５二金右'].map((c) => {
    const [usi, ki2] = c.split(':') as [string, string];
    return [`golds: ${ki2}`, `${KINGS(['4k4', '9', '3GGG3', '9', '9', '9', '9', '9', 'K8'])} b - 1`, usi, ki2] as const;
  }) as (readonly [string, string, string, string])[]),
  // the way alone tells them apart: 上 / 寄 / 引
  ['上 against 寄', `${KINGS(['k8', '3G5', '4G4', '9', '9', '9', '9', '9', '8K'])} b - 1`, '5c5b', '▲５二金上'],
  ['寄 against 上', `${KINGS(['k8', '3G5', '4G4', '9', '9', '9', '9', '9', '8K'])} b - 1`, '6b5b', '▲５二金寄'],
  ['引 against 上', `${KINGS(['k2G5', '9', '4G4', '9', '9', '9', '9', '9', '8K'])} b - 1`, '6a5b', '▲５二金引'],
  // 左上: 上 leaves two (6三 and 4三), 左 leaves two (6三 and 6二): both words
  ['左上', `${KINGS(['k8', '3G5', '3G1G3', '9', '9', '9', '9', '9', '8K'])} b - 1`, '6c5b', '▲５二金左上'],
  ['寄 of the three', `${KINGS(['k8', '3G5', '3G1G3', '9', '9', '9', '9', '9', '8K'])} b - 1`, '6b5b', '▲５二金寄'],
  ['右 of the three', `${KINGS(['k8', '3G5', '3G1G3', '9', '9', '9', '9', '9', '8K'])} b - 1`, '4c5b', '▲５二金右'],
  // the classic ５八金右: golds on 6九 and 4九
  ['５八金右', `${KINGS(['4k4', '9', '9', '9', '9', '9', '9', '9', '3G1G2K'])} b - 1`, '4i5h', '▲５八金右'],
  ['５八金左', `${KINGS(['4k4', '9', '9', '9', '9', '9', '9', '9', '3G1G2K'])} b - 1`, '6i5h', '▲５八金左'],
  // silvers: the way first (上 / 引), then 右 / 左 / 直, and both where neither alone tells it
  ['silver 直', `${KINGS(['k8', '9', '9', '3S1S3', '9', '4SS3', '9', '9', '8K'])} b - 1`, '5f5e', '▲５五銀直'],
  ['silver 右上', `${KINGS(['k8', '9', '9', '3S1S3', '9', '4SS3', '9', '9', '8K'])} b - 1`, '4f5e', '▲５五銀右上'],
  ['silver 右引', `${KINGS(['k8', '9', '9', '3S1S3', '9', '4SS3', '9', '9', '8K'])} b - 1`, '4d5e', '▲５五銀右引'],
  ['silver 左', `${KINGS(['k8', '9', '9', '3S1S3', '9', '4SS3', '9', '9', '8K'])} b - 1`, '6d5e', '▲５五銀左'],
  [
    'silver 不成 in the zone',
    `${KINGS(['3S1S2k', '9', '9', '9', '9', '9', '9', '9', '8K'])} b - 1`,
    '6a5b',
    '▲５二銀左不成',
  ],
  [
    'silver 成 in the zone',
    `${KINGS(['3S1S2k', '9', '9', '9', '9', '9', '9', '9', '8K'])} b - 1`,
    '4a5b+',
    '▲５二銀右成',
  ],
  // knights always jump forward: 右 or 左 alone
  ['knight 左', `${KINGS(['4k4', '9', '9', '9', '9', '9', '9', '9', '2N1N3K'])} b - 1`, '7i6g', '▲６七桂左'],
  ['knight 右', `${KINGS(['4k4', '9', '9', '9', '9', '9', '9', '9', '2N1N3K'])} b - 1`, '5i6g', '▲６七桂右'],
  // dragons and horses: the way first, then 右/左 by where each stands, never 直
  ['dragons 寄 左', `${KINGS(['+R7+R', '9', '9', '9', '4k4', '9', '9', '9', '4K4'])} b - 1`, '9a5a', '▲５一龍左'],
  ['dragons 寄 右', `${KINGS(['+R7+R', '9', '9', '9', '4k4', '9', '9', '9', '4K4'])} b - 1`, '1a5a', '▲５一龍右'],
  [
    'dragon straight up is 左, not 直',
    `${KINGS(['k8', '9', '5+R3', '9', '4+R4', '9', '9', '9', '8K'])} b - 1`,
    '5e5b',
    '▲５二龍左',
  ],
  [
    'dragon stepping up is 右',
    `${KINGS(['k8', '9', '5+R3', '9', '4+R4', '9', '9', '9', '8K'])} b - 1`,
    '4c5b',
    '▲５二龍右',
  ],
  ['dragons 上 / 寄', `${KINGS(['k8', '5+R3', '9', '9', '9', '9', '9', '9', '4+R3K'])} b - 1`, '5i5b', '▲５二龍上'],
  ['horses 上 / 引', `${KINGS(['4k3+B', '9', '9', '9', '9', '9', '9', '9', '+B7K'])} b - 1`, '9i5e', '▲５五馬上'],
  ['horses 引 / 上', `${KINGS(['4k3+B', '9', '9', '9', '9', '9', '9', '9', '+B7K'])} b - 1`, '1a5e', '▲５五馬引'],
  [
    'horse stepping up stands right',
    `${KINGS(['k8', '9', '9', '9', '9', '4+B4', '2+B6', '9', '8K'])} b - 1`,
    '5f5e',
    '▲５五馬右',
  ],
  [
    'horse sliding up stands left',
    `${KINGS(['k8', '9', '9', '9', '9', '4+B4', '2+B6', '9', '8K'])} b - 1`,
    '7g5e',
    '▲５五馬左',
  ],
  // rooks and bishops: two of a kind going the same way are told apart by 右 / 左
  ['rooks 寄 左', `${KINGS(['4k4', '9', '9', '9', 'R7R', '9', '9', '9', '4K4'])} b - 1`, '9e5e', '▲５五飛左'],
  ['rooks 寄 右', `${KINGS(['4k4', '9', '9', '9', 'R7R', '9', '9', '9', '4K4'])} b - 1`, '1e5e', '▲５五飛右'],
  ['bishops 上 左', `${KINGS(['4k4', '9', '9', '9', '9', '9', '2B3B2', '9', '4K4'])} b - 1`, '7g5e', '▲５五角左'],
  ['bishops 上 右', `${KINGS(['4k4', '9', '9', '9', '9', '9', '2B3B2', '9', '4K4'])} b - 1`, '3g5e', '▲５五角右'],
  ['lance 不成', `${KINGS(['4k4', '9', '9', '8L', '9', '9', '9', '9', '4K4'])} b - 1`, '1d1c', '▲１三香不成'],
  ['knight 成', `${KINGS(['4k4', '9', '9', '9', '5N3', '9', '9', '9', '4K4'])} b - 1`, '4e3c+', '▲３三桂成'],
  ['king', `${KINGS(['4k4', '9', '9', '9', '9', '9', '9', '9', '4K4'])} b - 1`, '5i4h', '▲４八玉'],
  // promoted pieces move as golds and take their words
  ['成銀 直', `${KINGS(['k8', '9', '3+S+S+S3', '9', '9', '9', '9', '9', '8K'])} b - 1`, '5c5b', '▲５二成銀直'],
  ['と 右', `${KINGS(['k8', '9', '3+P1+P3', '9', '9', '9', '9', '9', '8K'])} b - 1`, '4c5b', '▲５二と右'],
  ['成桂 寄', `${KINGS(['k8', '3+N5', '4+N4', '9', '9', '9', '9', '9', '8K'])} b - 1`, '6b5b', '▲５二成桂寄'],
  ['成香 alone', `${KINGS(['k8', '9', '4+L4', '9', '9', '9', '9', '9', '8K'])} b - 1`, '5c5b', '▲５二成香'],
  // gote's right is the high files: its golds on 6三 and 4三 going to 5四
  ['gote 右', `${KINGS(['8k', '9', '3g1g3', '9', '9', '9', '9', '9', 'K8'])} w - 1`, '6c5d', '△５四金右'],
  ['gote 左', `${KINGS(['8k', '9', '3g1g3', '9', '9', '9', '9', '9', 'K8'])} w - 1`, '4c5d', '△５四金左'],
  ['gote 直', `${KINGS(['8k', '9', '3ggg3', '9', '9', '9', '9', '9', 'K8'])} w - 1`, '5c5d', '△５四金直'],
  ['gote 引', `${KINGS(['8k', '9', '4g4', '9', '4g4', '9', '9', '9', 'K8'])} w - 1`, '5e5d', '△５四金引'],
  ['gote silver 不成', `${KINGS(['8k', '9', '9', '9', '9', '4s4', '9', '9', 'K8'])} w - 1`, '5f4g', '△４七銀不成'],
  // 打 only where a piece on the board could also reach the square
  [
    '打 with a gold that reaches',
    `${KINGS(['k8', '9', '4G4', '9', '9', '9', '9', '9', '8K'])} b G 1`,
    'G*5b',
    '▲５二金打',
  ],
  ['no 打 when none reaches', `${KINGS(['k8', '9', '9', '9', '4G4', '9', '9', '9', '8K'])} b G 1`, 'G*5b', '▲５二金'],
  // a pinned gold still counts (readers that ignore pins must find one piece)
  [
    '打 beside a pinned gold',
    `${KINGS(['4r3k', '9', '9', '9', '9', '4G4', '9', '9', '4K4'])} b G 1`,
    'G*4e',
    '▲４五金打',
  ],
  // 不成 only where the move could have promoted
  ['no 不成 outside the zone', `${KINGS(['k8', '9', '9', '9', '9', '9', '9', '9', '4S3K'])} b - 1`, '5i4h', '▲４八銀'],
  ['不成 leaving the zone', `${KINGS(['k8', '9', '4S4', '9', '9', '9', '9', '9', '8K'])} b - 1`, '5c4d', '▲４四銀不成'],
  ['no 不成 for a gold', `${KINGS(['k8', '9', '9', '4G4', '9', '9', '9', '9', '8K'])} b - 1`, '5d5c', '▲５三金'],
];

describe('KI2 move words', () => {
  test.each(CASES)('%s', (_, sfen, usi, ki2) => {
    expect(words(sfen, usi)).toBe(ki2);
  });

  test.each(CASES)('%s: tsshogi writes the same', (_, sfen, usi, ki2) => {
    expect(theirs(sfen, usi)).toBe(ki2);
  });

  test('同 with a full-width space for a recapture', () => {
    const board = trackBoard(START_SFEN);
    if (!board.ok) throw new Error('start');
    const b = board.value;
    const moves = ['7g7f', '3c3d', '8h2b+', '3a2b'];
    const out: string[] = [];
    let lastTo = -1;
    for (const usi of moves) {
      out.push(ki2Move(b, usi, lastTo) as string);
      const m = readUsi(usi);
      if (!m) throw new Error(usi);
      applyTrack(b, m);
      lastTo = m.to;
    }
    expect(out).toEqual(['▲７六歩', '△３四歩', '▲２二角成', '△同　銀']);
  });

  test('a move from an empty square or of the other side is not written', () => {
    const board = trackBoard(START_SFEN);
    if (!board.ok) throw new Error('start');
    expect(ki2Move(board.value, '5e5d', -1)).toBeNull();
    expect(ki2Move(board.value, '3c3d', -1)).toBeNull();
    expect(ki2Move(board.value, 'nonsense', -1)).toBeNull();
  });
});

const value = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

const record = (sfen: string, moves: string[], extra: Partial<GameRecord> = {}): GameRecord => ({
  sfen,
  moves,
  times: moves.map(() => null),
  ending: null,
  summary: null,
  players: { sente: 'Sente', gote: 'Gote' },
  info: {},
  extraInfo: [],
  comments: [],
  ...extra,
});

describe('KI2 records', () => {
  test('the header, six moves to a line, the closing line; read back the same', () => {
    const moves = ['7g7f', '3c3d', '2g2f', '4c4d', '2f2e', '2b3c', '3i4h', '3a4b', '5i6h', '5a6b'];
    const r = record(START_SFEN, moves, {
      ending: { kind: 'toryo', raw: '%TORYO', seconds: 3 },
      comments: [{ ply: 2, text: 'a comment on move 2' }],
    });
    const text = value(exportKi2(r));
    expect(text).toContain('手合割：平手\n先手：Sente\n後手：Gote\n');
    expect(text).toContain(
      '▲７六歩    △３四歩\n*a comment on move 2\n▲２六歩    △４四歩    ▲２五歩    △３三角    ▲４八銀    △４二銀\n',
    );
    expect(text).toContain('\n▲６八玉    △６二玉\nまで10手で後手の勝ち\n');
    const back = value(parseKi2(text));
    expect(back.moves).toEqual(moves);
    expect(back.ending?.kind).toBe('toryo');
    expect(back.comments).toEqual([{ ply: 2, text: 'a comment on move 2' }]);
  });

  test('a handicap start: 手合割 and uwate (gote) moving first', () => {
    const r = record(HANDICAP_SFENS.bishop, ['5a4b', '7g7f'], {
      ending: { kind: 'toryo', raw: '投了', seconds: null },
    });
    const text = value(exportKi2(r));
    expect(text).toContain('手合割：角落ち\n下手：Sente\n上手：Gote\n△４二玉    ▲７六歩\nまで2手で下手の勝ち');
    const back = value(parseKi2(text));
    expect(back.sfen).toBe(HANDICAP_SFENS.bishop);
    expect(back.moves).toEqual(r.moves);
  });

  test('notes before the first move and among the moves, a move limit, a variation: read back the same', () => {
    const r = record(START_SFEN, ['7g7f', '3c3d'], {
      ending: { kind: 'max_moves', raw: '%MAX_MOVES', seconds: null },
      comments: [
        { ply: 0, text: 'a line readers skip', kind: 'note' },
        { ply: 1, text: 'after move 1', kind: 'note' },
      ],
      variations: [
        { ply: 2, moves: ['8c8d', '2g2f'], times: [null, null], comments: [], ending: null, variations: [] },
      ],
    });
    const text = value(exportKi2(r));
    expect(text).toContain('後手：Gote\n#a line readers skip\n▲７六歩\n#after move 1\n△３四歩\nまで2手で最大手数\n');
    expect(text).toContain('\n\n変化：2手\n△８四歩    ▲２六歩\n');
    const back = value(parseKi2(text));
    expect(back.comments).toEqual(r.comments);
    expect(back.ending?.kind).toBe('max_moves');
    expect(back.variations).toEqual(r.variations);
  });

  test('a failed declaration is the declarer’s foul with the note %KACHI, read back as the declaration', () => {
    const r = record(START_SFEN, ['7g7f'], {
      ending: { kind: 'kachi', raw: '%KACHI', seconds: null },
      result: { winner: 0, text: '先手の勝ち' },
    });
    const text = value(exportKi2(r));
    expect(text).toContain('まで1手で後手の反則負け\n#%KACHI\n');
    expect(value(parseKi2(text)).ending?.kind).toBe('kachi');
  });
});

// every move of every fixture game: our words are tsshogi's (its exportKI2 of the CSA original)
const GAMES = `${FIXTURES}games/`;
const files = readdirSync(GAMES).flatMap((dir) => readdirSync(`${GAMES}${dir}`).map((f) => `${dir}/${f}`));
const tokens = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => /^[▲△]/.test(l))
    .join('')
    .replace(/[ \u3000]+(?=[▲△])/g, '')
    .split(/(?=[▲△])/)
    .map((t) => t.trimEnd());

test.each(files)('%s: every move in the words tsshogi writes', (name) => {
  const bytes = readFileSync(`${GAMES}${name}`);
  const ours = value(exportKi2(value(decodeRecord(bytes, name)).record));
  const read = tsshogi.importCSA(new TextDecoder().decode(bytes));
  if (read instanceof Error) throw read;
  expect(tokens(ours)).toEqual(tokens(tsshogi.exportKI2(read)));
});
