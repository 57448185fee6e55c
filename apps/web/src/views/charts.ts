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

export interface Series {
  readonly name: string;
  readonly color: string;
  readonly points: readonly { x: number; y: number }[];
}

/** Lines over a shared x axis (rating history, score against expectation); labels at both ends of each axis. */
export function lineChart(
  title: string,
  series: readonly Series[],
  format: { x: (v: number) => string; y: (v: number) => string },
): Element {
  const width = 520;
  const height = 220;
  const pad = { left: 46, right: 10, top: 10, bottom: 34 };
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const sx = (x: number) => pad.left + ((x - x0) / (x1 - x0 || 1)) * (width - pad.left - pad.right);
  const sy = (y: number) => height - pad.bottom - ((y - y0) / (y1 - y0 || 1)) * (height - pad.top - pad.bottom);
  const parts: Element[] = [s('title', {}, title)];
  parts.push(
    s('line', {
      x1: pad.left,
      y1: height - pad.bottom,
      x2: width - pad.right,
      y2: height - pad.bottom,
      stroke: '#999',
    }),
    s('line', { x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom, stroke: '#999' }),
  );
  if (all.length > 0) {
    parts.push(
      s('text', { x: 2, y: sy(y1) + 4, class: 'chart-label' }, format.y(y1)),
      s('text', { x: 2, y: sy(y0) + 4, class: 'chart-label' }, format.y(y0)),
      s('text', { x: pad.left, y: height - 18, class: 'chart-label' }, format.x(x0)),
      s('text', { x: width - pad.right, y: height - 18, class: 'chart-label', 'text-anchor': 'end' }, format.x(x1)),
    );
  }
  series.forEach((line, i) => {
    const d = line.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    if (d !== '') parts.push(s('path', { d, fill: 'none', stroke: line.color, 'stroke-width': 2 }));
    for (const p of line.points)
      parts.push(
        s(
          'circle',
          { cx: sx(p.x), cy: sy(p.y), r: 2.5, fill: line.color },
          s('title', {}, `${line.name}: ${format.x(p.x)} → ${format.y(p.y)}`),
        ),
      );
    parts.push(s('rect', { x: pad.left + i * 150, y: height - 11, width: 10, height: 10, fill: line.color }));
    parts.push(s('text', { x: pad.left + 14 + i * 150, y: height - 2, class: 'chart-label' }, line.name));
  });
  return s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, class: 'chart' }, ...parts);
}
