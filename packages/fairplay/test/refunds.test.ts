/** Given a marked account's games, when refunds are made, then they follow lila's RatingRefund. */
import { describe, expect, it } from 'vitest';
import { pointsToRefund, refundsOf, type VictimGame } from '../src/index.js';

const now = new Date('2026-12-07T12:00:00Z');
const game = (over: Partial<VictimGame>): VictimGame => ({
  victimId: 'v1',
  category: 'blitz',
  ratingBefore: 1600,
  ratingDiff: -10,
  provisional: false,
  endedAt: '2026-12-06T12:00:00Z',
  ...over,
});

describe('who is refunded (lila makeRefunds; 7 days as issue 47)', () => {
  it("sums a victim's losses per category, keeping its top rating before them", () => {
    const refunds = refundsOf(
      [
        game({ ratingBefore: 1600, ratingDiff: -12 }),
        game({ ratingBefore: 1588, ratingDiff: -11 }),
        game({ category: 'rapid', ratingDiff: -5 }),
      ],
      now,
    );
    expect(refunds).toEqual([
      { victimId: 'v1', category: 'blitz', lost: 23, topRating: 1600 },
      { victimId: 'v1', category: 'rapid', lost: 5, topRating: 1600 },
    ]);
  });
  it('skips provisional victims, gains, and games older than 7 days', () => {
    expect(
      refundsOf([game({ provisional: true }), game({ ratingDiff: 8 }), game({ endedAt: '2026-11-30T11:59:59Z' })], now),
    ).toEqual([]);
    expect(refundsOf([game({ endedAt: '2026-11-30T12:00:00Z' })], now)).toHaveLength(1);
  });
});

describe('the points (lila pointsToRefund)', () => {
  const refund = { victimId: 'v1', category: 'blitz', lost: 40, topRating: 1600 };
  it('gives back what was lost while the victim stays below its top', () => {
    expect(pointsToRefund(refund, 1560, 1600)).toBe(40);
  });
  it('less half of what it has regained above top minus loss', () => {
    // regained: 40 + 1580 - 1600 = 20, so 40 - 10
    expect(pointsToRefund(refund, 1580, 1620)).toBe(30);
  });
  it('at most the highest rating less the current plus 20, or 100 when unknown, and never over 150', () => {
    expect(pointsToRefund({ ...refund, lost: 400, topRating: 2000 }, 1600, 1610)).toBe(30);
    expect(pointsToRefund({ ...refund, lost: 400, topRating: 2000 }, 1600, null)).toBe(100);
    expect(pointsToRefund({ ...refund, lost: 400, topRating: 2000 }, 1600, 2000)).toBe(150);
  });
});
