/** The `source` filter of the statistics routes (its own module: stats.ts and players.ts both take it). */
import { type Static, Type } from 'typebox';

/**
 * Which games a statistic counts (every statistics route takes it): played on this server
 * (the default), imported from records (POST /api/import, npm run import), or both.
 */
export const StatsSource = Type.String({
  enum: ['played', 'imported', 'all'],
  description: 'played (default): games played here; imported: imported records; all: both',
});
export type StatsSource = 'played' | 'imported' | 'all';
export const StatsSourceQuery = Type.Object({ source: Type.Optional(StatsSource) }, { additionalProperties: false });
export type StatsSourceQuery = Static<typeof StatsSourceQuery>;
