import { describe, expect, it } from 'vitest';
import type { LinkTag } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { hreflangCheck } from './hreflang.ts';

const alternate = (hreflang: string, href: string | null): LinkTag => ({ rel: ['alternate'], href, hreflang, type: null, media: null, as: null, inHead: true });
const run = (linkTags: LinkTag[], headers: Record<string, string> = {}) => hreflangCheck.run(makeContext({ snapshot: { linkTags }, page: { headers } }));

describe('hreflang', () => {
  it('passes valid codes with absolute URLs', () => {
    const tags = [alternate('en', 'https://example.com/'), alternate('zh-Hant-TW', 'https://example.com/tw/'), alternate('es-419', 'https://example.com/es/'), alternate('x-default', 'https://example.com/')];
    expect(run(tags)).toEqual({ passed: true, value: { alternates: 4, languages: ['en', 'zh-hant-tw', 'es-419', 'x-default'], has_x_default: true }, errors: null });
  });

  it('reads alternates from the Link header too', () => {
    const outcome = run([], { link: '<https://example.com/de/>; rel="alternate"; hreflang="de", <https://example.com/>; rel=canonical' });
    expect(outcome).toMatchObject({ passed: true, value: { alternates: 1, languages: ['de'] } });
    expect(run([], { link: '<https://example.com/de/>; rel="alternate"; hreflang="de_DE"' }).passed).toBe(false);
  });

  it('fails invalid language codes', () => {
    expect(run([alternate('en_US', 'https://example.com/us/'), alternate('english', 'https://example.com/')])).toMatchObject({
      passed: false,
      errors: { invalid_code: [{ source: 'head', hreflang: 'en_US', href: 'https://example.com/us/' }, { hreflang: 'english' }] },
    });
  });

  it('fails relative or empty URLs', () => {
    expect(run([alternate('fr', '/fr/'), alternate('de', null)])).toMatchObject({ passed: false, errors: { not_absolute_url: [{ href: '/fr/' }, { href: '' }] } });
  });

  it('does not apply without alternates', () => {
    expect(run([]).passed).toBeNull();
  });
});
