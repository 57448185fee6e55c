/**
 * Every game under ../shared/fixtures/games (sources in its README: WCSC28 games from
 * HiraokaTakuya/apery, CSA server logs from TadaoYamaoka/shogi-server, professional games
 * from tomori-k/ShogiLibSharp) replays legally, and what the rules say of its end agrees
 * with the ending the file states. The expectations per file were read from the files
 * themselves (the last moves, the `'summary:` lines), not from the engine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { legalMoves } from '../src/movegen.js';
import { decodeRecord } from '../src/notation/decode.js';
import type { GameRecord } from '../src/notation/record.js';
import { replayMoves, replayRecord } from '../src/replay.js';
import { parseSfen } from '../src/sfen.js';
import type { Color } from '../src/types.js';
import { FIXTURES } from './fixtures.js';

const GAMES = `${FIXTURES}games/`;
const files = readdirSync(GAMES).flatMap((dir) => readdirSync(`${GAMES}${dir}`).map((f) => `${dir}/${f}`));

function load(name: string): GameRecord {
  const decoded = decodeRecord(readFileSync(`${GAMES}${name}`), name);
  if (!decoded.ok) throw new Error(`${name}: ${decoded.error.code} line ${decoded.error.line}`);
  return decoded.value.record;
}

/** The side to move after the record's moves. */
const sideAfter = (record: GameRecord): Color =>
  ((record.sfen.split(' ')[1] === 'w' ? 1 : 0) ^ (record.moves.length & 1)) as Color;

test('the fixture set is the one the README describes', () => {
  expect(files.filter((f) => f.startsWith('wcsc28/'))).toHaveLength(131);
  expect(files.filter((f) => f.startsWith('shogi-server/'))).toHaveLength(7);
  expect(files.filter((f) => f.startsWith('shogilibsharp/'))).toHaveLength(5);
});

describe.each(files)('%s', (name) => {
  const record = load(name);
  test.each(['default', 'jsa'] as const)('every recorded move is legal under %s', (ruleset) => {
    const result = replayRecord(record, ruleset);
    expect(result.illegal).toBeUndefined();
    expect(result.plies).toBe(record.moves.length);
  });
});

