/**
 * The evaluation graph: sente's winning chances after each move, above the line for sente
 * and below it for gote, the mistakes marked as dots, the position shown as a vertical line.
 * A click on the graph shows the position at that move.
 */
import type { AnalysisPly } from '@shogi/protocol';
import { s } from '../../dom.js';
import { winningChance } from './eval.js';

const W = 600;
const H = 120;
const MID = H / 2;

export function evalGraph(plies: readonly AnalysisPly[], shown: number | null, pick: (ply: number) => void): Element {
  const last = Math.max(1, plies.at(-1)?.ply ?? 1);
  const x = (ply: number) => (ply / last) * W;
  const y = (p: AnalysisPly) => MID - winningChance(p.score) * (MID - 4);
  const points = plies.map((p) => `${x(p.ply).toFixed(1)},${y(p).toFixed(1)}`);
  const area =
    plies.length > 0
      ? `${x(plies[0]?.ply ?? 0).toFixed(1)},${MID} ${points.join(' ')} ${x(plies.at(-1)?.ply ?? 0).toFixed(1)},${MID}`
      : '';
  const graph = s(
    'svg',
    {
      class: 'eval-graph',
      viewBox: `0 0 ${W} ${H}`,
      preserveAspectRatio: 'none',
      role: 'img',
      'aria-label': 'Evaluation graph: sente ahead above the line, gote below; click a move to show it',
    },
    s('rect', { x: 0, y: 0, width: W, height: MID, class: 'eval-sente' }),
    s('rect', { x: 0, y: MID, width: W, height: MID, class: 'eval-gote' }),
    s('polygon', { points: area, class: 'eval-area' }),
    s('polyline', { points: points.join(' '), class: 'eval-line' }),
    s('line', { x1: 0, y1: MID, x2: W, y2: MID, class: 'eval-mid' }),
    ...plies
      .filter((p) => p.judgment)
      .map((p) => s('circle', { cx: x(p.ply), cy: y(p), r: 4, class: `eval-dot ${p.judgment}` })),
    ...(shown === null ? [] : [s('line', { x1: x(shown), y1: 0, x2: x(shown), y2: H, class: 'eval-cursor' })]),
  );
  graph.addEventListener('click', (event) => {
    const box = graph.getBoundingClientRect();
    const ratio = ((event as MouseEvent).clientX - box.left) / box.width;
    pick(Math.max(0, Math.min(last, Math.round(ratio * last))));
  });
  return graph;
}
