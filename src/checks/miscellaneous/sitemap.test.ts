import { describe, it, expect } from 'vitest';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import type { OriginFacts } from '../../fetch/types.ts';
import { sitemapCheck } from './sitemap.ts';

const sitemap = (extra: Partial<NonNullable<OriginFacts['sitemap']>> = {}): OriginFacts['sitemap'] => ({
  ...makeAux('https://example.com/sitemap.xml', { statusCode: 200, contentType: 'application/xml', body: '<urlset/>' }),
  source: 'default',
  validXml: true,
  urlCount: 12,
  ...extra,
});

describe('sitemap', () => {
  it('passes a valid sitemap and reports where it came from', () => {
    expect(sitemapCheck.run(makeContext({ origin: { sitemap: sitemap() } }))).toMatchObject({
      passed: true,
      value: { url: 'https://example.com/sitemap.xml', source: 'default', url_count: 12 },
    });
  });

  it('fails a sitemap that is not valid XML', () => {
    const outcome = sitemapCheck.run(makeContext({ origin: { sitemap: sitemap({ validXml: false }) } }));
    expect(outcome).toMatchObject({ passed: false, errors: { invalid_xml: ['https://example.com/sitemap.xml'] } });
  });

  it('fails when none was found', () => {
    const outcome = sitemapCheck.run(makeContext());
    expect(outcome).toMatchObject({ passed: false, value: { url: null }, errors: { missing: ['https://example.com/sitemap.xml'] } });
  });

  it('fails and names the sitemaps robots.txt lists when none answered', () => {
    const robots = { groups: [], sitemaps: ['https://example.com/s1.xml'], problems: [] };
    const origin = { robotsTxt: makeAux('https://example.com/robots.txt', { statusCode: 200 }) };
    const outcome = sitemapCheck.run(makeContext({ origin, robots }));
    expect(outcome).toMatchObject({ passed: false, errors: { unreachable: ['https://example.com/s1.xml'] } });
  });

  it('does not apply when the sitemap could not be read', () => {
    const unread = sitemap({ statusCode: null, validXml: false, error: 'The server at example.com did not answer within 10000 ms.' });
    expect(sitemapCheck.run(makeContext({ origin: { sitemap: unread } }))).toMatchObject({
      passed: null,
      reason: expect.stringContaining('did not answer'),
    });
  });

  it('fails a sitemap URL that answers an error status', () => {
    const outcome = sitemapCheck.run(makeContext({ origin: { sitemap: sitemap({ statusCode: 410 }) } }));
    expect(outcome.passed).toBe(false);
  });

  it('does not apply when robots.txt could not be read', () => {
    const failed = makeAux('https://example.com/robots.txt', { statusCode: null, error: 'timeout' });
    expect(sitemapCheck.run(makeContext({ origin: { robotsTxt: failed } }))).toMatchObject({ passed: null, reason: expect.stringContaining('timeout') });
    const serverError = makeAux('https://example.com/robots.txt', { statusCode: 503 });
    expect(sitemapCheck.run(makeContext({ origin: { robotsTxt: serverError } })).passed).toBeNull();
  });
});
