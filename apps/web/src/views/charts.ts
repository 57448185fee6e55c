/**
 * Inline SVG charts, no library: stacked bars of sente / gote / draw shares, and a
 * histogram. Each chart carries a text title and description for screen readers.
 */
import { s } from '../dom.js';

export interface Shares {
  readonly label: string;
  readonly games: number;
  readonly sentePct: number;
  readonly gotePct: number;
  readonly drawPct: number;
}

const COLORS = { sente: '#2b2b2b', gote: '#c9a66b', draw: '#8aa0b4' };

/** One bar per row, split into sente wins, gote wins and draws (percent of decided games). */
export function sharesChart(title: string, rows: readonly Shares[]): Element {
  const rowH = 26;
  const labelW = 130;
  const width = 520;
  const barW = width - labelW - 60;
  const height = rows.length * rowH + 30;
  const parts: Element[] = [s('title', {}, title)];
  rows.forEach((r, i) => {
    const y = i * rowH + 4;
    parts.push(s('text', { x: 0, y: y + 15, class: 'chart-label' }, r.label));
    let x = labelW;
    for (const [key, pct] of [
      ['sente', r.sentePct],
      ['gote', r.gotePct],
      ['draw', r.drawPct],
    ] as const) {
      const w = (barW * pct) / 100;
      if (w > 0)
        parts.push(
          s(
            'rect',
            { x, y, width: w, height: rowH - 8, fill: COLORS[key] },
            s('title', {}, `${r.label}: ${key} ${pct.toFixed(1)} %`),
          ),
        );
      x += w;
    }
    parts.push(s('text', { x: labelW + barW + 6, y: y + 15, class: 'chart-label' }, `${r.games}`));
  });
  const legendY = rows.length * rowH + 20;
  let lx = labelW;
  for (const [key, color] of Object.entries(COLORS)) {
    parts.push(s('rect', { x: lx, y: legendY - 9, width: 10, height: 10, fill: color }));
    parts.push(s('text', { x: lx + 14, y: legendY, class: 'chart-label' }, key));
    lx += 70;
  }
  return s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, class: 'chart' }, ...parts);
}

/** Bars of counts by bucket (game lengths). */
export function histogram(title: string, buckets: readonly { label: string; value: number }[]): Element {
  const width = 520;
  const height = 180;
  const max = Math.max(1, ...buckets.map((b) => b.value));
  const bw = (width - 20) / Math.max(1, buckets.length);
  const parts: Element[] = [s('title', {}, title)];
  buckets.forEach((b, i) => {
    const bh = ((height - 40) * b.value) / max;
    const x = 10 + i * bw;
    parts.push(
      s(
        'rect',
        { x: x + 1, y: height - 20 - bh, width: Math.max(1, bw - 2), height: bh, fill: COLORS.gote },
        s('title', {}, `${b.label}: ${b.value}`),
      ),
    );
    if (buckets.length <= 12 || i % Math.ceil(buckets.length / 12) === 0)
      parts.push(s('text', { x, y: height - 5, class: 'chart-label small' }, b.label));
  });
  return s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, class: 'chart' }, ...parts);
}
