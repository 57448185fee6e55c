/** A few DOM helpers: enough to build views without a framework. */
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;
export type Child = Node | string | null | undefined | false;

/** An element with attributes (`on*` functions become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** An SVG element (charts). */
export function s(tag: string, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): Element {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const c of children) el.append(c);
  return el;
}

/** Announces a short text to screen readers through the page's polite live region. */
export function announce(text: string): void {
  const region = document.getElementById('announcer');
  if (region) region.textContent = text;
}

/**
 * Scrolls `container` (a list with its own scroll bar) so that `item` shows, and nothing
 * else: `scrollIntoView` would also scroll the page, which on a phone hides the opponent's
 * clock and the top of the board on every move.
 */
export function scrollWithin(container: HTMLElement, item: Element | null): void {
  if (!item) return;
  const box = container.getBoundingClientRect();
  const it = item.getBoundingClientRect();
  if (it.top < box.top) container.scrollTop -= box.top - it.top;
  else if (it.bottom > box.top + container.clientHeight)
    container.scrollTop += it.bottom - (box.top + container.clientHeight);
}
