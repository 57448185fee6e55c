import { describe, expect, test } from 'vitest';
import { illFormedAt, parseJsonBody } from '../src/domain/json-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseJsonBody', () => {
  test('parses JSON, keeping surrogate pairs and a leading BOM out of the way', () => {
    expect(parseJsonBody(bytes('{"name":"\\ud83d\\ude00 棋"}'))).toEqual({ ok: true, value: { name: '😀 棋' } });
    expect(parseJsonBody(bytes('\ufeff{"a":1}'))).toEqual({ ok: true, value: { a: 1 } });
  });

  test('refuses what would be changed on its way to the database', () => {
    expect(parseJsonBody(bytes('{"name":"a\\udc00"}'))).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(parseJsonBody(bytes('{"a\\ud800":1}'))).toMatchObject({ ok: false, detail: /^body\/a.* holds a lone/ });
    expect(parseJsonBody(Uint8Array.from([0x22, 0xc3, 0x28, 0x22]))).toEqual({
      ok: false,
      code: 'MALFORMED_JSON',
      detail: 'the body is not UTF-8 text',
    });
  });

  test('names each mistake', () => {
    expect(parseJsonBody(bytes(''))).toMatchObject({ code: 'MALFORMED_JSON', detail: /empty/ });
    expect(parseJsonBody(bytes('{"a":'))).toMatchObject({
      code: 'MALFORMED_JSON',
      detail: /^the body is not valid JSON: /,
    });
    expect(parseJsonBody(bytes('{"__proto__":{"x":1}}'))).toMatchObject({ code: 'BAD_REQUEST', detail: /__proto__/ });
  });
});

describe('illFormedAt', () => {
  test('gives the JSON pointer of the first ill-formed string', () => {
    expect(illFormedAt({ a: [1, 'ok', { 'b/c': '\ud800' }] })).toBe('/a/2/b~1c');
    expect(illFormedAt('\udfff')).toBe('');
    expect(illFormedAt({ a: ['fine'] })).toBeNull();
  });

  test('walks a body nested far deeper than the call stack allows', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(illFormedAt(deep)?.length).toBe(400_000);
  });
});
