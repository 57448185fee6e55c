/**
 * Inline SVG charts, no library: stacked bars of sente / gote / draw shares, a histogram
 * with a count axis, and lines. Each chart is drawn at the width it is shown at (`fitted`
 * measures its box and redraws when it changes), so one unit of the drawing is one CSS pixel
 * and the axis text keeps its size on a phone as on a desktop. Each carries a text title for
 * screen readers.
 */
import { h, s } from '../dom.js';
import { countTicks, labelEvery } from './chart-scale.js';

export interface Shares {
  readonly label: string;
  readonly games: number;
  readonly sentePct: number;
  readonly gotePct: number;
  readonly drawPct: number;
}

const COLORS = { sente: '#2b2b2b', gote: '#c9a66b', draw: '#8aa0b4' };
/** axis text, in CSS pixels (the drawing is never scaled) */
const FONT = 13;
/** width of a character of axis text, for laying labels out */
const CHAR_W = FONT * 0.6;

const svg = (title: string, width: number, height: number, parts: Element[]) =>
  s(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, class: 'chart' },
    s('title', {}, title),
    ...parts,
  );
const label = (x: number, y: number, text: string, anchor: 'start' | 'middle' | 'end' = 'start') =>
  s('text', { x, y, class: 'chart-label', 'text-anchor': anchor }, text);

/**
 * A box that draws its chart at its own width, and again when that changes (a phone turned,
 * a window resized). `draw` gets the width in CSS pixels.
 */
export function fitted(draw: (width: number) => Element): HTMLElement {
  const box = h('div', { class: 'chart-box' });
  let drawnAt = 0;
  new ResizeObserver(() => {
    const width = Math.floor(box.clientWidth);
    if (width <= 0 || width === drawnAt) return;
    drawnAt = width;
    box.replaceChildren(draw(width));
  }).observe(box);
  return box;
}

/** One bar per row, split into sente wins, gote wins and draws (percent of decided games). */
export function sharesChart(title: string, rows: readonly Shares[], width = 520): Element {
  const rowH = 28;
  const labelW = Math.min(150, Math.max(70, ...rows.map((r) => r.label.length * CHAR_W + 8)));
  const countW = 48;
  const barW = Math.max(60, width - labelW - countW);
  const height = rows.length * rowH + 34;
  const parts: Element[] = [];
  rows.forEach((r, i) => {
    const y = i * rowH + 4;
    parts.push(label(0, y + 15, r.label));
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
    parts.push(label(width - 2, y + 15, `${r.games}`, 'end'));
  });
  const legendY = rows.length * rowH + 24;
  let lx = labelW;
  for (const [key, color] of Object.entries(COLORS)) {
    parts.push(s('rect', { x: lx, y: legendY - 10, width: 11, height: 11, fill: color }));
    parts.push(label(lx + 15, legendY, key));
    lx += 72;
  }
  return svg(title, width, height, parts);
}

/**
 * Bars of counts by bucket (game lengths): a count axis on the left with round, even steps
 * and light grid lines, the buckets' lower bounds below, every k-th labelled evenly.
 */
export function histogram(
  title: string,
  buckets: readonly { label: string; value: number }[],
  width = 520,
  axis = { x: '', y: '' },
): Element {
  const height = 220;
  const ticks = countTicks(Math.max(0, ...buckets.map((b) => b.value)));
  const top = ticks.at(-1) ?? 1;
  // room for the tick labels, and for the axis title beside them when there is one
  const titleW = axis.y === '' ? 0 : FONT + 6;
  const pad = {
    left: titleW + Math.max(...ticks.map((t) => String(t).length)) * CHAR_W + 12,
    right: 8,
    top: 10,
    bottom: 40,
  };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const bw = plotW / Math.max(1, buckets.length);
  const y = (v: number) => pad.top + plotH - (plotH * v) / top;
  const parts: Element[] = [];
  for (const t of ticks) {
    parts.push(
      s('line', { x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t), stroke: t === 0 ? '#888' : '#e2ddd2' }),
      label(pad.left - 6, y(t) + 4, String(t), 'end'),
    );
  }
  const widest = Math.max(1, ...buckets.map((b) => b.label.length)) * CHAR_W + 10;
  const every = labelEvery(buckets.length, Math.floor(plotW / widest));
  buckets.forEach((b, i) => {
    const x = pad.left + i * bw;
    parts.push(
      s(
        'rect',
        { x: x + 1, y: y(b.value), width: Math.max(1, bw - 2), height: y(0) - y(b.value), fill: COLORS.gote },
        s('title', {}, `${b.label}: ${b.value}`),
      ),
    );
    if (i % every === 0) {
      parts.push(s('line', { x1: x, x2: x, y1: y(0), y2: y(0) + 4, stroke: '#888' }));
      parts.push(label(x, y(0) + 17, b.label, 'middle'));
    }
  });
  if (axis.x !== '') parts.push(label(pad.left + plotW / 2, height - 4, axis.x, 'middle'));
  if (axis.y !== '')
    parts.push(
      s(
        'text',
        { x: 0, y: 0, class: 'chart-label', transform: `translate(${FONT - 2} ${pad.top + plotH / 2}) rotate(-90)` },
        axis.y,
      ),
    );
  return svg(title, width, height, parts);
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
  width = 520,
): Element {
  const height = 230;
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  // a flat line (one rated game) gets a band around its value, so its two labels do not overprint
  const flat = Math.max(1, Math.abs(Math.min(...ys)) * 0.05);
  const [y0, y1] =
    Math.min(...ys) === Math.max(...ys)
      ? [Math.min(...ys) - flat, Math.max(...ys) + flat]
      : [Math.min(...ys), Math.max(...ys)];
  const yw = Math.max(format.y(y0).length, format.y(y1).length) * CHAR_W + 10;
  const pad = { left: yw, right: 12, top: 12, bottom: 44 };
  const sx = (x: number) => pad.left + ((x - x0) / (x1 - x0 || 1)) * (width - pad.left - pad.right);
  const sy = (y: number) => height - pad.bottom - ((y - y0) / (y1 - y0 || 1)) * (height - pad.top - pad.bottom);
  const parts: Element[] = [
    s('line', {
      x1: pad.left,
      y1: height - pad.bottom,
      x2: width - pad.right,
      y2: height - pad.bottom,
      stroke: '#999',
    }),
    s('line', { x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom, stroke: '#999' }),
  ];
  if (all.length > 0) {
    parts.push(
      label(pad.left - 5, sy(y1) + 4, format.y(y1), 'end'),
      label(pad.left - 5, sy(y0) + 4, format.y(y0), 'end'),
      label(pad.left, height - pad.bottom + 17, format.x(x0)),
    );
    if (format.x(x1) !== format.x(x0))
      parts.push(label(width - pad.right, height - pad.bottom + 17, format.x(x1), 'end'));
  }
  series.forEach((line, i) => {
    const d = line.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    if (d !== '') parts.push(s('path', { d, fill: 'none', stroke: line.color, 'stroke-width': 2 }));
    for (const p of line.points)
      parts.push(
        s(
          'circle',
          { cx: sx(p.x), cy: sy(p.y), r: 3, fill: line.color },
          s('title', {}, `${line.name}: ${format.x(p.x)} → ${format.y(p.y)}`),
        ),
      );
    const lx = pad.left + i * 170;
    parts.push(s('rect', { x: lx, y: height - 13, width: 11, height: 11, fill: line.color }));
    parts.push(label(lx + 15, height - 3, line.name));
  });
  return svg(title, width, height, parts);
}
