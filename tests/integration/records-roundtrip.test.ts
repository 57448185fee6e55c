/**
 * Every ending a KIF or CSA record can state, and the record's comments and headers, through
 * import → the game's events (the view: its GameEnded and games row; the statistics:
 * finished_games after the projector) → export as KIF, KI2, CSA V2.2, CSA V3.0 and JKF
 * (`recordOfEvents` + `writeRecord`) → import again: the same winner and reason each time,
 * against the real PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type GameEnded, type RecordedEvent, recordOfEvents } from '@shogi/game';
import { type GameRecord, writeRecord } from '@shogi/rules';
import { catchUp, importRecordBytes, readStream } from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tsOutcome, tsshogiRead } from '../../packages/rules/test/tsshogi-reader.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ max: 4 });
});
afterAll(async () => t?.drop());

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

const KIF_HEADER = `開始日時：2024/05/18 09:00:00
表題：往復名人戦
棋戦：第1期往復名人戦
戦型：横歩取り
持ち時間：各6時間
場所：将棋会館
先手：先手さん
後手：後手さん
手数----指手---------消費時間--
*対局前
   1 ７六歩(77)   ( 0:05/00:00:05)
*先手の一手目
   2 ３四歩(33)   ( 0:07/00:00:07)
`;
/** Two moves, a comment after each, then the ending (sente to move). */
const kif = (ending: string): string => `${KIF_HEADER}   3 ${ending}   ( 0:11/00:00:16)\n`;
const csa = (ending: string): string =>
  `V2.2\nN+csa sente\nN-csa gote\n$EVENT:csa event\n$SITE:csa site\n$OPENING:yokofu\nPI\n+\n'before\n+7776FU\nT5\n'* 30 -3334FU\n-3334FU\nT7\n${ending}\nT11\n`;

interface Expected {
  readonly winner: 'sente' | 'gote' | null;
  readonly reason: GameEnded['data']['reason'];
  readonly stats: string;
}
const won = (winner: 'sente' | 'gote', reason: Expected['reason'], stats: string = reason): Expected => ({
  winner,
  reason,
  stats,
});
const drawn = (reason: Expected['reason'], stats: string = reason): Expected => ({ winner: null, reason, stats });

const CASES: readonly (readonly [string, string, Expected])[] = [
  ['KIF 投了', kif('投了'), won('gote', 'resignation')],
  ['KIF 切れ負け', kif('切れ負け'), won('gote', 'timeout')],
  ['KIF 反則負け', kif('反則負け'), won('gote', 'illegal_move')],
  ['KIF 反則勝ち', kif('反則勝ち'), won('sente', 'illegal_move')],
  ['KIF 不戦勝', kif('不戦勝'), won('sente', 'illegal_move', 'forfeit')],
  ['KIF トライ', kif('トライ'), won('gote', 'illegal_move', 'try')],
  ['KIF 千日手', kif('千日手'), drawn('sennichite')],
  ['KIF 持将棋', kif('持将棋'), drawn('impasse')],
  ['KIF 引き分け', kif('引き分け'), drawn('draw')],
  ['KIF 中断', kif('中断'), { winner: null, reason: 'abort', stats: 'interrupted' }],
  [
    'KIF resignation on the opponent’s turn (まで…の勝ち, no ending word)',
    `${KIF_HEADER.split('   2 ')[0]}まで1手で後手の勝ち\n`,
    won('gote', 'resignation'),
  ],
  ['CSA %TORYO', csa('%TORYO'), won('gote', 'resignation')],
  ['CSA %TIME_UP', csa('%TIME_UP'), won('gote', 'timeout')],
  ['CSA %ILLEGAL_MOVE', csa('%ILLEGAL_MOVE'), won('gote', 'illegal_move')],
  ['CSA %+ILLEGAL_ACTION', csa('%+ILLEGAL_ACTION'), won('gote', 'illegal_move')],
  ['CSA %-ILLEGAL_ACTION', csa('%-ILLEGAL_ACTION'), won('sente', 'illegal_move')],
  ['CSA %SENNICHITE', csa('%SENNICHITE'), drawn('sennichite')],
  ['CSA %OUTE_SENNICHITE', csa('%OUTE_SENNICHITE'), won('sente', 'perpetual_check')],
  ['CSA %JISHOGI', csa('%JISHOGI'), drawn('impasse')],
  ['CSA %MAX_MOVES', csa('%MAX_MOVES'), drawn('max_moves')],
  ['CSA %HIKIWAKE', csa('%HIKIWAKE'), drawn('draw')],
  ['CSA %CHUDAN', csa('%CHUDAN'), { winner: null, reason: 'abort', stats: 'interrupted' }],
  // the board judges the declaration: sente has no points in camp, so it loses
  ['CSA %KACHI', csa('%KACHI'), won('gote', 'impasse')],
];

