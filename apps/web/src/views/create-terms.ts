/**
 * The "Create a game" dialog's fields, read into the request they make: a seek (anyone), a
 * challenge (a friend by name) or a game against an engine level. Pure: no DOM, so every
 * refusal is checked in unit tests; the server checks again.
 */
import type { BotGameBody, CreateChallengeBody, CreateSeekBody } from '@shogi/protocol';
import { isHandicap } from '@shogi/rules';
import { type ClockFields, clockChoice } from '../shogi/clock-choice.js';
import type { Colour } from './bot-terms.js';

export type Opponent = 'anyone' | 'friend' | 'engine';

export interface CreateFields {
  readonly opponent: Opponent;
  /** a friend's name or player id */
  readonly friend: string;
  /** the engine bot of the level chosen */
  readonly engineId: string;
  readonly clock: ClockFields;
  readonly rated: boolean;
  readonly color: Colour;
  /** '' for an even game */
  readonly handicap: string;
}

export type CreateRequest =
  | { readonly ok: true; readonly kind: 'seek'; readonly body: CreateSeekBody }
  | { readonly ok: true; readonly kind: 'challenge'; readonly body: CreateChallengeBody }
  | { readonly ok: true; readonly kind: 'engine'; readonly botId: string; readonly body: BotGameBody }
  | { readonly ok: false; readonly error: string };

export function createRequest(f: CreateFields): CreateRequest {
  // games against the engine are never rated: the dialog greys the box out
  const rated = f.opponent !== 'engine' && f.rated;
  const choice = clockChoice(f.clock, rated);
  if (!choice.ok) return choice;
  const timeControl = choice.timeControl;
  const handicap = isHandicap(f.handicap) ? { handicap: f.handicap } : {};
  switch (f.opponent) {
    case 'anyone':
      return { ok: true, kind: 'seek', body: { timeControl, rated, color: f.color, ...handicap } };
    case 'friend': {
      const opponent = f.friend.trim();
      if (opponent === '') return { ok: false, error: "Enter your friend's name or player id." };
      return { ok: true, kind: 'challenge', body: { opponent, timeControl, rated, color: f.color, ...handicap } };
    }
    case 'engine':
      if (f.engineId === '') return { ok: false, error: 'No engine level runs on this server.' };
      return { ok: true, kind: 'engine', botId: f.engineId, body: { side: f.color, timeControl, ...handicap } };
  }
}
