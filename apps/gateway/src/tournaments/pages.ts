/**
 * A tournament with a page of its standings: the body of `GET /api/tournament/:id?page=` and of
 * the live channel's `tournament` frames (one path for both).
 */
import { standingRows, tournamentRow } from '@shogi/store';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.js';
import { standingPlayer, tournamentView } from './views.js';

export const PER_PAGE = 10;
/** The last page asked for: `page` is at most this. */
export const MAX_PAGE = 2000;

export async function tournamentPage(reads: FastifyInstance['databases']['reads'], id: string, page: number) {
  const row = await tournamentRow(reads, id);
  if (row === undefined) throw new ApiError('TOURNAMENT_NOT_FOUND');
  const [players, podium] = await Promise.all([
    standingRows(reads, id, (page - 1) * PER_PAGE, PER_PAGE),
    row.status === 'finished' ? standingRows(reads, id, 0, 3) : Promise.resolve([]),
  ]);
  return {
    ...tournamentView(row, new Date()),
    standing: { page, players: players.map(standingPlayer) },
    ...(row.status === 'finished' ? { podium: podium.map(standingPlayer) } : {}),
  };
}