// Endings the files state, with what the rules make of the final position and history.
// `winner` is the colour (0 sente, 1 gote); plies are the moves in the file.
const STATED: readonly [string, { plies: number; status: string; winner?: Color }][] = [
  // %SENNICHITE: the fourth occurrence of the position comes with the last move
  ['shogilibsharp/ShogiLibSharp.Core.Tests_kifu_sennichite_1.csa', { plies: 61, status: 'sennichite' }],
  ['shogilibsharp/ShogiLibSharp.Core.Tests_kifu_sennichite_2.csa', { plies: 113, status: 'sennichite' }],
  ['wcsc28/utf8_WCSC28_U9_HNW_TNK.csa', { plies: 129, status: 'sennichite' }],
  ['wcsc28/utf8_WCSC28_U7_QHA_MCB.csa', { plies: 72, status: 'sennichite' }],
  // %TORYO; ShogiLibSharp's "not sennichite" cases, where no position occurs even twice
  // (in _1 a board recurs, with other hands)
  ['shogilibsharp/ShogiLibSharp.Core.Tests_kifu_not_sennichite_1.csa', { plies: 115, status: 'ongoing' }],
  ['shogilibsharp/ShogiLibSharp.Core.Tests_kifu_not_sennichite_2.csa', { plies: 178, status: 'ongoing' }],
  ['shogilibsharp/ShogiLibSharp.Kifu.Tests_csa_12.csa', { plies: 133, status: 'checkmate', winner: 0 }],
  // perpetual check: sente's silver checks from 37/26 while gote's king shuffles; the
  // server of 2007 logged it as `'summary:sennichite ... draw`, the rules make the checker lose
  ['shogi-server/test_csa_oute_sennichite.csa', { plies: 110, status: 'perpetual_check', winner: 1 }],
  // gote's gold checks from 89/79 against sente's king on 88/78: gote loses
  ['shogi-server/test_csa_oute_sennichite2.csa', { plies: 135, status: 'perpetual_check', winner: 0 }],
  // %KACHI by the side to move: valid declarations, the declarer wins. The shogi-server log
  // says `'summary:illegal kachi` for gote, but gote has 12 pieces in camp and exactly the
  // 27 points gote needs (RULES.md), with the king in camp and not in check.
  ['shogi-server/test_csa_jishogi_kachi.csa', { plies: 315, status: 'impasse', winner: 1 }],
  ['wcsc28/utf8_WCSC28_U1_TSG_HFW.csa', { plies: 248, status: 'impasse', winner: 0 }],
  ['wcsc28/utf8_WCSC28_U8_MCB_HFW.csa', { plies: 223, status: 'impasse', winner: 1 }],
  // the server logs end without a `%` line: the game stopped at the move limit, at a
  // rejected pawn drop, and (not_uchifuzume) at a position where a pawn-drop check is legal
  ['shogi-server/test_csa_max_moves_draw.csa', { plies: 256, status: 'ongoing' }],
  ['shogi-server/test_csa_uchifuzume.csa', { plies: 103, status: 'ongoing' }],
  ['shogi-server/test_csa_not_uchifuzume.csa', { plies: 113, status: 'ongoing' }],
  [
    'shogi-server/test_csa_wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa',
    { plies: 158, status: 'ongoing' },
  ],
  // %ILLEGAL_MOVE: the offending move is not in the file. In KAK_CRZ gote was already
  // mated and moved anyway; the others stopped in ordinary positions.
  ['wcsc28/utf8_WCSC28_L1_KAK_CRZ.csa', { plies: 83, status: 'checkmate', winner: 0 }],
  ['wcsc28/utf8_WCSC28_U6_ELM_QHA_3.csa', { plies: 198, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_L8_NRK_SLB.csa', { plies: 29, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_L7_NRK_KFW.csa', { plies: 40, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_L5_SLB_762.csa', { plies: 58, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_L7_SLB_WDF.csa', { plies: 90, status: 'ongoing' }],
  // time, interruption (at 256 moves) and illegal actions are not rules of the board
  ['wcsc28/utf8_WCSC28_L5_WDF_GIR.csa', { plies: 11, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_L7_GAS_BRO.csa', { plies: 117, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_U4_HFW_APR.csa', { plies: 256, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_L8_WOD_YUU.csa', { plies: 140, status: 'ongoing' }],
  ['wcsc28/utf8_WCSC28_L5_YAM_WOD.csa', { plies: 101, status: 'ongoing' }],
];

test.each(STATED)('%s ends as the file says', (name, expected) => {
  const record = load(name);
  for (const ruleset of ['default', 'jsa'] as const) {
    const result = replayRecord(record, ruleset);
    const { plies, status, winner } = result;
    expect({ plies, status, ...(winner === undefined ? {} : { winner }) }).toEqual(expected);
  }
});

test.each(files.filter((f) => load(f).ending?.kind === 'sennichite'))(
  '%s: sennichite exactly at the last move',
  (name) => {
    const record = load(name);
    expect(replayMoves(record.sfen, record.moves.slice(0, -1)).status).toBe('ongoing');
    expect(replayRecord(record).status).toBe('sennichite');
  },
);

test('the jishogi_kachi declaration is valid by the smallest margin', () => {
  const record = load('shogi-server/test_csa_jishogi_kachi.csa');
  expect(record.ending?.kind).toBe('kachi');
  expect(record.summary).toBe('illegal kachi:gps8_pgsklp lose:gps9_p win');
  expect(sideAfter(record)).toBe(1);
});

test('uchifuzume: the rejected pawn drop is not in the log, and replaying it is illegal', () => {
  // gote's engine comment before the end reads `-5766NG +7766KI -0064FU`: the drop on 64
  const record = load('shogi-server/test_csa_uchifuzume.csa');
  expect(record.summary).toBe('uchifuzume:KShogi900 lose:usapyon-on-note win');
  const result = replayMoves(record.sfen, [...record.moves, 'P*6d']);
  expect(result).toMatchObject({ plies: 103, status: 'illegal', illegal: { ply: 104, reason: 'uchifuzume' } });
});

test('not_uchifuzume: the pawn-drop check on 92 is legal, the king escapes', () => {
  const record = load('shogi-server/test_csa_not_uchifuzume.csa');
  const result = replayMoves(record.sfen, [...record.moves, 'P*9b']);
  expect(result).toMatchObject({ plies: 114, status: 'ongoing' });
  const pos = parseSfen(result.sfen);
  expect(pos.ok && pos.value.inCheck()).toBe(true);
});

describe('%TORYO games', () => {
  const toryo = files.filter((f) => load(f).ending?.kind === 'toryo');
  test.each(toryo)('%s: mated or not, the winner is the side that did not resign', (name) => {
    const record = load(name);
    const result = replayRecord(record);
    const parsed = parseSfen(result.sfen);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const mated = parsed.value.inCheck() && legalMoves(parsed.value).length === 0;
    expect(result.status).toBe(mated ? 'checkmate' : 'ongoing');
    if (mated) expect(result.winner).toBe(sideAfter(record) ^ 1);
  });
  test('most resignations come at mate: 83 of 120 (counted on these files)', () => {
    expect(toryo).toHaveLength(120);
    expect(toryo.filter((f) => replayRecord(load(f)).status === 'checkmate')).toHaveLength(83);
  });
});
