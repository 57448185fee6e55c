/**
 * The byoyomi countdown a player hears: a beep each second of a period's last ten, higher
 * for the last three. Pure: the page's ticker asks it with the clock face of the player's own
 * running clock, and beeps when the second changes.
 */
import type { ClockFace } from '../../shogi/clock.js';
import type { SoundName } from '../sounds.js';

/** Seconds of a byoyomi period that beep. */
export const COUNTDOWN_SECONDS = 10;

/** The countdown's second (10 … 1) the face shows, or null outside a period's last seconds. */
export function countdownSecond(face: ClockFace): number | null {
  if (!face.byoyomi || face.ms <= 0) return null;
  const second = Math.ceil(face.ms / 1000);
  return second <= COUNTDOWN_SECONDS ? second : null;
}

export const countdownSound = (second: number): SoundName => (second <= 3 ? 'last-beep' : 'beep');
