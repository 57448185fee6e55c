import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LineSplitter, type SplitLine } from '../src/index.js';

const texts = (out: SplitLine[]): string[] => out.map((l) => (l.kind === 'line' ? l.text : `<overflow ${l.length}>`));

describe('LineSplitter', () => {
  test('LF and CR LF end lines; a partial line waits for the rest; end() flushes it', () => {
    const s = new LineSplitter(100);
    expect(texts(s.push('usiok\r\nread'))).toEqual(['usiok']);
    expect(texts(s.push('yok\n\nbest'))).toEqual(['readyok', '']);
    expect(texts(s.end())).toEqual(['best']);
    expect(s.end()).toEqual([]);
  });

  test('a line over the bound is dropped and reported once it ends; the next line is read as usual', () => {
    const s = new LineSplitter(8);
    expect(texts(s.push('12345678\n'))).toEqual(['12345678']);
    // one character past the bound is held back: it may be the CR of a CR LF
    expect(texts(s.push('123456789'))).toEqual([]);
    expect(s.overflowing).toBe(false);
    expect(texts(s.push('0'.repeat(1000)))).toEqual([]);
    expect(s.overflowing).toBe(true);
    expect(s.buffered).toBe(0);
    expect(texts(s.push('\nok\n'))).toEqual(['<overflow 1009>', 'ok']);
    expect(s.overflowing).toBe(false);
  });

  test('a line at the bound fits even when it ends with CR LF', () => {
    const s = new LineSplitter(4);
    expect(texts(s.push('abcd\r'))).toEqual([]);
    expect(texts(s.push('\nabcde\r\n'))).toEqual(['abcd', '<overflow 6>']);
  });

  test('a bound must be a positive integer', () => {
    expect(() => new LineSplitter(0)).toThrow(RangeError);
  });

  test('however the text is cut into chunks, the lines are those of the whole, and the buffer stays bounded', () => {
    const line = fc.string({ maxLength: 30 }).filter((t) => !/[\r\n]/.test(t));
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 10 }),
        fc.array(fc.nat({ max: 400 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        (lines, cuts, max) => {
          const whole = lines.map((l) => `${l}\n`).join('');
          const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
          const s = new LineSplitter(max);
          const out: SplitLine[] = [];
          let from = 0;
          for (const p of [...points, whole.length]) {
            out.push(...s.push(whole.slice(from, p)));
            expect(s.buffered).toBeLessThanOrEqual(max + 1);
            from = p;
          }
          expect(texts(out)).toEqual(lines.map((l) => (l.length > max ? `<overflow ${l.length}>` : l)));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
