/** Reads the shared reference data (../shared/fixtures, see its README for sources). */
import { readFileSync } from 'node:fs';

/** Set by vitest.config.ts (SHOGI_FIXTURES), with a trailing slash. */
export const FIXTURES = `${process.env.SHOGI_FIXTURES ?? '../shared/fixtures'}/`;

export const fixture = <T>(name: string): T => JSON.parse(readFileSync(`${FIXTURES}${name}`, 'utf8')) as T;

export interface PerftRow {
  sfen: string;
  depth: number;
  nodes: number;
  source: string;
}
export interface RuleCase {
  id: string;
  sfen: string;
  move: string;
  legal: boolean;
  reason: string;
}
export interface RepetitionCase {
  id: string;
  sfen: string;
  moves: string;
  expect: { sennichite_at_ply: number | null; perpetual_check_by: 'sente' | 'gote' | null };
  reason: string;
}