interface Seen extends Expected {
  readonly record: GameRecord;
  readonly view: { winner: string | null; end_reason: string | null };
}

/** Imports the bytes and reads the game back three ways: its events, its games row, its finished_games row. */
async function importAndRead(text: string, fileName: string): Promise<Seen> {
  const [outcome] = await importRecordBytes(t.db, bytes(text), { fileName });
  // an export may be byte for byte a file imported before (CSA V2.2 of a CSA V2.2): that game is the one
  if (!outcome?.ok) throw new Error(`${fileName}: ${JSON.stringify(outcome)}`);
  const events = (await readStream(t.db, outcome.gameId, 0)) as RecordedEvent[];
  const ended = events.find((e): e is RecordedEvent<GameEnded> => e.type === 'GameEnded');
  await catchUp(t.db);
  const db = t.db.withTables<{
    games: { id: string; winner: string | null; end_reason: string | null };
    finished_games: { game_id: string; end_reason: string };
  }>();
  const view = await db
    .selectFrom('games')
    .select(['winner', 'end_reason'])
    .where('id', '=', outcome.gameId)
    .executeTakeFirstOrThrow();
  const stats = await db
    .selectFrom('finished_games')
    .select('end_reason')
    .where('game_id', '=', outcome.gameId)
    .executeTakeFirstOrThrow();
  const record = recordOfEvents(events);
  if (ended === undefined || record === null) throw new Error(`${fileName}: no ending or no record`);
  return { winner: ended.data.winner, reason: ended.data.reason, stats: stats.end_reason, record, view };
}

const outcomeOf = (s: Seen) => ({ winner: s.winner, reason: s.reason, stats: s.stats });

describe('every ending through import → view → stats → export → import', () => {
  test.each(CASES)('%s', async (name, text, expected) => {
    const first = await importAndRead(text, `${name}.${text.startsWith('V2.2') ? 'csa' : 'kif'}`);
    expect(outcomeOf(first)).toEqual(expected);
    expect(first.view).toEqual({ winner: expected.winner, end_reason: expected.reason });
    const isKif = !text.startsWith('V2.2');
    const opponentTurn = name.includes('opponent');
    for (const [format, csaVersion] of [
      ['kif', undefined],
      ['ki2', undefined],
      ['jkf', undefined],
      ['csa', '2.2'],
      ['csa', '3.0'],
    ] as const) {
      // JKF states endings as the side to move's only: it has no word for this one
      if (opponentTurn && format === 'jkf') continue;
      const out = writeRecord(first.record, { format, ...(csaVersion ? { csaVersion } : {}) });
      if (!out.ok) throw new Error(out.error.message);
      const again = await importAndRead(out.value, `${name} again.${format}${csaVersion ?? ''}`);
      const where = `${format}${csaVersion ?? ''}`;
      // CSA and JKF have no word for a forfeit or a try, nor JKF a closing line: the winner and
      // the game's reason stay, the statistics say the catch-all
      const finer = expected.stats === 'forfeit' || expected.stats === 'try';
      expect({ where, ...outcomeOf(again) }).toEqual({
        where,
        ...expected,
        ...(finer && format !== 'kif' ? { stats: 'illegal_move' } : {}),
      });
      // the comments come back as written (a CSA export may add its own notice after them)
      expect(again.record.comments.slice(0, first.record.comments.length)).toEqual(first.record.comments);
      expect(again.record.moves).toEqual(first.record.moves);
      // KI2 has no times
      expect(again.record.ending?.seconds ?? null).toBe(
        format === 'ki2' ? null : (first.record.ending?.seconds ?? null),
      );
      // every header, in every format: one the other format has no field for is kept its way
      expect(again.record.info).toEqual(first.record.info);
      expect(again.record.extraInfo).toEqual(first.record.extraInfo);
      // a reader nobody here wrote scores the export as the server did (a failed %KACHI for gote).
      // Not where tsshogi has no word (連続王手の千日手, KIF's 引き分け and 最大手数) or reads
      // CSA's and JKF's %±ILLEGAL_ACTION the other way round (records-export-roundtrip.test.ts)
      const theirs = tsOutcome(tsshogiRead(format, out.value));
      const kind = again.record.ending?.kind;
      const action = (kind === '+illegal_action' || kind === '-illegal_action') && format !== 'kif';
      const unnamed =
        kind === 'oute_sennichite' ||
        ((format === 'kif' || format === 'ki2') && (kind === 'hikiwake' || kind === 'max_moves'));
      const named = expected.winner ?? (expected.reason === 'abort' ? 'none' : 'draw');
      if (!action && !unnamed && !opponentTurn && !finer) expect({ where, theirs }).toEqual({ where, theirs: named });
      if (isKif && format === 'kif') expect(again.record.ending?.raw).toBe(first.record.ending?.raw);
    }
  });

  test('the headers a KIF states are kept: 表題, 棋戦, 場所, 持ち時間, 戦型, and the ending’s time', async () => {
    const seen = await importAndRead(kif('投了').replace('投了', '投了 '), 'headers.kif');
    expect(seen.record.info).toMatchObject({
      title: '往復名人戦',
      event: '第1期往復名人戦',
      opening: '横歩取り',
      time_control: '各6時間',
      site: '将棋会館',
    });
    expect(seen.record.ending).toEqual({ kind: 'toryo', raw: '投了', seconds: 11 });
    const out = writeRecord(seen.record, { format: 'kif' });
    expect(out.ok && out.value).toContain('表題：往復名人戦');
    expect(out.ok && out.value).toContain('   3 投了   ( 0:11/00:00:16)');
  });

  test('variations are kept through import and export', async () => {
    const text = `${KIF_HEADER}   3 投了\n\n変化：2手\n   2 ８四歩(83)\n*別の手\n   3 ２六歩(27)\n`;
    const seen = await importAndRead(text, 'variations.kif');
    expect(seen.record.variations).toEqual([
      {
        ply: 2,
        moves: ['8c8d', '2g2f'],
        times: [null, null],
        comments: [{ ply: 2, text: '別の手' }],
        ending: null,
        variations: [],
      },
    ]);
    const out = writeRecord(seen.record, { format: 'kif' });
    expect(out.ok && out.value).toContain('変化：2手\n   2 ８四歩(83)\n*別の手\n   3 ２六歩(27)');
  });

  test('an illegal variation fails the record, which leaves nothing behind', async () => {
    const text = `${KIF_HEADER}   3 投了\n\n変化：2手\n   2 ３三角(22)\n`;
    const [outcome] = await importRecordBytes(t.db, bytes(text), { fileName: 'bad-variation.kif' });
    expect(outcome).toMatchObject({ ok: false, ply: 2, code: 'illegal_move' });
    expect(outcome?.ok === false && outcome.message).toContain('variation from move 2');
  });

  test('a failure names the line and the reader’s reason', async () => {
    const text = `${KIF_HEADER}   3 ５五金(88)\n`;
    const [outcome] = await importRecordBytes(t.db, bytes(text), { fileName: 'broken.kif' });
    expect(outcome).toMatchObject({ ok: false, line: 14, code: 'piece_mismatch' });
  });
});

