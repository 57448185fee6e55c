/** What the lobby refuses before it reads or writes anything. */
import { validateTimeControl } from '@shogi/game';
import type { TimeControl } from '@shogi/protocol';
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
