/**
 * CSA records, V2.2 and V3.0 (computer-shogi.org/protocol/record_v22.html, record_v3.html):
 * the statements of the format one by one, the errors with their lines, and the export
 * round trip over every fixture game.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { HANDICAP_SFENS } from '../src/handicaps.js';
import { exportCsa, parseCsa } from '../src/notation/csa.js';
import { decodeRecord } from '../src/notation/decode.js';
import { ENDINGS, type GameRecord, handicapOf } from '../src/notation/record.js';
import { replayRecord } from '../src/replay.js';
import { START_SFEN } from '../src/sfen.js';
import { FIXTURES } from './fixtures.js';

const parsed = (text: string): GameRecord => {
  const result = parseCsa(text);
  if (!result.ok) throw new Error(`${result.error.code} at line ${result.error.line}: ${result.error.message}`);
  return result.value;
};

const HIRATE = `P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY`;

describe('reading CSA', () => {
  test('V2.2: names, info, rank lines, moves with times, comments, ending, summary', () => {
    const record = parsed(`V2.2
N+Sente Player
N-Gote
$EVENT:Test Cup
$START_TIME:2024/01/02 10:00:00
$TIME_LIMIT:00:25+00
$OPENING:YAGURA
$COLOR:blue
${HIRATE}
+
'before the first move
+7776FU
T12
-3334FU
T3
'** 0 eval
+8822UM
T1
-3122GI
%TORYO
T5
'summary:toryo:Sente Player win:Gote lose
`);
    expect(record).toEqual({
      sfen: START_SFEN,
      moves: ['7g7f', '3c3d', '8h2b+', '3a2b'],
      times: [12, 3, 1, null],
      ending: { kind: 'toryo', raw: '%TORYO', seconds: 5 },
      summary: 'toryo:Sente Player win:Gote lose',
      result: null,
      variations: [],
      players: { sente: 'Sente Player', gote: 'Gote' },
      info: { event: 'Test Cup', start_time: '2024/01/02 10:00:00', time_limit: '00:25+00', opening: 'YAGURA' },
      extraInfo: [{ format: 'csa', key: 'COLOR', value: 'blue' }],
      // `'*` comments a move (here Floodgate's `'**`: the comment is `* 0 eval`), `'` is a note readers skip
      comments: [
        { ply: 0, text: 'before the first move', kind: 'note' },
        { ply: 2, text: '* 0 eval' },
      ],
    });
  });

  test('V3.0: encoding line, $TIME, $MAX_MOVES, $JISHOGI, times in milliseconds, %MAX_MOVES', () => {
    const record = parsed(
      "'CSA encoding=UTF-8\nV3.0\n$TIME:600+10+0\n$MAX_MOVES:2\n$JISHOGI:27\nPI\n+\n+7776FU\nT1.250\n-3334FU\nT0.5\n%MAX_MOVES\n",
    );
    expect(record.info).toEqual({ time: '600+10+0', max_moves: '2', jishogi: '27' });
    expect(record.times).toEqual([1.25, 0.5]);
    expect(record.ending?.kind).toBe('max_moves');
    expect(record.comments).toEqual([]);
  });

  test('several statements on one line, a BOM and CRLF line ends', () => {
    const record = parsed('\uFEFFV2.2\r\nPI\r\n+\r\n+7776FU,T12,-3334FU,T6\r\n+2726FU, T1\r\n%CHUDAN\r\n');
    expect(record.moves).toEqual(['7g7f', '3c3d', '2g2f']);
    expect(record.times).toEqual([12, 6, 1]);
    expect(record.ending?.kind).toBe('chudan');
  });

  test('PI with removed pieces gives a handicap start; gote moves first', () => {
    const record = parsed('V2.2\nPI82HI22KA\n-\n-3334FU\n+7776FU\n');
    expect(record.sfen).toBe(HANDICAP_SFENS.two_piece);
    expect(handicapOf(record.sfen)).toBe('two_piece');
    expect(record.moves).toEqual(['3c3d', '7g7f']);
  });

  test('P+ / P- piece lines with hands and 00AL', () => {
    const record = parsed('V2.2\nP-11OU\nP+13KI23FU\nP+00KI00FU\nP-00AL\n+\n+0012KI\n');
    expect(record.sfen).toBe('8k/9/7PG/9/9/9/9/9/9 b GP2r2b2g4s4n4l16p 1');
    expect(record.moves).toEqual(['G*1b']);
  });

  test('promotion is read from the piece code changing; a promoted piece moving stays as is', () => {
    const record =
      parsed(`V2.2\nP1 *  *  *  * -OU *  *  *  * \nP7 *  *  *  *  *  *  * +FU * \nP9 *  *  *  * +OU *  *  *  * \n+
+2726FU,-5141OU,+2625FU,-4151OU,+2524FU,-5141OU,+2423TO,-4151OU,+2322TO\n`);
    expect(record.moves.slice(-3)).toEqual(['2d2c+', '4a5a', '2c2b']);
    expect(replayRecord(record)).toMatchObject({ plies: 9, status: 'ongoing' });
  });

  test.each([
    ['%TORYO', 'toryo'],
    ['%CHUDAN', 'chudan'],
    ['%SENNICHITE', 'sennichite'],
    ['%OUTE_SENNICHITE', 'oute_sennichite'],
    ['%TIME_UP', 'time_up'],
    ['%ILLEGAL_MOVE', 'illegal_move'],
    ['%+ILLEGAL_ACTION', '+illegal_action'],
    ['%-ILLEGAL_ACTION', '-illegal_action'],
    ['%JISHOGI', 'jishogi'],
    ['%KACHI', 'kachi'],
    ['%HIKIWAKE', 'hikiwake'],
    ['%MAX_MOVES', 'max_moves'],
    ['%TSUMI', 'tsumi'],
    ['%FUZUMI', 'fuzumi'],
    ['%MATTA', 'matta'],
    ['%ERROR', 'error'],
    ['%SOMETHING_NEW', 'other'],
  ])('ending %s is %s', (line, kind) => {
    expect(ENDINGS).toContain(kind);
    expect(parsed(`V2.2\nPI\n+\n${line}\n`).ending).toEqual({ kind, raw: line, seconds: null });
  });

  // CSA V3.0 2.1: info lines belong before the position, but servers write $END_TIME when the
  // game ends, after the ending and its time; a late info line is still that info field
  test('$ info lines after the moves and the ending are read as info', () => {
    const record = parsed(
      "V2.2\nN+a\n$START_TIME:2024/01/02 10:00:00\nPI\n+\n+7776FU\nT3\n$EVENT:late\n-3334FU\n%TORYO\nT1\n'summary:toryo:a win\n$END_TIME:2024/01/02 10:30:00\n$X_SERVER:wdoor\nN-b\n",
    );
    expect(record.moves).toEqual(['7g7f', '3c3d']);
    expect(record.times).toEqual([3, null]);
    expect(record.ending).toEqual({ kind: 'toryo', raw: '%TORYO', seconds: 1 });
    expect(record.info).toEqual({ start_time: '2024/01/02 10:00:00', event: 'late', end_time: '2024/01/02 10:30:00' });
    expect(record.extraInfo).toEqual([{ format: 'csa', key: 'X_SERVER', value: 'wdoor' }]);
    expect(record.players).toEqual({ sente: 'a', gote: 'b' });
    expect(record.summary).toBe('toryo:a win');
  });

  test('only the first of several records separated by "/" is read', () => {
    expect(parsed('V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n').moves).toEqual(['7g7f']);
  });

  test('moves that can be read but break the rules are kept, for replay to judge', () => {
    const record = parsed('V2.2\nPI\n+\n+7775FU\n-0055KA\n');
    expect(record.moves).toEqual(['7g7e', 'B*5e']);
    expect(replayRecord(record)).toMatchObject({
      status: 'illegal',
      illegal: { ply: 1, reason: 'illegal_piece_move' },
    });
    const drop = parsed('V2.2\nPI\n+\n+0055KA\n');
    expect(replayRecord(drop)).toMatchObject({ plies: 0, illegal: { ply: 1, reason: 'piece_not_in_hand' } });
  });

  test.each([
    ['no piece on the origin', 'V2.2\nPI\n+\n+7776FU\n-5554FU\n', 'no_piece', 5],
    ['an unknown piece code', 'V2.2\nPI\n+\n+7776XX\n', 'unknown_piece', 4],
    ['a code that is neither the piece nor its promotion', 'V2.2\nPI\n+\n+7776KI\n', 'piece_mismatch', 4],
    ['a gold "promoting"', 'V2.2\nPI\n+\n+6958KI\n-3334FU\n+5857NG\n', 'piece_mismatch', 6],
    ['the wrong sign for the side to move', 'V2.2\nPI\n+\n-3334FU\n', 'wrong_turn', 4],
    ['a move before the side line', 'V2.2\nPI\n+7776FU\n', 'missing_side', 3],
    ['a side line before any position', 'V2.2\n+\n', 'missing_position', 2],
    ['no position at all', 'V2.2\nN+a\n', 'missing_position', 0],
    ['a dropped promoted piece', 'V2.2\nPI\n+\n+0055TO\n', 'bad_move', 4],
    ['a move to 00', 'V2.2\nPI\n+\n+7700FU\n', 'bad_move', 4],
    ['a malformed move', 'V2.2\nPI\n+\n+776FU\n', 'bad_move', 4],
    ['a malformed time', 'V2.2\nPI\n+\n+7776FU\nTabc\n', 'bad_time', 5],
    ['a rank line with an unknown piece', 'V2.2\nP1-KY-XX\n', 'bad_position', 2],
    ['an impossible position (two sente kings)', 'V2.2\nP+59OU19OU\nP-51OU\n+\n', 'bad_position', 4],
    ['PI removing a piece that is not there', 'V2.2\nPI55HI\n+\n', 'bad_position', 2],
    ['an unknown line', 'V2.2\nhello\n', 'bad_line', 2],
    // a position line after the moves would change the game the moves were read on
    ['a position line after the moves', 'V2.2\nPI\n+\n+7776FU\nP1 *  *  *  *  *  *  *  *  * \n', 'bad_line', 5],
    ['a version line after the moves', 'V2.2\nPI\n+\n+7776FU\nV2.2\n', 'bad_line', 5],
    ['a move after the ending', 'V2.2\nPI\n+\n%TORYO\n+7776FU\n', 'bad_move', 5],
  ])('%s is an error with its line', (_, text, code, line) => {
    const result = parseCsa(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect({ code: result.error.code, line: result.error.line }).toEqual({ code, line });
  });
});

describe('exporting CSA', () => {
  const GAMES = `${FIXTURES}games/`;
  const files = readdirSync(GAMES).flatMap((dir) => readdirSync(`${GAMES}${dir}`).map((f) => `${dir}/${f}`));

  describe.each(files)('%s', (name) => {
    const decoded = decodeRecord(readFileSync(`${GAMES}${name}`));
    if (!decoded.ok) throw new Error(decoded.error.message);
    const record = decoded.value.record;
    test.each(['2.2', '3.0'] as const)('parse(export V%s) gives the record back', (version) => {
      const text = exportCsa(record, { version });
      if (!text.ok) throw new Error(text.error.message);
      expect(parseCsa(text.value)).toEqual({ ok: true, value: record });
    });
  });

  test('a non-hirate start is written as rank and hand lines, a handicap as PI', () => {
    const setup = parsed('V2.2\nP-11OU\nP+13KI23FU\nP+00KI00FU\nP-00AL\n+\n+0012KI\nT3\n');
    const text = exportCsa(setup, { version: '2.2' });
    expect(text.ok && text.value).toContain('P+00KI00FU\nP-00KI00KI00HI00HI00KA00KA');
    expect(text.ok && parseCsa(text.value)).toEqual({ ok: true, value: setup });
    const lance = { ...setup, sfen: HANDICAP_SFENS.lance, moves: [], times: [] };
    expect(exportCsa(lance, { version: '3.0' })).toEqual({ ok: true, value: "'CSA encoding=UTF-8\nV3.0\nPI11KY\n-\n" });
  });

  test('V2.2 writes whole seconds, V3.0 keeps milliseconds', () => {
    const record = parsed('V3.0\nPI\n+\n+7776FU\nT1.25\n');
    expect(exportCsa(record, { version: '2.2' }).ok && exportCsa(record, { version: '2.2' })).toMatchObject({
      value: expect.stringContaining('\nT1\n'),
    });
    expect(exportCsa(record, { version: '3.0' })).toMatchObject({ value: expect.stringContaining('\nT1.25\n') });
  });

  test('a record that cannot be written is an error, not an exception', () => {
    const bad = parsed('V2.2\nPI\n+\n');
    expect(exportCsa({ ...bad, sfen: 'nonsense' }, { version: '2.2' })).toMatchObject({ ok: false });
    expect(exportCsa({ ...bad, moves: ['5e5d'], times: [null] }, { version: '2.2' })).toMatchObject({
      ok: false,
      error: { code: 'bad_move' },
    });
  });
});
