import { CHAT_TEXT_MAX, type ChatLineWire, type WireEvent } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { ApiFailure } from '../src/api.js';
import {
  CHAT_MAX,
  chatSeatOf,
  inTimeOrder,
  mergeLines,
  systemLines,
  visibleLines,
} from '../src/views/game/chat-lines.js';
import { chatFailureSentence } from '../src/words/errors.js';

const line = (username: string, text: string, at: string, playerId?: string): ChatLineWire => ({
  room: 'player',
  username,
  text,
  at,
  ...(playerId === undefined ? {} : { playerId }),
});
const event = (type: string, payload: Record<string, unknown> = {}): WireEvent =>
  ({ seq: 1, type, payload, at: '' }) as unknown as WireEvent;

describe('the chat panel, without the DOM', () => {
  test("the input's limit is the server's", () => {
    expect(CHAT_MAX).toBe(CHAT_TEXT_MAX);
  });

  test('a line that comes both in the history and live is kept once, in the order written', () => {
    const a = line('ann', 'hi', '2026-01-01T00:00:01.000Z');
    const b = line('ben', 'hello', '2026-01-01T00:00:02.000Z');
    const c = line('ann', 'gl', '2026-01-01T00:00:03.000Z');
    expect(mergeLines([c, a], [a, b, c])).toEqual([a, b, c]);
    // the same words again later are another line
    const again = line('ann', 'hi', '2026-01-01T00:00:04.000Z');
    expect(mergeLines([a], [again])).toEqual([a, again]);
  });

  test("muting hides the opponent's lines, never the page's own nor the player's", () => {
    const mine = { kind: 'person', line: line('ann', 'hi', '1', 'p-ann') } as const;
    const theirs = { kind: 'person', line: line('ben', 'gg', '2', 'p-ben') } as const;
    const system = { kind: 'system', text: 'Takeback accepted.', room: 'player', at: '3' } as const;
    expect(visibleLines([mine, theirs, system], 'p-ben')).toEqual([mine, system]);
    expect(visibleLines([mine, theirs, system], null)).toEqual([mine, theirs, system]);
    expect(inTimeOrder([system, theirs, mine])).toEqual([mine, theirs, system]);
  });

  test.each([
    [{ player: true, ended: false, signedIn: true }, ['player'], 'player'],
    [{ player: true, ended: true, signedIn: true }, ['player', 'spectator'], 'player'],
    [{ player: false, ended: false, signedIn: true }, ['spectator'], 'spectator'],
    [{ player: false, ended: true, signedIn: false }, ['spectator'], null],
  ] as const)('the rooms of %j: %j, writing in %s', (seat, rooms, writeIn) => {
    const got = chatSeatOf(seat, 'p-ben');
    expect(got.rooms).toEqual(rooms);
    expect(got.writeIn).toBe(writeIn);
    expect(got.opponentId).toBe(seat.player ? 'p-ben' : null);
  });

  test("the page's own lines: takebacks and the result", () => {
    const names = { sente: 'ann', gote: 'ben' };
    expect(
      systemLines(
        [
          event('MoveAccepted'),
          event('TakebackProposed', { color: 'gote' }),
          event('TakebackDeclined'),
          event('TakebackAccepted'),
          event('GameEnded'),
        ],
        names,
        { winner: 'sente', reason: 'resignation' },
      ),
    ).toEqual([
      'ben proposes a takeback.',
      'Takeback declined.',
      'Takeback accepted.',
      '☗ Sente (ann) wins by resignation.',
    ]);
  });

  test('the rate limit reads as a sentence for the chat', () => {
    expect(chatFailureSentence(new ApiFailure(429, { code: 'RATE_LIMITED', message: '' }))).toBe(
      'You are writing too fast: wait a few seconds, then send your line again.',
    );
    expect(chatFailureSentence(new ApiFailure(403, { code: 'SPECTATOR_ROOM_CLOSED', message: '' }))).toBe(
      "The spectators' chat opens to the players when the game ends.",
    );
  });
});
