import { describe, expect, it } from 'vitest';
import { LABELS_BY_ENCODING, encodingForLabel } from './encoding-labels.ts';

describe('encodingForLabel', () => {
  it.each([
    ['iso-8859-1', 'windows-1252'],
    ['Latin1', 'windows-1252'],
    ['US-ASCII', 'windows-1252'],
    ['gb2312', 'gbk'],
    ['GBK', 'gbk'],
    ['x-sjis', 'shift_jis'],
    ['Shift_JIS', 'shift_jis'],
    ['  utf8 ', 'utf-8'],
    ['ks_c_5601-1987', 'euc-kr'],
    ['tis-620', 'windows-874'],
    ['iso-2022-kr', 'replacement'],
    ['utf-16', 'utf-16le'],
  ])('%s names %s', (label, encoding) => {
    expect(encodingForLabel(label)).toBe(encoding);
  });

  it('knows nothing of unknown labels', () => {
    expect(encodingForLabel('klingon')).toBeNull();
    expect(encodingForLabel('')).toBeNull();
  });

  it("agrees with the platform's TextDecoder, which implements the same table", () => {
    for (const [encoding, labels] of Object.entries(LABELS_BY_ENCODING)) {
      if (encoding === 'replacement' || encoding === 'x-user-defined') continue; // TextDecoder refuses these
      for (const label of labels) {
        let platform: string;
        try {
          platform = new TextDecoder(label).encoding;
        } catch {
          continue; // Node knows the label but its ICU lacks the decoder (iso-8859-16)
        }
        expect([label, platform]).toEqual([label, encoding]);
      }
    }
  });
});
