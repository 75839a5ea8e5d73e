import { describe, expect, it } from 'vitest';
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { noindexCheck } from './noindex.ts';

const meta = (name: string, content: string | null, inHead = true): MetaTag => ({ name, property: null, httpEquiv: null, charset: null, content, inHead });
/** `x-robots-tag` may be one line or several (repeated headers); the other headers go as they are. */
const run = (metas: MetaTag[], { 'x-robots-tag': robotsTag, ...headers }: Record<string, string | string[]> = {}) =>
  noindexCheck.run(
    makeContext({
      snapshot: { metas },
      page: {
        headers: headers as Record<string, string>,
        xRobotsTag: robotsTag === undefined ? [] : Array.isArray(robotsTag) ? robotsTag : [robotsTag],
      },
    }),
  );

describe('noindex', () => {
  it('passes without blocking directives and lists the ones it read', () => {
    expect(run([meta('robots', 'index, follow')], { 'x-robots-tag': 'noarchive' })).toEqual({
      passed: true,
      value: {
        directives: [
          { source: '<meta name="robots">', content: 'index' },
          { source: '<meta name="robots">', content: 'follow' },
          { source: 'X-Robots-Tag header', content: 'noarchive' },
        ],
        blocked_by: null,
      },
      errors: null,
    });
  });

  it('fails noindex or none in meta robots or googlebot, case-insensitively', () => {
    expect(run([meta('robots', 'NoIndex, follow')])).toMatchObject({ passed: false, value: { blocked_by: '<meta name="robots">' } });
    expect(run([meta('googlebot', ' none ')])).toMatchObject({ passed: false, errors: { noindex: [{ source: '<meta name="googlebot">', content: 'none' }] } });
  });

  it("ignores other crawlers' meta tags and tags without content", () => {
    expect(run([meta('bingbot', 'noindex'), meta('robots', null)]).passed).toBe(true);
  });

  it('fails on the X-Robots-Tag header, also among several joined values', () => {
    expect(run([], { 'x-robots-tag': 'noarchive, noindex' }).passed).toBe(false);
    expect(run([], { 'x-robots-tag': 'googlebot: noindex' })).toMatchObject({
      passed: false,
      errors: { noindex: [{ source: 'X-Robots-Tag header for googlebot', content: 'noindex' }] },
    });
  });

  it('ignores X-Robots-Tag directives addressed to another crawler', () => {
    expect(run([], { 'x-robots-tag': 'otherbot: noindex, nofollow' }).passed).toBe(true);
    expect(run([], { 'x-robots-tag': 'max-snippet: 20, otherbot: noindex' }).passed).toBe(true);
    // A user-agent prefix scopes its own header line only: the second line applies to every crawler.
    expect(run([], { 'x-robots-tag': ['otherbot: nofollow', 'noindex'] }).passed).toBe(false);
  });

  it('fails an unavailable_after date that had passed when the server answered', () => {
    const headers = { date: 'Wed, 21 Oct 2026 07:28:00 GMT' };
    expect(run([meta('robots', 'unavailable_after: Wed, 21 Oct 2025 07:28:00 GMT')], headers).passed).toBe(false);
    expect(run([meta('robots', 'unavailable_after: 2027-01-01')], headers).passed).toBe(true);
  });
});
