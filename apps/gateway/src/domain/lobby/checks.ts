/** What the lobby refuses before it reads or writes anything. */
import { validateTimeControl } from '@shogi/game';
import type { TimeControl } from '@shogi/protocol';
import { parseSfen, START_SFEN, toSfen } from '@shogi/rules';
import { ApiError } from '../api-error.js';
import type { Player } from '../player.js';
import type { StoredChallenge } from './ports.js';

/** A seek or challenge's clock: sensible, and a real clock when rated. */
export function checkTerms(timeControl: TimeControl, rated: boolean): void {
  if (rated && timeControl.kind === 'unlimited')
    throw new ApiError('INVALID_TIME_CONTROL', 'a rated game needs a clock');
  const checked = validateTimeControl(timeControl);
  if (!checked.ok) throw new ApiError('INVALID_TIME_CONTROL', checked.error.message);
}

/** board, side to move and hands: the move number of an SFEN does not change the position */
const positionOf = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');

/**
 * A challenge's custom initial position, as the game will be created from it (normalized), or
 * null for none: the standard start is none. The game refuses the same at its creation
 * (@shogi/game's decide); refused here, the challenge is never sent rather than failing when
 * it is accepted.
 */
export function checkSetup(setup: {
  readonly sfen?: string | undefined;
  readonly handicap?: string | undefined;
  readonly rated: boolean;
}): string | null {
  if (setup.sfen === undefined) return null;
  if (setup.handicap !== undefined) throw new ApiError('INVALID_SETUP');
  const parsed = parseSfen(setup.sfen);
  if (!parsed.ok) throw new ApiError('INVALID_SFEN', parsed.error.message);
  const sfen = toSfen(parsed.value);
  if (positionOf(sfen) === positionOf(START_SFEN)) return null;
  // a set-up position may decide the game before it starts: never rated (decide.ts)
  if (setup.rated) throw new ApiError('RATED_NEEDS_STANDARD_START');
  return sfen;
}

/** Only the parties see a challenge; only `who` may answer it. */
export function answerable(
  row: StoredChallenge | undefined,
  player: Player,
  who: 'opponent' | 'challenger',
): asserts row is StoredChallenge {
  if (!row || (row.challenger_id !== player.id && row.opponent_id !== player.id))
    throw new ApiError('CHALLENGE_NOT_FOUND');
  if ((who === 'opponent' ? row.opponent_id : row.challenger_id) !== player.id)
    throw new ApiError('NOT_YOUR_CHALLENGE');
}
