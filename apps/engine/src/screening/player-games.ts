/**
 * A rated game's players as fair play reads them: each player's moves with the engine's
 * verdict before and after, the time taken (from the recorded receive times), whether it was
 * made in byoyomi, and the blur its client reported. Pure: events and evaluations in.
 */
import type { EngineScore, PlayerGame, PlayerMove, Speed } from '@shogi/fairplay';
import type { GameEvent, MoveSubmitted } from '@shogi/game';
import { categoryOf, estimatedSeconds } from '@shogi/ratings';
import type { Ruleset } from '@shogi/rules';
import type { UsiScore } from '@shogi/usi';

/** The screening's verdict on one position: its score from the side to move and the engine's first choices. */
export interface ScreenedPosition {
  readonly score: UsiScore;
  /** best first, up to three: each line's first move and its score from the side to move */
  readonly lines: readonly { readonly move: string; readonly score: UsiScore }[];
}

export interface RatedGameFacts {
  readonly initialSfen: string;
  readonly ruleset: Ruleset;
  /** the final line of accepted moves (taken-back moves left out) */
  readonly moves: readonly string[];
  readonly sente: string;
  readonly gote: string;
  readonly speed: Speed;
  readonly clockSeconds: number | null;
  readonly winner: 'sente' | 'gote' | null;
  readonly endedAt: string;
  /** per move of `moves` */
  readonly timing: readonly { readonly timeMs: number | null; readonly inByoyomi: boolean; readonly blur: boolean }[];
}

/** The rated, ended game's facts; null for a game that is not rated, not ended, or has no category. */
export function ratedGameFacts(events: readonly GameEvent[]): RatedGameFacts | null {
  const [first] = events;
  if (first?.type !== 'GameCreated' || !first.data.rated) return null;
  const created = first.data;
  const category = categoryOf(created.timeControl);
  if (category === null) return null;
  const timed = created.timeControl.kind === 'byoyomi' || created.timeControl.kind === 'fischer';
  const submissions = new Map<number, MoveSubmitted['data']>();
  const moves: string[] = [];
  const timing: { timeMs: number | null; inByoyomi: boolean; blur: boolean }[] = [];
  let turnStart = Date.parse(created.createdAt);
  let seq = 0;
  let ended: { winner: 'sente' | 'gote' | null; at: string } | null = null;
  for (const e of events) {
    seq++;
    if (e.type === 'MoveSubmitted') submissions.set(seq, e.data);
    else if (e.type === 'MoveAccepted') {
      const s = submissions.get(e.data.submittedSeq);
      const receivedAt = s === undefined ? turnStart : Date.parse(s.receivedAt);
      const mover = s?.color ?? (moves.length % 2 === 0 ? 'sente' : 'gote');
      const clock = e.data.clock;
      moves.push(e.data.usi);
      timing.push({
        timeMs: timed ? Math.max(0, receivedAt - turnStart) : null,
        inByoyomi: created.timeControl.kind === 'byoyomi' && clock !== undefined && clock[mover].mainMs === 0,
        blur: s?.blur === true,
      });
      turnStart = clock === undefined ? receivedAt : Date.parse(clock.movedAt);
    } else if (e.type === 'TakebackAccepted') {
      moves.length = e.data.ply;
      timing.length = e.data.ply;
    } else if (e.type === 'GameEnded') ended = { winner: e.data.winner, at: e.data.at };
  }
  if (ended === null) return null;
  return {
    initialSfen: created.initialSfen,
    ruleset: created.ruleset,
    moves,
    sente: created.sente.id,
    gote: created.gote.id,
    speed: category,
    clockSeconds: estimatedSeconds(created.timeControl),
    winner: ended.winner,
    endedAt: ended.at,
    timing,
  };
}

const engineScore = (score: UsiScore): EngineScore => {
  if (score.kind === 'cp') return { kind: 'cp', value: score.value };
  // mated now (`mate 0`) and a mate given by its sign only are a mate all the same
  const plies = Math.max(1, Math.abs(score.plies ?? 1));
  return { kind: 'mate', value: score.winning ? plies : -plies };
};

/**
 * The side's moves, the game's `positions[i]` being the screening of the position after i
 * moves (from the side to move), with `moves.length + 1` of them; the side to move at ply 0
 * is `firstSide`.
 */
export function playerGameOf(
  facts: RatedGameFacts,
  positions: readonly ScreenedPosition[],
  side: 'sente' | 'gote',
  firstSide: 'sente' | 'gote',
): PlayerGame {
  const moves: PlayerMove[] = [];
  facts.moves.forEach((usi, ply) => {
    const mover = ply % 2 === 0 ? firstSide : firstSide === 'sente' ? 'gote' : 'sente';
    const before = positions[ply];
    const after = positions[ply + 1];
    const timing = facts.timing[ply];
    if (mover !== side || before === undefined || after === undefined || timing === undefined) return;
    const line = before.lines.find((l) => l.move === usi);
    moves.push({
      usi,
      engineChoices: before.lines.map((l) => l.move),
      before: engineScore(before.score),
      after: engineScore(after.score),
      ...(line === undefined ? {} : { playedLine: engineScore(line.score) }),
      timeMs: timing.timeMs,
      inByoyomi: timing.inByoyomi,
      blur: timing.blur,
    });
  });
  return { speed: facts.speed, clockSeconds: facts.clockSeconds, won: facts.winner === side, moves };
}