describe('one entry for import', () => {
  test('a CSA file of several records: one outcome each, in order; a bad one fails alone', async () => {
    const good = csa('%TORYO').replace('csa event', 'several');
    const text = `${good}/\n${good.replace('+7776FU', '+7775FU')}/\n${good.replace('%TORYO', '%SENNICHITE')}`;
    const outcomes = await importRecordBytes(t.db, bytes(text), { fileName: 'several.csa', importedBy: 'p-1' });
    expect(outcomes.map((o) => (o.ok ? 'ok' : `${o.file} ${o.code}`))).toEqual([
      'ok',
      'several.csa#2 illegal_move',
      'ok',
    ]);
    const first = outcomes[0];
    const events = first?.ok ? await readStream(t.db, first.gameId, 0) : [];
    expect(events[0]?.type === 'GameCreated' && events[0].data.record?.importedBy).toBe('p-1');
  });

  test('`npm run import` imports the dialect samples as importRecordBytes does', async () => {
    const dir = join(import.meta.dirname, '../../packages/rules/test/fixtures/records');
    const other = await createTestDatabase({ max: 2 });
    try {
      const run = await promisify(execFile)(
        'npx',
        ['tsx', '--conditions=@shogi/source', 'packages/store/src/cli/import.ts', dir],
        { cwd: join(import.meta.dirname, '../..'), env: { ...process.env, DATABASE_URL: other.url } },
      );
      const files = readdirSync(dir).sort();
      expect(run.stdout).toContain(`imported ${files.length} games, 0 already there, 0 invalid`);
      const expected: string[] = [];
      for (const f of files) {
        const [o] = await importRecordBytes(t.db, readFileSync(join(dir, f)), { fileName: join(dir, f) });
        if (o?.ok) expected.push(o.gameId);
      }
      const ids = await sql<{ game_id: string }>`select game_id from imported_games order by game_id`.execute(other.db);
      expect(ids.rows.map((r) => r.game_id)).toEqual([...expected].sort());
    } finally {
      await other.drop();
    }
  }, 120_000);
});
