/**
 * A piece drawn as SVG: the pentagon in the theme's wood, the kanji (or the international
 * set's letter over a small kanji) in ink, promoted pieces in red. Gote's pieces point down:
 * the rotation is inside the drawing, so the element's own transform stays free for the move
 * animation. No image files: the shapes and the system's fonts.
 */
import { s } from '../dom.js';
import { isPromoted, PENTAGON, type PieceStyle, pieceGlyph, pieceScale } from '../shogi/pieces.js';

/**
 * `turned`: drawn pointing down (gote's pieces, or sente's on a flipped board); `gote`: whose
 * piece it is, which decides the king's glyph whichever way the board is turned.
 */
export function pieceSvg(type: number, turned: boolean, style: PieceStyle, gote = turned): Element {
  const scale = pieceScale(type);
  const promoted = isPromoted(type);
  const kanji = pieceGlyph(type, gote, 'kanji');
  const ink = `koma-ink${promoted ? ' promoted' : ''}`;
  const text =
    style === 'latin'
      ? [
          s('text', { x: 50, y: 60, class: `${ink} latin` }, pieceGlyph(type, gote, 'latin').replace('+', '')),
          promoted ? s('text', { x: 80, y: 40, class: `${ink} plus` }, '+') : null,
          s('text', { x: 50, y: 88, class: `${ink} hint` }, kanji),
        ]
      : [s('text', { x: 50, y: 70, class: `${ink} kanji` }, kanji)];
  return s(
    'svg',
    { class: 'koma', viewBox: '0 0 100 100', 'aria-hidden': 'true', focusable: 'false' },
    s(
      'g',
      { transform: `translate(50 50)${turned ? ' rotate(180)' : ''} scale(${scale}) translate(-50 -50)` },
      s('polygon', { class: 'koma-body', points: PENTAGON }),
      ...text.filter((t): t is Element => t !== null),
    ),
  );
}
