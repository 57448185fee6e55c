import { describe, expect, test } from 'vitest';
import { cachedBotTitles, titled, withPlayerTitles } from '../src/domain/bot-titles.js';

/** A look-up over a fixed set of bots that records what it is asked. */
function lookup(bots: Set<string>) {
  const asked: string[][] = [];
  const fn = async (ids: readonly string[]) => {
    asked.push([...ids]);
    return ids.filter((id) => bots.has(id));
  };
  return { fn, asked };
}

describe('cachedBotTitles', () => {
  test('asks once for all the unknown ids of a list, then keeps a bot for good', async () => {
    const { fn, asked } = lookup(new Set(['robo']));
    let now = 0;
    const titles = cachedBotTitles(fn, { negativeMs: 1000, now: () => now });
    expect([...(await titles.bots(['robo', 'hanako', 'robo']))]).toEqual(['robo']);
    expect(asked).toEqual([['robo', 'hanako']]);
    now = 10_000;
    expect([...(await titles.bots(['robo']))]).toEqual(['robo']);
    expect(asked).toHaveLength(1);
  });

  test('believes "not a bot" only for a while: an upgrade shows once it has passed', async () => {
    const bots = new Set<string>();
    const { fn, asked } = lookup(bots);
    let now = 0;
    const titles = cachedBotTitles(fn, { negativeMs: 1000, now: () => now });
    expect((await titles.bots(['taro'])).size).toBe(0);
    bots.add('taro');
    now = 999;
    expect((await titles.bots(['taro'])).size).toBe(0);
    now = 1000;
    expect([...(await titles.bots(['taro']))]).toEqual(['taro']);
    expect(asked).toEqual([['taro'], ['taro']]);
  });

  test('forgets the oldest "not a bot" answers past its limit', async () => {
    const { fn, asked } = lookup(new Set());
    const titles = cachedBotTitles(fn, { negativeLimit: 2, now: () => 0 });
    await titles.bots(['a', 'b', 'c']);
    await titles.bots(['a', 'c']);
    expect(asked).toEqual([['a', 'b', 'c'], ['a']]);
  });

  test('a failed look-up shows no title and is not kept', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const titles = cachedBotTitles(
      async (ids) => {
        if (fail) throw new Error('down');
        return [...ids];
      },
      { onError: (err) => errors.push(err) },
    );
    expect((await titles.bots(['robo'])).size).toBe(0);
    expect(errors).toHaveLength(1);
    fail = false;
    expect([...(await titles.bots(['robo']))]).toEqual(['robo']);
  });
});

describe('titled players', () => {
  test("a bot gets title 'BOT'; anyone else keeps the exact shape, with no title key", async () => {
    const bots = new Set(['robo']);
    expect(titled({ id: 'robo', name: 'Robo' }, bots)).toEqual({ id: 'robo', name: 'Robo', title: 'BOT' });
    expect(Object.keys(titled({ id: 'taro', name: 'Taro' }, bots))).toEqual(['id', 'name']);
    const titles = { bots: async (ids: readonly string[]) => new Set(ids.filter((id) => bots.has(id))) };
    const view = { id: 'g', players: { sente: { id: 'taro', name: 'Taro' }, gote: { id: 'robo', name: 'Robo' } } };
    expect((await withPlayerTitles(titles, view)).players).toEqual({
      sente: { id: 'taro', name: 'Taro' },
      gote: { id: 'robo', name: 'Robo', title: 'BOT' },
    });
    const people = { ...view, players: { sente: view.players.sente, gote: { id: 'ken', name: 'Ken' } } };
    expect(await withPlayerTitles(titles, people)).toBe(people);
  });
});
