/**
 * How an imported record ended, when the board does not decide it: from the ending it states
 * (which speaks of the side to move), else its closing line (KIF's `まで64手で後手の勝ち`, which
 * names the winner whoever was to move), else the CSA server's `'summary:` line. Each ending
 * maps to the live game's GameEnded (winner and one of END_REASONS) and to the finer reason
 * the statistics count (imported_games.end_reason):
 *
 * | record                                        | winner           | GameEnded reason | statistics      |
 * |-----------------------------------------------|------------------|------------------|-----------------|
 * | %TORYO 投了                                    | the other side   | resignation      | resignation     |
 * | %TSUMI 詰み                                    | the other side   | checkmate        | checkmate       |
 * | %TIME_UP 切れ負け 時間切れ                      | the other side   | timeout          | timeout         |
 * | %ILLEGAL_MOVE 反則負け                         | the other side   | illegal_move     | illegal_move    |
 * | %+ILLEGAL_ACTION / %-ILLEGAL_ACTION 反則勝ち    | named            | illegal_move     | illegal_move    |
 * | 不戦勝 不戦敗 / トライ                          | named            | illegal_move     | forfeit / try   |
 * | %SENNICHITE 千日手                             | none (draw)      | sennichite       | sennichite      |
 * | %OUTE_SENNICHITE 連続王手の千日手               | the side to move | perpetual_check  | perpetual_check |
 * | %JISHOGI 持将棋                                | none (draw)      | impasse          | impasse         |
 * | %MAX_MOVES 最大手数                            | none (draw)      | max_moves        | max_moves       |
 * | %HIKIWAKE 引き分け                             | none (draw)      | max_moves        | draw            |
 * | %CHUDAN 中断, %FUZUMI, %MATTA, %ERROR, none     | none (no result) | abort            | interrupted     |
 *
 * `max_moves` is the live game's only plain draw (lishogi shows it as `draw`), so an agreed
 * draw ends there; the record keeps `%HIKIWAKE` for its exports and the statistics say `draw`.
 */
import type { EndReason } from '@shogi/game';
import type { Color, GameRecord } from '@shogi/rules';
import type { StatsEndReason } from './schema.js';

export interface RecordOutcome {
  readonly winner: Color | null;
  readonly reason: EndReason;
  readonly statsReason: StatsEndReason;
}

const other = (c: Color): Color => (c ^ 1) as Color;
const won = (winner: Color, reason: EndReason, statsReason: StatsEndReason = reason): RecordOutcome => ({
  winner,
  reason,
  statsReason,
});
const drawn = (reason: EndReason, statsReason: StatsEndReason = reason): RecordOutcome => ({
  winner: null,
  reason,
  statsReason,
});
const NO_RESULT: RecordOutcome = { winner: null, reason: 'abort', statsReason: 'interrupted' };

/** The finer statistics reason of a KIF foul word (不戦勝, 不戦敗: forfeits; トライ: the try rule). */
const foulReason = (raw: string): StatsEndReason =>
  raw === '不戦勝' || raw === '不戦敗' ? 'forfeit' : raw === 'トライ' ? 'try' : 'illegal_move';

/** `'summary:reason:NAME1 win|lose|draw:NAME2 ...` (the CSA/Floodgate server). */
function summaryOutcome(record: GameRecord): RecordOutcome | null {
  const parts = record.summary?.split(':');
  if (parts === undefined || parts.length < 3) return null;
  const kind = parts[0] ?? '';
  const verdicts = parts.slice(1).map((p) => /^(.*) (win|lose|draw)$/.exec(p.trim()));
  const winnerName = verdicts.find((v) => v?.[2] === 'win')?.[1];
  const loserName = verdicts.find((v) => v?.[2] === 'lose')?.[1];
  let winner: Color | null = null;
  if (winnerName !== undefined && winnerName === record.players.sente) winner = 0;
  else if (winnerName !== undefined && winnerName === record.players.gote) winner = 1;
  else if (loserName !== undefined && loserName === record.players.sente) winner = 1;
  else if (loserName !== undefined && loserName === record.players.gote) winner = 0;
  if (winner === null) {
    if (kind === 'sennichite') return drawn('sennichite');
    if (kind === 'max_moves') return drawn('max_moves');
    if (verdicts.some((v) => v?.[2] === 'draw')) return drawn('draw');
    return NO_RESULT;
  }
  if (kind === 'toryo') return won(winner, 'resignation');
  if (kind === 'time up') return won(winner, 'timeout');
  if (kind === 'tsumi') return won(winner, 'checkmate');
  return won(winner, 'illegal_move');
}

/** The closing line's result: a winner (most often by resignation, else as its words say) or a draw. */
function closingOutcome(record: GameRecord): RecordOutcome | null {
  const result = record.result;
  if (!result) return null;
  const text = result.text;
  if (result.winner === null) {
    if (text.includes('千日手')) return drawn('sennichite');
    if (text.includes('持将棋')) return drawn('impasse');
    return drawn('draw');
  }
  if (text.includes('時間切れ') || text.includes('切れ負け')) return won(result.winner, 'timeout');
  if (text.includes('反則')) return won(result.winner, 'illegal_move');
  if (text.includes('入玉')) return won(result.winner, 'impasse');
  if (text.includes('詰')) return won(result.winner, 'checkmate');
  return won(result.winner, 'resignation');
}

/** The outcome a record states when the board did not end the game; `toMove` is the side to move after the last move. */
export function statedOutcome(record: GameRecord, toMove: Color): RecordOutcome {
  const ending = record.ending;
  switch (ending?.kind) {
    case 'toryo':
      return won(other(toMove), 'resignation');
    case 'tsumi':
      return won(other(toMove), 'checkmate');
    case 'time_up':
      return won(other(toMove), 'timeout');
    case 'illegal_move':
      return won(other(toMove), 'illegal_move');
    case '+illegal_action':
      return won(1, 'illegal_move', foulReason(ending.raw));
    case '-illegal_action':
      return won(0, 'illegal_move', foulReason(ending.raw));
    case 'sennichite':
      return drawn('sennichite');
    case 'oute_sennichite':
      // the checking side made the last move, and loses
      return won(toMove, 'perpetual_check');
    case 'jishogi':
      return drawn('impasse');
    case 'max_moves':
      return drawn('max_moves');
    case 'hikiwake':
      return drawn('draw');
    case undefined:
      return closingOutcome(record) ?? summaryOutcome(record) ?? NO_RESULT;
    default:
      return NO_RESULT;
  }
}
