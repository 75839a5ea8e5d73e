import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { languageCheck } from './language.ts';

const run = (htmlLang: string | null) => languageCheck.run(makeContext({ snapshot: { htmlLang } }));

describe('language', () => {
  it('passes well-formed BCP 47 tags, in any case', () => {
    expect(run('en')).toEqual({ passed: true, value: { lang: 'en' }, errors: null });
    for (const tag of ['EN-us', 'pt-BR', 'zh-Hant-TW', 'es-419', 'de-CH-1996', 'sl-rozaj-biske', 'zh-yue-HK', 'en-a-bbb-x-private', 'x-klingon', 'i-klingon', 'haw', 'gsw-u-sd-chzh']) {
      expect(run(tag).passed, tag).toBe(true);
    }
  });

  it('fails a missing or empty lang', () => {
    expect(run(null)).toMatchObject({ passed: false, errors: { missing: ['<html lang>'] } });
    expect(run('  ').passed).toBe(false);
  });

  it('fails malformed tags', () => {
    expect(run('en_US')).toMatchObject({ passed: false, value: { lang: 'en_US' }, errors: { invalid: ['en_US'] } });
    // 5-8 letter languages are reserved for registration and none is registered: lang="english" is a mistake.
    for (const tag of ['english', 'e', 'en-', 'abcd', 'en-US-', 'en--US', 'de-x', '123', 'en-a']) {
      expect(run(tag).passed, tag).toBe(false);
    }
  });
});
