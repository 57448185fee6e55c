/**
 * The game routes' bot check, kept per player: the account is read once, whatever the answer,
 * and read again only after more players than the limit have pushed it out.
 */
import { describe, expect, test } from 'vitest';
import { seatedBots } from '../src/lishogi/seated-bots.js';

function reader(bots: readonly string[]) {
  const reads: string[] = [];
  const read = async (playerId: string) => {
    reads.push(playerId);
    return bots.includes(playerId);
  };
  return { read, reads };
}

describe('seatedBots', () => {
  test('each player is read once, a bot and a person alike', async () => {
    const { read, reads } = reader(['robo']);
    const isBot = seatedBots(read);
    for (let move = 0; move < 3; move++) {
      expect(await isBot('robo')).toBe(true);
      expect(await isBot('hanako')).toBe(false);
    }
    expect(reads).toEqual(['robo', 'hanako']);
  });

  test('past the limit the oldest player is dropped and read again on its next move', async () => {
    const { read, reads } = reader([]);
    const isBot = seatedBots(read, 2);
    await isBot('a');
    await isBot('b');
    await isBot('c');
    await isBot('b');
    await isBot('a');
    expect(reads).toEqual(['a', 'b', 'c', 'a']);
  });

  test('a failed read is not kept', async () => {
    let fail = true;
    const isBot = seatedBots(async () => {
      if (fail) throw new Error('the pool is gone');
      return true;
    });
    await expect(isBot('robo')).rejects.toThrow('the pool is gone');
    fail = false;
    expect(await isBot('robo')).toBe(true);
  });
});
