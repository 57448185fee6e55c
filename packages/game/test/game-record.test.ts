/**
 * recordOfEvents: a game played here as KIF and CSA state it (every ending the reader maps
 * back to the same winner; a resignation on the opponent's turn in KIF's closing line and
 * CSA's summary), and an imported game given back in its file's own words.
 */
import { decodeRecord, parseCsa, parseKif, START_SFEN, writeRecord } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import type { EndReason, GameEvent, RecordedEvent, RecordNotes } from '../src/events.js';
import { recordOfEvents } from '../src/game-record.js';
import { gameCreated, moveSubmitted, T0 } from '../src/testing/fixtures.js';

const at = (s: number): string => new Date(T0.getTime() + s * 1000).toISOString();

/** A game of `moves` (a move every 10 s), ended as given. */
function events(
  moves: readonly string[],
  winner: 'sente' | 'gote' | null,
  reason: EndReason,
  record?: RecordNotes,
  comments: readonly (string | undefined)[] = [],
) {
  const log: GameEvent[] = [gameCreated('g1', record === undefined ? {} : { record })];
  for (const [i, usi] of moves.entries()) {
    const submitted = moveSubmitted(usi, i);
    const comment = comments[i] === undefined ? {} : { comment: comments[i] };
    log.push(
      { ...submitted, data: { ...submitted.data, receivedAt: at(10 * (i + 1)), ...comment } },
      { type: 'MoveAccepted', data: { submittedSeq: log.length + 1, ply: i + 1, usi, sfen: START_SFEN, check: false } },
    );
  }
  log.push({ type: 'GameEnded', data: { winner, reason, at: at(10 * moves.length + 5) } });
  return log.map(
    (e, i): RecordedEvent =>
      ({ ...e, gameId: 'g1', seq: i + 1, recordedAt: at(0), globalPosition: i + 1 }) as RecordedEvent,
  );
}

const TWO = ['7g7f', '3c3d'];

describe('a game played here', () => {
  test.each([
    ['gote', 'resignation', 'toryo', '後手の勝ち'],
    ['gote', 'timeout', 'time_up', '時間切れにより後手の勝ち'],
    ['gote', 'illegal_move', 'illegal_move', '先手の反則負け'],
    [null, 'sennichite', 'sennichite', '千日手'],
    [null, 'max_moves', 'max_moves', '引き分け'],
    [null, 'abort', 'chudan', null],
  ] as const)('%s by %s: the ending %s and the closing line %s', (winner, reason, kind, text) => {
    const record = recordOfEvents(events(TWO, winner, reason));
    expect(record?.ending?.kind).toBe(kind);
    expect(record?.result?.text ?? null).toBe(text);
    expect(record?.times).toEqual([10, 10]);
  });

  test('a resignation on the opponent’s turn: no ending line, the winner in KIF’s closing line and CSA’s summary', () => {
    const record = recordOfEvents(events(TWO, 'sente', 'resignation'));
    if (record === null) throw new Error('no record');
    expect(record.ending).toBeNull();
    expect(record.result).toEqual({ winner: 0, text: '先手の勝ち' });
    expect(record.summary).toBe('toryo:Gote lose:Sente win');
    const kif = writeRecord(record, { format: 'kif' });
    expect(kif.ok && kif.value).toContain('まで2手で先手の勝ち');
    const back = kif.ok ? parseKif(kif.value) : null;
    expect(back?.ok && back.value.result).toEqual({ winner: 0, text: '先手の勝ち' });
    const csa = writeRecord(record, { format: 'csa', csaVersion: '2.2' });
    const csaBack = csa.ok ? parseCsa(csa.value) : null;
    expect(csaBack?.ok && csaBack.value.summary).toBe('toryo:Gote lose:Sente win');
  });
});

