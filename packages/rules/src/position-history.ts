/**
 * A position's history under a ruleset: the position, every move, and the incremental keys
 * and check flags that decide repetition (sennichite) and perpetual check, plus the end
 * of the game the rules declare (checkmate, stalemate, sennichite, perpetual check,
 * impasse). Resignation and time are not rules of the board: packages/game owns them.
 *
 * Perpetual check (RULES.md): a fourfold repetition during which every move of one side
 * since the first occurrence was a check. Under `jsa` the checker loses. Under `default`
 * the move that completes it is illegal when the checker makes it (reason
 * `perpetual_check`); when the checked side's move completes it, the checker had to
 * stop checking and did not, so the checker loses as under `jsa`.
 */
import { assessImpasse, type ImpasseAssessment } from './impasse.js';
import { moveIllegality } from './legality.js';
import { hasLegalMove } from './movegen.js';
import type { Move, Position } from './position.js';
import { type Color, err, type IllegalReason, ok, type Result, type Ruleset } from './types.js';
import { parseUsi } from './usi.js';

export const OUTCOME_STATUSES = [
  'ongoing',
  'checkmate',
  'stalemate',
  'sennichite',
  'perpetual_check',
  'impasse',
] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

export type Outcome =
  | { readonly status: 'ongoing' }
  | { readonly status: 'checkmate'; readonly winner: Color }
  /** winner null: a draw (default ruleset); under `jsa` the side that cannot move loses. */
  | { readonly status: 'stalemate'; readonly winner: Color | null }
  | { readonly status: 'sennichite' }
  | { readonly status: 'perpetual_check'; readonly winner: Color }
  | { readonly status: 'impasse'; readonly winner: Color; readonly declaration: ImpasseAssessment };

export const winnerOf = (o: Outcome): Color | null => ('winner' in o ? o.winner : null);

export type MoveRejection = IllegalReason | 'malformed_usi';

const REPETITIONS_FOR_SENNICHITE = 4;

export class PositionHistory {
  readonly moves: Move[] = [];
  /** keys[i]: the position key after i plies (keys[0] is the initial position). */
  private readonly keys: number[] = [];
  /** checked[i]: the side to move after i plies is in check (ply i gave check). */
  private readonly checked: boolean[] = [];
  private readonly seen = new Map<number, number[]>();
  private current: Outcome = { status: 'ongoing' };

  readonly position: Position;
  readonly ruleset: Ruleset;

  constructor(position: Position, ruleset: Ruleset = 'default') {
    this.position = position;
    this.ruleset = ruleset;
    this.record(position.key(), position.inCheck());
    if (!hasLegalMove(position)) this.current = this.noMovesOutcome();
  }

  get outcome(): Outcome {
    return this.current;
  }

  get ply(): number {
    return this.moves.length;
  }

  private record(key: number, inCheck: boolean): void {
    const ply = this.keys.length;
    this.keys.push(key);
    this.checked.push(inCheck);
    const plies = this.seen.get(key);
    if (plies) plies.push(ply);
    else this.seen.set(key, [ply]);
  }

  private unrecord(): void {
    const key = this.keys.pop() as number;
    this.checked.pop();
    const plies = this.seen.get(key) as number[];
    plies.pop();
    if (plies.length === 0) this.seen.delete(key);
  }

  /** Side that made the move reaching ply `p` (1-based). */
  private moverOf(p: number): Color {
    const first = (this.position.side ^ (this.moves.length & 1)) as Color;
    return ((p - 1) & 1 ? first ^ 1 : first) as Color;
  }

  /** The side whose every move since ply `from` was a check, or null. */
  private perpetualChecker(from: number, to: number): Color | null {
    const allChecks = [true, true];
    for (let p = from + 1; p <= to; p++) if (!this.checked[p]) allChecks[this.moverOf(p)] = false;
    if (allChecks[0] === allChecks[1]) return null;
    return allChecks[0] ? 0 : 1;
  }

  private noMovesOutcome(): Outcome {
    const loser = this.position.side;
    const winner = (loser ^ 1) as Color;
    if (this.position.inCheck()) return { status: 'checkmate', winner };
    return { status: 'stalemate', winner: this.ruleset === 'jsa' ? winner : null };
  }

  /** Plays a move if legal in this position and history; returns the outcome after it. */
  play(m: Move): Result<Outcome, MoveRejection> {
    if (this.current.status !== 'ongoing') return err('game_over');
    const pos = this.position;
    const illegal = moveIllegality(pos, m);
    if (illegal) return err(illegal);
    const mover = pos.side;
    pos.makeMove(m);
    this.moves.push(m);
    this.record(pos.key(), pos.inCheck());
    const ply = this.moves.length;
    const plies = this.seen.get(pos.key()) as number[];
    if (plies.length >= REPETITIONS_FOR_SENNICHITE) {
      const checker = this.perpetualChecker(plies[0] as number, ply);
      if (checker === null) this.current = { status: 'sennichite' };
      else if (this.ruleset === 'default' && checker === mover) {
        this.unrecord();
        this.moves.pop();
        pos.unmakeMove(m);
        return err('perpetual_check');
      } else this.current = { status: 'perpetual_check', winner: (checker ^ 1) as Color };
    } else if (!hasLegalMove(pos)) this.current = this.noMovesOutcome();
    return ok(this.current);
  }

  playUsi(text: string): Result<Outcome, MoveRejection> {
    const m = parseUsi(text);
    return m < 0 ? err('malformed_usi') : this.play(m);
  }

  /** The side to move declares impasse: it wins if the declaration is valid, else loses. */
  declareImpasse(): Result<Outcome, MoveRejection> {
    if (this.current.status !== 'ongoing') return err('game_over');
    const declaration = assessImpasse(this.position);
    const side = this.position.side;
    this.current = { status: 'impasse', winner: declaration.valid ? side : ((side ^ 1) as Color), declaration };
    return ok(this.current);
  }
}
