import { type GameEnded, type RecordedEvent, recordOfEvents } from '@shogi/game';
import { exportCsa, exportKif, type GameRecord, parseCsa, parseKif, START_SFEN } from '@shogi/rules';
import { describe, expect, it } from 'vitest';

type Side = 'sente' | 'gote';
const other = (s: Side): Side => (s === 'sente' ? 'gote' : 'sente');

/** A game's log: created, the moves accepted, then its end. */
function log(moves: readonly string[], ended: GameEnded['data'], initialSfen = START_SFEN): RecordedEvent[] {
  let seq = 0;
  const at = '2026-11-30T10:00:00.000Z';
  const ev = (type: string, data: unknown) =>
    ({ gameId: 'g', seq: ++seq, type, data, recordedAt: at, globalPosition: String(seq) }) as unknown as RecordedEvent;
  const out = [
    ev('GameCreated', {
      gameId: 'g',
      sente: { id: 'a', name: 'alice' },
      gote: { id: 'b', name: 'bob' },
      ruleset: 'default',
      handicap: null,
      initialSfen,
      timeControl: { kind: 'unlimited' },
      rated: false,
      createdAt: at,
    }),
  ];
  moves.forEach((usi, ply) => {
    out.push(ev('MoveSubmitted', { playerId: 'p', color: ply % 2 ? 'gote' : 'sente', usi, ply, receivedAt: at }));
    out.push(ev('MoveAccepted', { submittedSeq: seq, usi, ply, sfen: initialSfen, check: false }));
  });
  out.push(ev('GameEnded', ended));
  return out;
}

/**
 * Who a record says won, read the way record readers (and this server's importer) read
 * it: ending words and `%` lines speak of the side to move; the CSA server summary names
 * the winner.
 */
function winnerRead(record: GameRecord): Side | 'draw' | 'unknown' {
  const toMove: Side = record.moves.length % 2 === 0 ? 'sente' : 'gote';
  switch (record.ending?.kind) {
    case 'toryo':
    case 'tsumi':
    case 'time_up':
    case 'illegal_move':
      return other(toMove);
    case 'kachi':
      return toMove;
    case '+illegal_action':
      return 'gote';
    case '-illegal_action':
      return 'sente';
    case 'sennichite':
    case 'jishogi':
    case 'hikiwake':
      return 'draw';
    case undefined: {
      const m = /([^:\s]+) win/.exec(record.summary ?? '');
      return m?.[1] === 'alice' ? 'sente' : m?.[1] === 'bob' ? 'gote' : 'unknown';
    }
    default:
      return 'unknown';
  }
}

/** The record of `events` exported as KIF and CSA and read back. */
function readBack(events: readonly RecordedEvent[]): {
  kif: GameRecord;
  csa: GameRecord;
  kifText: string;
  csaText: string;
} {
  const record = recordOfEvents(events);
  if (record === null) throw new Error('no record');
  const kifText = exportKif(record);
  const csaText = exportCsa(record, { version: '3.0' });
  if (!kifText.ok || !csaText.ok) throw new Error('export failed');
  const kif = parseKif(kifText.value);
  const csa = parseCsa(csaText.value);
  if (!kif.ok || !csa.ok) throw new Error('read back failed');
  return { kif: kif.value, csa: csa.value, kifText: kifText.value, csaText: csaText.value };
}

const at = '2026-11-30T10:05:00.000Z';

describe('game records name the winner the log names', () => {
  it('a resignation on the resigner’s turn is 投了 / %TORYO', () => {
    const { kif, csa, kifText } = readBack(log(['7g7f', '3c3d'], { winner: 'gote', reason: 'resignation', at }));
    expect(kif.ending?.kind).toBe('toryo');
    expect(kifText).toContain('投了');
    expect(winnerRead(kif)).toBe('gote');
    expect(winnerRead(csa)).toBe('gote');
  });

  it('a resignation on the opponent’s turn has no ending line, and the summary names the winner', () => {
    // sente moved, then resigned while gote was to move: 投了 there would say gote resigned
    const { kif, csa, kifText } = readBack(log(['7g7f'], { winner: 'gote', reason: 'resignation', at }));
    expect(kifText).not.toContain('投了');
    expect(kif.ending).toBeNull();
    expect(kif.comments.map((c) => c.text).join('\n')).toContain('resignation by sente while gote was to move');
    expect(csa.ending).toBeNull();
    expect(csa.summary).toBe('toryo:alice lose:bob win');
    expect(winnerRead(csa)).toBe('gote');
  });

  it('a foul is the loser’s illegal action, whoever is to move', () => {
    for (const moves of [['7g7f'], ['7g7f', '3c3d']]) {
      const { kif, csa } = readBack(log(moves, { winner: 'sente', reason: 'abort', at }));
      expect(winnerRead(kif)).toBe('sente');
      expect(winnerRead(csa)).toBe('sente');
    }
  });

  it('an impasse: a won declaration is kachi, a wrong one the declarer’s foul, a draw jishogi', () => {
    const won = readBack(log(['7g7f', '3c3d'], { winner: 'sente', reason: 'impasse', at }));
    expect(won.csa.ending?.kind).toBe('kachi');
    expect(winnerRead(won.csa)).toBe('sente');
    // a wrong declaration is written as the declarer's foul, which readers score for gote, with a
    // note that it was a declaration, which this server reads back as one (its importer judges it)
    const wrong = readBack(log(['7g7f', '3c3d'], { winner: 'gote', reason: 'impasse', at }));
    expect(wrong.kifText).toContain('   3 反則負け\n#%KACHI\nまで2手で後手の勝ち');
    expect(wrong.csaText).toContain("\n%ILLEGAL_MOVE\n'%KACHI\n");
    expect(wrong.csaText).not.toMatch(/^%KACHI$/m);
    expect(wrong.kif.ending?.kind).toBe('kachi');
    expect(wrong.kif.result?.winner).toBe(1);
    expect(wrong.csa.ending?.kind).toBe('kachi');
    const drawn = readBack(log(['7g7f', '3c3d'], { winner: null, reason: 'impasse', at }));
    expect(winnerRead(drawn.kif)).toBe('draw');
    expect(winnerRead(drawn.csa)).toBe('draw');
  });

  it('checkmate, timeout and sennichite', () => {
    expect(winnerRead(readBack(log(['7g7f'], { winner: 'sente', reason: 'checkmate', at })).kif)).toBe('sente');
    expect(winnerRead(readBack(log(['7g7f'], { winner: 'sente', reason: 'timeout', at })).csa)).toBe('sente');
    expect(winnerRead(readBack(log(['7g7f'], { winner: null, reason: 'sennichite', at })).kif)).toBe('draw');
  });

  it('a game still going has no ending', () => {
    const events = log(['7g7f'], { winner: null, reason: 'abort', at }).slice(0, -1);
    expect(recordOfEvents(events)?.ending).toBeNull();
  });
});
