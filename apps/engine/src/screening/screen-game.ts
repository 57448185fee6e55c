/**
 * The screening job's processor: an ended rated game's every position searched at the
 * screening depth (three lines, for the engine's first three choices), then each of its
 * players who is not a bot assessed (signals, flags, the rule table's verdict), stored, and the
 * account's aggregate recomputed. A game not rated, not ended or with no category is left alone.
 */
import { assessGame, flagsOf, signalsOf } from '@shogi/fairplay';
import type { GameEvent } from '@shogi/game';
import { sideOfSfen } from '@shogi/rules';
import type { NewAssessment } from '@shogi/store';
import type { PositionSpec } from '@shogi/usi';
import { UnrecoverableError } from 'bullmq';
import { replayPosition } from '../replay.js';
import { playerGameOf, ratedGameFacts, type ScreenedPosition } from './player-games.js';

export type ScreenPosition = (position: PositionSpec, depth: number, signal?: AbortSignal) => Promise<ScreenedPosition>;

export interface ScreeningPorts {
  readonly depth: number;
  readEvents(gameId: string): Promise<readonly GameEvent[]>;
  /** the players among these who are bot accounts (never assessed) */
  bots(playerIds: readonly string[]): Promise<ReadonlySet<string>>;
  save(assessments: readonly NewAssessment[]): Promise<void>;
  /** recomputes the account's aggregate from its assessments */
  refresh(playerId: string): Promise<void>;
  readonly screen: ScreenPosition;
  now(): Date;
}

export type ScreeningOutcome =
  | { readonly kind: 'assessed'; readonly players: number; readonly positions: number }
  | { readonly kind: 'skipped'; readonly reason: string };

export async function screenGame(
  gameId: string,
  ports: ScreeningPorts,
  signal?: AbortSignal,
): Promise<ScreeningOutcome> {
  const facts = ratedGameFacts(await ports.readEvents(gameId));
  if (facts === null) return { kind: 'skipped', reason: 'not an ended rated game' };
  const bots = await ports.bots([facts.sente, facts.gote]);
  const sides = (['sente', 'gote'] as const).filter((side) => !bots.has(facts[side]) && facts.sente !== facts.gote);
  if (sides.length === 0) return { kind: 'skipped', reason: 'no player to assess' };
  if (replayPosition(facts.initialSfen, facts.ruleset, facts.moves) === null)
    throw new UnrecoverableError('the recorded moves do not replay from the start position');
  const positions: ScreenedPosition[] = [];
  for (let ply = 0; ply <= facts.moves.length; ply++) {
    if (signal?.aborted) throw new Error('the engine role stopped during the screening');
    positions.push(
      await ports.screen({ sfen: facts.initialSfen, moves: facts.moves.slice(0, ply) }, ports.depth, signal),
    );
  }
  const firstSide = sideOfSfen(facts.initialSfen);
  const now = ports.now();
  const assessments: NewAssessment[] = sides.map((side) => {
    const game = playerGameOf(facts, positions, side, firstSide);
    const signals = signalsOf(game);
    const flags = flagsOf(signals, game);
    const { verdict, why } = assessGame(flags, game.won);
    return {
      gameId,
      playerId: facts[side],
      color: side,
      verdict,
      rule: why,
      speed: facts.speed,
      signals,
      flags,
      depth: ports.depth,
      endedAt: new Date(facts.endedAt),
      now,
    };
  });
  await ports.save(assessments);
  for (const a of assessments) await ports.refresh(a.playerId);
  return { kind: 'assessed', players: assessments.length, positions: positions.length };
}
