import { exportKif, parseCsa, parseKif } from '@shogi/rules';
import { describe, expect, it } from 'vitest';
import { attachment, encodeText, fileBaseName, recordFile } from '../src/domain/record-downloads.js';
import { cleanFileName } from '../src/domain/record-import.js';

const KIF =
  '手合割：平手\n先手：羽生 善治\n後手：Zoë\n開始日時：2024/01/02 10:00:00\n手数----指手---------消費時間--\n   1 ７六歩(77)\n';

describe('record downloads', () => {
  const parsed = parseKif(KIF);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const record = parsed.value;

  it('names the file by date, players and game, safe for file systems', () => {
    expect(fileBaseName(record, 'g-1')).toBe('20240102_羽生_善治_vs_Zoë_g-1');
    expect(fileBaseName({ ...record, players: { sente: 'a/b:"c"', gote: null }, info: {} }, 'x')).toBe('abc_vs_gote_x');
  });

  it('gives an ASCII file name and the UTF-8 one (RFC 6266)', () => {
    expect(attachment('game.kif')).toBe('attachment; filename="game.kif"');
    expect(attachment('将棋 (1).kif')).toBe(
      `attachment; filename="__ (1).kif"; filename*=UTF-8''%E5%B0%86%E6%A3%8B%20%281%29.kif`,
    );
  });

  it('writes .kif in Shift_JIS with CR LF, naming that encoding; .kifu in UTF-8', () => {
    const kif = recordFile(record, 'kif');
    const text = new TextDecoder('shift_jis').decode(kif.bytes);
    expect(kif.contentType).toBe('text/plain; charset=Shift_JIS');
    expect(text.startsWith('#KIF version=2.0 encoding=Shift_JIS\r\n')).toBe(true);
    expect(text).toContain('後手：Zo?');
    const kifu = recordFile(record, 'kifu');
    const exported = exportKif(record);
    if (!exported.ok) throw new Error('export');
    expect(kifu.bytes.toString('utf8')).toBe(exported.value.replace('encoding=UTF-8', 'encoding=utf-8'));
    expect(encodeText('a\nb\n', 'Shift_JIS').toString('latin1')).toBe('a\r\nb\r\n');
  });

  it("notes a marked player's side where each format keeps a comment, and the records still read", () => {
    const kif = new TextDecoder('shift_jis').decode(recordFile(record, 'kif', { engineMarked: ['gote'] }).bytes);
    expect(kif.split('\r\n').slice(0, 2)).toEqual([
      '#KIF version=2.0 encoding=Shift_JIS',
      '#fairplay: gote engine-marked',
    ]);
    const kifu = recordFile(record, 'kifu', { engineMarked: ['sente', 'gote'] }).bytes.toString('utf8');
    const back = parseKif(kifu);
    expect(back.ok && back.value.moves).toEqual(record.moves);
    const csa = recordFile(record, 'csa', { engineMarked: ['sente'] }).bytes.toString('utf8');
    expect(csa.endsWith("\n'fairplay: sente engine-marked\n")).toBe(true);
    const csaBack = parseCsa(csa);
    expect(csaBack.ok && csaBack.value.moves).toEqual(record.moves);
    expect(
      JSON.parse(recordFile(record, 'jkf', { engineMarked: ['sente'] }).bytes.toString('utf8')).header.fairplay,
    ).toBe('sente engine-marked');
    expect(recordFile(record, 'kifu', { engineMarked: [] }).bytes.toString('utf8')).not.toContain('fairplay');
  });

  it('keeps an uploaded file name without its path or control characters', () => {
    expect(cleanFileName('C:\\games\\old/対局1.kif')).toBe('対局1.kif');
    expect(cleanFileName('a\u0000b.csa')).toBe('ab.csa');
    expect(cleanFileName(null)).toBe('pasted');
    expect(cleanFileName('  ')).toBe('pasted');
  });
});