describe('a game played here: what only the events know', () => {
  test('a failed impasse declaration: the declaration, and gote’s win in the closing line; every export scores it for gote', () => {
    // sente, to move after two plies, declared and lost: the server judged the declaration
    const record = recordOfEvents(events(TWO, 'gote', 'impasse'));
    if (record === null) throw new Error('no record');
    expect(record.ending?.kind).toBe('kachi');
    expect(record.result).toEqual({ winner: 1, text: '後手の勝ち' });
    for (const format of ['kif', 'ki2', 'csa', 'jkf'] as const) {
      const text = writeRecord(record, { format });
      expect(text.ok && text.value).not.toMatch(/入玉勝ち|^%KACHI$|"special":"KACHI"/m);
      const back = text.ok ? decodeRecord(new TextEncoder().encode(text.value), `x.${format}`) : null;
      expect(back?.ok && back.value.record.ending?.kind).toBe('kachi');
    }
  });

  test('a declaration that held: 入玉勝ち and sente’s win', () => {
    const record = recordOfEvents(events([...TWO, '2g2f'], 'gote', 'impasse'));
    expect(record?.ending?.kind).toBe('kachi');
    expect(record?.result).toEqual({ winner: 1, text: '後手の入玉勝ち' });
  });

  test("a player’s `'*` comment comments the move; any other words with a move are a note", () => {
    const record = recordOfEvents(events(TWO, 'gote', 'resignation', undefined, ['* 30 -3334FU', 'hello']));
    expect(record?.comments).toEqual([
      { ply: 1, text: ' 30 -3334FU' },
      { ply: 2, text: 'hello', kind: 'note' },
    ]);
  });
});

describe('an imported game', () => {
  const notes: RecordNotes = {
    format: 'kif',
    times: [3, null],
    ending: { kind: 'hikiwake', raw: '引き分け', seconds: 7 },
    summary: null,
    players: { sente: '先手の名', gote: '後手の名' },
    info: { event: '棋戦', title: '表題' },
    extraInfo: [{ format: 'kif', key: '先手省略名', value: '先' }],
    comments: [{ ply: 1, text: 'コメント' }],
    result: { winner: null, text: '引き分け' },
    variations: [{ ply: 2, moves: ['8c8d'], times: [null], comments: [], ending: null, variations: [] }],
  };

  test('comes back in its file’s words, whatever the server recorded as its reason', () => {
    const record = recordOfEvents(events(TWO, null, 'max_moves', notes));
    expect(record).toEqual({
      sfen: START_SFEN,
      moves: TWO,
      times: [3, null],
      ending: notes.ending,
      summary: null,
      players: notes.players,
      info: notes.info,
      extraInfo: notes.extraInfo,
      comments: notes.comments,
      result: notes.result,
      variations: notes.variations,
    });
  });

  test('a failed %KACHI the file states: the server’s judgement is its result, so exports score it for gote', () => {
    const kachi = {
      ...notes,
      format: 'csa',
      ending: { kind: 'kachi', raw: '%KACHI', seconds: null },
      result: null,
    } as const;
    const record = recordOfEvents(events(TWO, 'gote', 'impasse', kachi));
    expect(record?.ending).toEqual(kachi.ending);
    expect(record?.result).toEqual({ winner: 1, text: '後手の勝ち' });
  });

  test('a CSA record imported before comments had kinds: `*…` comments its move, the rest are notes', () => {
    const legacy = {
      ...notes,
      format: 'csa',
      comments: [
        { ply: 1, text: '* 30 -3334FU' },
        { ply: 2, text: 'plain' },
      ],
    };
    expect(recordOfEvents(events(TWO, null, 'max_moves', legacy))?.comments).toEqual([
      { ply: 1, text: ' 30 -3334FU' },
      { ply: 2, text: 'plain', kind: 'note' },
    ]);
    const marked = { ...legacy, commentKinds: true } as const;
    expect(recordOfEvents(events(TWO, null, 'max_moves', marked))?.comments).toEqual(legacy.comments);
  });

  test('without an ending of its own, what the server decided is written', () => {
    const record = recordOfEvents(events(TWO, 'gote', 'checkmate', { ...notes, ending: null, result: null }));
    expect(record?.ending?.kind).toBe('tsumi');
    expect(record?.result).toEqual({ winner: 1, text: '後手の勝ち' });
  });
});
