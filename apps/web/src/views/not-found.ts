/** The page for a path the client does not know: says so, and leads back. */
import { h } from '../dom.js';
import '../styles/not-found.css';

export function notFoundPage(root: HTMLElement, path: string): () => void {
  root.replaceChildren(
    h(
      'section',
      { class: 'not-found' },
      h('h1', {}, 'Page not found'),
      h('p', {}, 'Nothing lives at ', h('code', {}, path), '.'),
      h(
        'p',
        {},
        h('a', { href: '/', 'data-link': true }, 'Back to the lobby'),
        ' · ',
        h('a', { href: '/stats', 'data-link': true }, 'Statistics'),
      ),
    ),
  );
  return () => {};
}
